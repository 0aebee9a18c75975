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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DeleteMapEntriesInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yangtools.yang.common.ErrorTag;

class DeleteMapEntriesImplTest extends RpcTestBase {
    private static final HexFormat HEX = HexFormat.of();

    private DeleteMapEntriesImpl rpc;

    @BeforeEach
    void setUp() throws Exception {
        rpc = new DeleteMapEntriesImpl(targets, client);
        loadFilter(7, "rate-limiter");
    }

    private static DeleteMapEntriesInputBuilder delete(final String map, final String... keys) {
        return new DeleteMapEntriesInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(7))
            .setMap(new MapName(map)).setKey(keys.length == 0 ? null : Stream.of(keys).map(HEX::parseHex)
                .collect(Collectors.toCollection(LinkedHashSet::new)));
    }

    @Test
    void keysAreDeletedFromTheNamedMap() throws Exception {
        success(rpc.invoke(delete("buckets", "0a000001", "0a000002").build()));
        assertEquals(List.of("openflow:1 delete 7 map 1 0a000001 0a000002"), client.sent);
    }

    @Test
    void allEmptiesTheMap() throws Exception {
        success(rpc.invoke(delete("buckets").setAll(true).build()));
        assertEquals(List.of("openflow:1 delete 7 map 1 all"), client.sent);
    }

    @Test
    void aKeyOfTheWrongSizeSendsNothing() throws Exception {
        assertRefused(rpc.invoke(delete("buckets", "0a000001", "0a00000102").build()), ErrorTag.INVALID_VALUE,
            "key 0a00000102: 5 bytes, map 'buckets' takes 4");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void neitherKeysNorAllIsRefused() throws Exception {
        assertRefused(rpc.invoke(delete("buckets").build()), ErrorTag.INVALID_VALUE,
            "key: give the keys to delete, or all = true");
        assertRefused(rpc.invoke(delete("buckets").setAll(false).build()), ErrorTag.INVALID_VALUE,
            "key: give the keys to delete, or all = true");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void anUnknownMapListsTheProgramsMaps() throws Exception {
        assertRefused(rpc.invoke(delete("bucket", "0a000001").build()), ErrorTag.INVALID_VALUE,
            "map: 'bucket' is not a map of program 7 (it has params, buckets)");
    }

    @Test
    void theSwitchsRefusalIsItsOwnText() throws Exception {
        client.refusals.put("delete", "program 7 is not loaded");
        assertRefused(rpc.invoke(delete("buckets").setAll(true).build()), ErrorTag.OPERATION_FAILED,
            "program 7 is not loaded");
    }
}
