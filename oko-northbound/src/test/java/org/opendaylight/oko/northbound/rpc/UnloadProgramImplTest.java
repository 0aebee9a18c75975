/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UnloadProgramInputBuilder;
import org.opendaylight.yangtools.yang.common.ErrorTag;

class UnloadProgramImplTest extends RpcTestBase {
    private UnloadProgramImpl rpc;

    @BeforeEach
    void setUp() throws Exception {
        rpc = new UnloadProgramImpl(targets, installer);
        loadFilter(7, "baseline");
    }

    @Test
    void theProgramLeavesTheSwitchAndTheController() throws Exception {
        success(rpc.invoke(new UnloadProgramInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(7))
            .build()));
        assertEquals(List.of("openflow:1 unload 7"), client.sent);
        assertTrue(loaded.get(NODE, 7).isEmpty());
    }

    @Test
    void forceReachesTheSwitch() throws Exception {
        success(rpc.invoke(new UnloadProgramInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(7))
            .setForce(true).build()));
        assertEquals(List.of("openflow:1 unload 7 force"), client.sent);
    }

    @Test
    void theSwitchsRefusalIsItsOwnTextAndTheProgramStaysKnown() throws Exception {
        client.refusals.put("unload", "program 7 is used by 2 flows (unload with force to delete them)");
        assertRefused(rpc.invoke(new UnloadProgramInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(7))
            .build()), ErrorTag.OPERATION_FAILED, "program 7 is used by 2 flows (unload with force to delete them)");
        assertTrue(loaded.get(NODE, 7).isPresent());
    }

    @Test
    void theSwitchAndTheIdAreChecked() throws Exception {
        assertRefused(rpc.invoke(new UnloadProgramInputBuilder().setNode(new NodeId(NODE)).build()),
            ErrorTag.INVALID_VALUE, "program-id is required");
        assertRefused(rpc.invoke(new UnloadProgramInputBuilder().setNode(new NodeId("openflow:2"))
            .setProgramId(progId(7)).build()), ErrorTag.DATA_MISSING, "switch openflow:2 is unknown or not connected");
        masteredBy(NODE, "member-3");
        assertRefused(rpc.invoke(new UnloadProgramInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(7))
            .build()), ErrorTag.RESOURCE_DENIED,
            "openflow:1 is mastered by member-3, not by this one (member-1): call the RPC on member-3's RESTCONF");
        assertEquals(List.of(), client.sent);
    }
}
