/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMapsInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMapsOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.contents.Entry;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.contents.entry.ValueField;
import org.opendaylight.yangtools.yang.common.ErrorTag;

class DumpMapsImplTest extends RpcTestBase {
    private static final HexFormat HEX = HexFormat.of();
    /** Map types as the switch numbers them (docs/protocol.md): lru_hash. */
    private static final int LRU_HASH = 3;

    private DumpMapsImpl rpc;

    @BeforeEach
    void setUp() throws Exception {
        rpc = new DumpMapsImpl(targets, client);
        loadFilter(7, "rate-limiter");
    }

    private static DumpMapsInputBuilder dump(final long progId, final String... maps) {
        return new DumpMapsInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(progId))
            .setMap(maps.length == 0 ? null : new LinkedHashSet<>(List.of(maps).stream().map(MapName::new).toList()));
    }

    @Test
    void aMapSplitOverRepliesIsOneMapDecodedByTheFiltersLayout() throws Exception {
        client.dumps = List.of(
            new SwitchClient.MapSection(1, LRU_HASH, 4, 16, List.of(new SwitchClient.Entry(HEX.parseHex("0a000001"),
                HEX.parseHex("00ca9a3b00000000" + "0100000000000000")))),
            new SwitchClient.MapSection(1, LRU_HASH, 4, 16, List.of(new SwitchClient.Entry(HEX.parseHex("0a000002"),
                HEX.parseHex("0000000000000000" + "0200000000000000")))));
        final DumpMapsOutput output = success(rpc.invoke(dump(7, "buckets").build()));
        assertEquals(List.of("openflow:1 dump 7 mask 0x2"), client.sent);
        assertEquals(1, output.nonnullMap().size());
        final var map = output.nonnullMap().values().iterator().next();
        assertEquals("buckets", map.getMapName().getValue());
        assertEquals(2, map.getEntryCount().toJava());
        assertEquals(65536, map.getMaxEntries().toJava());
        final Entry first = map.nonnullEntry().get(0);
        assertEquals("0a000001", first.getKey());
        assertEquals(List.of("source=10.0.0.1"), first.nonnullKeyField().values().stream()
            .map(f -> f.getName() + "=" + f.getValue()).toList());
        assertEquals(List.of("tokens_ns=1000000000", "last_ns=1"), first.nonnullValueField().values().stream()
            .map(f -> f.getName() + "=" + f.getValue()).toList());
    }

    @Test
    void everyMapWhenNoneIsNamed() throws Exception {
        success(rpc.invoke(dump(7).build()));
        assertEquals(List.of("openflow:1 dump 7"), client.sent);
    }

    @Test
    void aProgramLoadedByOthersIsDumpedRaw() throws Exception {
        client.dumps = List.of(new SwitchClient.MapSection(0, LRU_HASH, 4, 4, List.of(new SwitchClient.Entry(
            HEX.parseHex("01020304"), HEX.parseHex("05060708")))));
        final var map = success(rpc.invoke(dump(9).build())).nonnullMap().values().iterator().next();
        assertNull(map.getMapName());
        final Entry entry = map.nonnullEntry().get(0);
        assertEquals("01020304=05060708", entry.getKey() + "=" + entry.getValue());
        assertEquals(List.of(), List.copyOf(entry.nonnullValueField().values()).stream().map(ValueField::getName)
            .toList());
    }

    @Test
    void anUnknownMapNameSendsNothing() throws Exception {
        assertRefused(rpc.invoke(dump(7, "buckets", "bucket").build()), ErrorTag.INVALID_VALUE,
            "map: 'bucket' is not a map of program 7 (it has params, buckets)");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void theSwitchsRefusalIsItsOwnText() throws Exception {
        client.refusals.put("dump", "program 7 is not loaded");
        assertRefused(rpc.invoke(dump(7).build()), ErrorTag.OPERATION_FAILED, "program 7 is not loaded");
    }
}
