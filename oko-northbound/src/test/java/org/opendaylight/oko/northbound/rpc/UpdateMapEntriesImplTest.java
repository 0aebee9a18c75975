/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UpdateMapEntriesInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.entries.Entry;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.map.entries.EntryBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.ErrorTag;

class UpdateMapEntriesImplTest extends RpcTestBase {
    private static final HexFormat HEX = HexFormat.of();

    private UpdateMapEntriesImpl rpc;

    @BeforeEach
    void setUp() throws Exception {
        rpc = new UpdateMapEntriesImpl(targets, client);
        loadFilter(7, "blocklist");
    }

    private static Entry entry(final String key, final String value) {
        return new EntryBuilder().setKey(HEX.parseHex(key)).setValue(value == null ? null : HEX.parseHex(value))
            .build();
    }

    private static UpdateMapEntriesInputBuilder update(final String map, final Entry... entries) {
        return new UpdateMapEntriesInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(7))
            .setMap(map == null ? null : new MapName(map)).setEntry(BindingMap.ordered(List.of(entries)));
    }

    @Test
    void entriesOfTheMapsSizesGoToTheMapByItsIndex() throws Exception {
        // blocked: key {prefix_len u32, source ipv4}, value {packets u64}: 10.0.0.0/8.
        success(rpc.invoke(update("blocked", entry("080000000a000000", "0000000000000000")).build()));
        assertEquals(List.of("openflow:1 update 7 map 0 080000000a000000=0000000000000000"), client.sent);
    }

    @Test
    void oneEntryOfTheWrongSizeSendsNothing() throws Exception {
        assertRefused(rpc.invoke(update("blocked", entry("080000000a000000", "0000000000000000"),
            entry("0a000000", "0000000000000000")).build()), ErrorTag.INVALID_VALUE,
            "entry 0a000000: key 4 and value 8 bytes, map 'blocked' takes key 8 and value 8");
        assertRefused(rpc.invoke(update("blocked", entry("080000000a000000", null)).build()),
            ErrorTag.INVALID_VALUE, "entry 080000000a000000: key 8 and value 0 bytes, map 'blocked' takes key 8 and"
                + " value 8");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void mapsAreNamedAsInTheProgram() throws Exception {
        assertRefused(rpc.invoke(update("blocklist", entry("080000000a000000", "0000000000000000")).build()),
            ErrorTag.INVALID_VALUE, "map: 'blocklist' is not a map of program 7 (it has blocked)");
        assertRefused(rpc.invoke(update(null, entry("080000000a000000", "0000000000000000")).build()),
            ErrorTag.INVALID_VALUE, "map: the map's name is required");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void aProgramThisControllerDidNotLoadHasNoMapNames() throws Exception {
        assertRefused(rpc.invoke(update("blocked", entry("080000000a000000", "0000000000000000"))
            .setProgramId(progId(8)).build()), ErrorTag.DATA_MISSING, "program 8 on openflow:1 was not loaded by this"
                + " controller, so its map names are unknown (load it with load-program or /switches)");
    }

    @Test
    void noEntryIsRefused() throws Exception {
        assertRefused(rpc.invoke(update("blocked").build()), ErrorTag.INVALID_VALUE,
            "entry: at least one entry is needed");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void theSwitchsRefusalIsItsOwnText() throws Exception {
        client.refusals.put("update", "map 0 is full (65536 entries)");
        assertRefused(rpc.invoke(update("blocked", entry("080000000a000000", "0000000000000000")).build()),
            ErrorTag.OPERATION_FAILED, "map 0 is full (65536 entries)");
    }
}
