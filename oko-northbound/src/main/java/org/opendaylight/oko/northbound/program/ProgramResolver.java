/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.program;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.FilterLibrary;
import org.opendaylight.oko.northbound.switchio.SwitchClient.Entry;
import org.opendaylight.oko.openflowjava.OkoConstants;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramSettings;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.settings.InitialMap;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.settings.Parameter;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.Source;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.Elf;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.Library;

/**
 * Turns a program as the operator configured it (ELF bytes or a library filter, parameters, initial map entries)
 * into a {@link ResolvedProgram}, or refuses it with an {@link InvalidProgramException} whose message names the
 * field at fault.
 */
public final class ProgramResolver {
    /** Map types whose UPDATE_MAP entries differ from their declaration (docs/protocol.md 5.1). */
    private static final int MAP_TYPE_BLOOM = 4;
    private static final int MAP_TYPE_COUNT_MIN = 5;
    private static final int COUNT_MIN_INCREMENT_SIZE = 4;
    /** docs/protocol.md section 2: a 65535-byte message less LOAD_PROG's 32-byte header. */
    static final int MAX_ELF_SIZE = OkoConstants.MAX_ELF_LENGTH;

    private final FilterLibrary library;
    private final FilterCatalog catalog;

    public ProgramResolver(final FilterLibrary library, final FilterCatalog catalog) {
        this.library = requireNonNull(library);
        this.catalog = requireNonNull(catalog);
    }

    public FilterCatalog catalog() {
        return catalog;
    }

    /**
     * Resolves one program.
     *
     * @param name the program's name, for messages
     * @param source where its ELF comes from
     * @param settings its parameters and initial maps, or null
     * @throws InvalidProgramException naming the field at fault
     */
    public ResolvedProgram resolve(final String name, final Source source, final ProgramSettings settings) {
        final byte[] elf;
        final Optional<FilterCatalog.Filter> filter;
        if (source instanceof Elf elfCase && elfCase.getElf() != null) {
            elf = elfCase.getElf();
            filter = Optional.empty();
        } else if (source instanceof Library libraryCase && libraryCase.getLibraryFilter() != null) {
            final String filterName = libraryCase.getLibraryFilter().getValue();
            elf = library.load(filterName).orElseThrow(() -> new InvalidProgramException("library-filter '"
                + filterName + "': the filter library has no such filter (it has " + String.join(", ",
                    library.names()) + ")"));
            filter = catalog.filter(filterName);
        } else {
            throw new InvalidProgramException("program '" + name + "': neither elf nor library-filter is set");
        }

        if (elf.length > MAX_ELF_SIZE) {
            throw new InvalidProgramException("elf: " + elf.length + " bytes; a program is at most " + MAX_ELF_SIZE
                + " bytes (LOAD_PROG carries it in one OpenFlow message)");
        }
        final ProgramImage image;
        try {
            image = ProgramImage.read(elf);
        } catch (InvalidProgramException e) {
            throw new InvalidProgramException("elf: " + e.getMessage(), e);
        }
        final List<ResolvedProgram.MapWrite> writes = new ArrayList<>();
        if (settings != null) {
            writes.addAll(parameterWrites(image, filter, settings.nonnullParameter().values()));
            for (InitialMap initial : settings.nonnullInitialMap().values()) {
                writes.add(initialWrite(image, initial));
            }
        }
        return new ResolvedProgram(name, elf, image, filter, writes);
    }

