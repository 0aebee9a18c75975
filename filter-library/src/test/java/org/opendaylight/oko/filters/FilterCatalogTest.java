/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FilterCatalogTest {
    private final FilterCatalog catalog = new FilterCatalog();

    @Test
    void catalogListsExactlyTheFiltersOfTheLibrary() {
        assertEquals(new FilterLibrary().names(), catalog.filters().stream().map(FilterCatalog.Filter::name)
            .sorted().toList());
    }

    @Test
    void layoutsDescribeEntriesAsMapSectionsCarryThem() {
        // docs/protocol.md 5.1: sketches (bloom, count_min) are dumped as cells, u32 index -> u64 word / u32 count.
        for (var filter : catalog.filters()) {
            for (var map : filter.maps()) {
                final String where = filter.name() + "/" + map.name();
                final int keySize = switch (map.type()) {
                    case "bloom", "count_min" -> Integer.BYTES;
                    default -> map.keySize();
                };
                final int valueSize = switch (map.type()) {
                    case "bloom" -> Long.BYTES;
                    case "count_min" -> Integer.BYTES;
                    default -> map.valueSize();
                };
                assertEquals(keySize, map.key().size(), where + " key layout");
                assertEquals(valueSize, map.value().size(), where + " value layout");
            }
        }
    }

    @Test
    void everyParameterIsAFieldOfAnArraysFirstEntry() {
        for (var filter : catalog.filters()) {
            for (var parameter : filter.parameters()) {
                final String where = filter.name() + "/" + parameter.name();
                final var map = filter.map(parameter.map()).orElseThrow(() -> new AssertionError(where));
                assertEquals("array", map.type(), where);
                // The controller writes parameters at index 0 (p0f-syn-flood's other slots are UPDATE_MAP's).
                assertTrue(map.maxEntries() >= 1, where);
                assertTrue(map.value().offsetOf(parameter.name()) >= 0, where + " has no value field");
                assertEquals(parameter.type(), map.value().field(parameter.name()).type(), where);
            }
        }
    }

    @Test
    void rateLimiterIsDescribed() {
        final var filter = catalog.filter("rate-limiter").orElseThrow();
        assertEquals(List.of("rate", "burst"), filter.parameters().stream().map(FilterCatalog.Parameter::name)
            .toList());
        assertEquals("1000", filter.parameter("rate").orElseThrow().defaultValue());
        assertEquals("rate", filter.parameter("burst").orElseThrow().defaultValue());
        assertEquals(List.of("params", "buckets"), filter.maps().stream().map(FilterCatalog.MapLayout::name)
            .toList());
    }
}
