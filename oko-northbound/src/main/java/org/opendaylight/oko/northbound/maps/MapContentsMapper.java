/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.maps;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.Layout;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.program.ProgramImage;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapIndex;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapContents;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.dump.maps.output.MapBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.contents.Entry;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.contents.EntryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.contents.entry.KeyField;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.contents.entry.KeyFieldBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.contents.entry.ValueField;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.contents.entry.ValueFieldBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * Map contents as the switch sent them (map sections, a map possibly split over several) into the model's
 * map-contents: raw hexadecimal plus, when the program is a library filter, fields decoded with its catalog layout.
 */
public final class MapContentsMapper {
    private static final HexFormat HEX = HexFormat.of();

    private MapContentsMapper() {
        // static helpers only
    }

    /** One map's sections joined, in the switch's order of maps. */
    public record JoinedMap(int mapIndex, int mapType, int keySize, int valueSize, List<SwitchClient.Entry> entries) {
    }

    public static List<JoinedMap> join(final List<SwitchClient.MapSection> sections) {
        final Map<Integer, JoinedMap> joined = new LinkedHashMap<>();
        for (SwitchClient.MapSection section : sections) {
            final JoinedMap previous = joined.get(section.mapIndex());
            final List<SwitchClient.Entry> entries = new ArrayList<>();
            if (previous != null) {
                entries.addAll(previous.entries());
            }
            entries.addAll(section.entries());
            joined.put(section.mapIndex(), new JoinedMap(section.mapIndex(), section.mapType(), section.keySize(),
                section.valueSize(), entries));
        }
        return List.copyOf(joined.values());
    }

    /**
     * The model's map-contents of one map.
     *
     * @param program what is loaded under the program id, if this controller loaded it (names and layouts)
     */
    public static MapContents contents(final JoinedMap map, final Optional<LoadedPrograms.Loaded> program) {
        final Optional<ProgramImage.MapDeclaration> declaration = program.flatMap(p -> p.program().image().maps()
            .stream().filter(m -> m.index() == map.mapIndex()).findFirst());
        final Optional<FilterCatalog.MapLayout> layout = program.flatMap(p -> p.program().filter())
            .flatMap(filter -> filter.maps().stream().filter(m -> m.index() == map.mapIndex()).findFirst());
        final List<Entry> entries = new ArrayList<>(map.entries().size());
        for (SwitchClient.Entry entry : map.entries()) {
            final EntryBuilder builder = new EntryBuilder()
                .setKey(HEX.formatHex(entry.key()))
                .setValue(HEX.formatHex(entry.value()));
            layout.ifPresent(l -> {
                builder.setKeyField(BindingMap.ordered(keyFields(l.key(), entry.key())));
                builder.setValueField(BindingMap.ordered(valueFields(l.value(), entry.value())));
            });
            entries.add(builder.build());
        }
        return new MapBuilder()
            .setMapIndex(new MapIndex(Uint8.valueOf(map.mapIndex())))
            .setMapName(declaration.map(d -> new MapName(d.name())).orElse(null))
            .setMapType(MapType.forValue(map.mapType()))
            .setKeySize(Uint16.valueOf(map.keySize()))
            .setValueSize(Uint16.valueOf(map.valueSize()))
            .setMaxEntries(declaration.map(d -> Uint32.valueOf(d.maxEntries())).orElse(null))
            .setEntryCount(Uint32.valueOf(map.entries().size()))
            .setEntry(entries)
            .build();
    }

    private static List<KeyField> keyFields(final Layout layout, final byte[] bytes) {
        return layout.decode(bytes).stream()
            .map(value -> new KeyFieldBuilder().setName(value.name()).setValue(value.value()).build())
            .toList();
    }

    private static List<ValueField> valueFields(final Layout layout, final byte[] bytes) {
        return layout.decode(bytes).stream()
            .map(value -> new ValueFieldBuilder().setName(value.name()).setValue(value.value()).build())
            .toList();
    }
}
