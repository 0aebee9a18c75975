/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ListLibraryInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.Filter;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.filter.Map;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.list.library.output.filter.Parameter;

class ListLibraryImplTest {
    private final FilterCatalog catalog = new FilterCatalog();

    @Test
    void everyFilterOfTheCatalogInItsOrder() throws Exception {
        final var output = RpcTestBase.success(new ListLibraryImpl(catalog).invoke(new ListLibraryInputBuilder()
            .build()));
        assertEquals(catalog.filters().stream().map(FilterCatalog.Filter::name).toList(), output.nonnullFilter()
            .values().stream().map(f -> f.getName().getValue()).toList());
    }

    @Test
    void aFiltersParametersAndMapsWithTheirLayouts() throws Exception {
        final Filter limiter = RpcTestBase.success(new ListLibraryImpl(catalog).invoke(new ListLibraryInputBuilder()
            .build())).nonnullFilter().values().stream().filter(f -> f.getName().getValue().equals("rate-limiter"))
            .findFirst().orElseThrow();
        assertEquals(catalog.filter("rate-limiter").orElseThrow().version(), limiter.getVersion());
        assertEquals(List.of("rate params u64 1000 packets per second", "burst params u64 rate packets, at most"
            + " 1000000"), limiter.nonnullParameter().values().stream().map(ListLibraryImplTest::text).toList());
        assertEquals(List.of("0 params array 4/16 x1 [index:u32] [rate:u64 burst:u64]",
            "1 buckets lru-hash 4/16 x65536 [source:ipv4] [tokens_ns:u64 last_ns:u64]"),
            limiter.nonnullMap().values().stream().map(ListLibraryImplTest::text).toList());
    }

    private static String text(final Parameter parameter) {
        return parameter.getName() + " " + parameter.getMap().getValue() + " " + parameter.getType() + " "
            + parameter.getDefault() + " " + parameter.getUnit();
    }

    private static String text(final Map map) {
        return map.getMapIndex().getValue() + " " + map.getMapName().getValue() + " " + map.getMapType().getName()
            + " " + map.getKeySize() + "/" + map.getValueSize() + " x" + map.getMaxEntries() + " ["
            + map.getKeyLayout() + "] [" + map.getValueLayout() + "]";
    }
}
