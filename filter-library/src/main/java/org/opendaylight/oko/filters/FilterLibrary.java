/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.filters;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The prebuilt filters of Oko's filter library, by name. Each is the ELF object that
 * {@code clang -O2 -target bpf -c filter-library/filters/NAME.c} produced at build time.
 */
public final class FilterLibrary {
    private static final String RESOURCE_DIR = "/org/opendaylight/oko/filters/";
    private static final Pattern VALID_NAME = Pattern.compile("[a-z0-9_-]{1,64}");

    private final List<String> names;

    public FilterLibrary() {
        names = readIndex();
    }

    /**
     * Names of every filter in the library, sorted.
     *
     * @return filter names
     */
    public List<String> names() {
        return names;
    }

    /**
     * The ELF object of one filter.
     *
     * @param name filter name, as listed by {@link #names()}
     * @return the object's bytes, or empty if the library has no such filter
     */
    public Optional<byte[]> load(final String name) {
        requireNonNull(name);
        if (!VALID_NAME.matcher(name).matches() || !names.contains(name)) {
            return Optional.empty();
        }
        try (InputStream in = FilterLibrary.class.getResourceAsStream(RESOURCE_DIR + name + ".o")) {
            if (in == null) {
                throw new IllegalStateException("filter " + name + " is indexed but its object is missing");
            }
            return Optional.of(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read filter " + name, e);
        }
    }

    private static List<String> readIndex() {
        try (InputStream in = FilterLibrary.class.getResourceAsStream(RESOURCE_DIR + "INDEX")) {
            if (in == null) {
                throw new IllegalStateException("filter library index missing: the bundle was built without its"
                    + " BPF objects");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .sorted()
                .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read filter library index", e);
        }
    }
}