    private static List<ResolvedProgram.MapWrite> parameterWrites(final ProgramImage image,
            final Optional<FilterCatalog.Filter> filter, final Collection<Parameter> given) {
        if (given.isEmpty()) {
            // Library filters still get their defaults written: a parameter map of zeros may mean "unset".
            if (filter.isEmpty() || filter.orElseThrow().parameters().isEmpty()) {
                return List.of();
            }
        } else if (filter.isEmpty()) {
            throw new InvalidProgramException("parameter '" + given.iterator().next().getName()
                + "': parameters need a library-filter (the catalog describes them)");
        }
        final FilterCatalog.Filter catalogFilter = filter.orElseThrow();
        final Map<String, String> values = new LinkedHashMap<>();
        for (Parameter parameter : given) {
            if (catalogFilter.parameter(parameter.getName()).isEmpty()) {
                throw new InvalidProgramException("parameter '" + parameter.getName() + "': filter "
                    + catalogFilter.name() + " has no such parameter (it has " + catalogFilter.parameters().stream()
                        .map(FilterCatalog.Parameter::name).collect(Collectors.joining(", ")) + ")");
            }
            values.put(parameter.getName(), parameter.getValue());
        }
        final Map<String, byte[]> mapValues = new LinkedHashMap<>();
        for (FilterCatalog.Parameter parameter : catalogFilter.parameters()) {
            final FilterCatalog.MapLayout layout = catalogFilter.map(parameter.map()).orElseThrow();
            final byte[] value = mapValues.computeIfAbsent(parameter.map(), m -> new byte[layout.valueSize()]);
            String text = values.get(parameter.name());
            if (text == null) {
                text = parameter.defaultValue();
                if (catalogFilter.parameter(text).isPresent()) {
                    // A default that names another parameter takes that parameter's value.
                    text = values.getOrDefault(text, catalogFilter.parameter(text).orElseThrow().defaultValue());
                }
            }
            try {
                layout.value().encode(parameter.name(), text, value);
            } catch (IllegalArgumentException e) {
                throw new InvalidProgramException("parameter '" + parameter.name() + "': " + e.getMessage(), e);
            }
        }
        final List<ResolvedProgram.MapWrite> writes = new ArrayList<>();
        mapValues.forEach((mapName, value) -> {
            final ProgramImage.MapDeclaration map = image.map(mapName).orElseThrow(() -> new InvalidProgramException(
                "parameter map '" + mapName + "' is not declared by the program"));
            writes.add(new ResolvedProgram.MapWrite(map.index(), mapName, (int) map.keySize(), value.length,
                List.of(new Entry(new byte[(int) map.keySize()], value))));
        });
        return writes;
    }

    private static ResolvedProgram.MapWrite initialWrite(final ProgramImage image, final InitialMap initial) {
        final String mapName = initial.getMap().getValue();
        final ProgramImage.MapDeclaration map = image.map(mapName).orElseThrow(() -> new InvalidProgramException(
            "initial-map '" + mapName + "': the program has no such map (it has " + image.maps().stream()
                .map(ProgramImage.MapDeclaration::name).collect(Collectors.joining(", ")) + ")"));
        final int keySize = (int) map.keySize();
        final int valueSize = updateValueSize(map);
        final List<Entry> entries = new ArrayList<>();
        for (var entry : initial.nonnullEntry().values()) {
            final byte[] key = entry.getKey();
            final byte[] value = entry.getValue() == null ? new byte[0] : entry.getValue();
            if (key.length != keySize || value.length != valueSize) {
                throw new InvalidProgramException("initial-map '" + mapName + "' entry " + HexFormat.of().formatHex(key)
                    + ": key " + key.length + " and value " + value.length + " bytes, the map takes key " + keySize
                    + " and value " + valueSize);
            }
            entries.add(new Entry(key, value));
        }
        return new ResolvedProgram.MapWrite(map.index(), mapName, keySize, valueSize, entries);
    }

    /** Value size UPDATE_MAP uses for a map: sketches add elements (docs/protocol.md 5.1). */
    public static int updateValueSize(final ProgramImage.MapDeclaration map) {
        return switch (map.type()) {
            case MAP_TYPE_BLOOM -> 0;
            case MAP_TYPE_COUNT_MIN -> COUNT_MIN_INCREMENT_SIZE;
            default -> (int) map.valueSize();
        };
    }
}
