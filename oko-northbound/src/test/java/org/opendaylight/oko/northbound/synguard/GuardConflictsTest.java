/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.SwitchesBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint32;

class GuardConflictsTest {
    private static GuardConfig guard(final String name, final List<String> nodes, final int table,
            final int priority, final long samplerId, final long filterId) {
        return new GuardConfig(name, nodes, List.of(new GuardConfig.Destination("10.0.0.0/24", false, 80)), 100,
            1000, 60, 60, 4, 0.01, List.of(), Set.of(), table, table + 1, priority, samplerId, filterId);
    }

    private static Switches switchWith(final String node, final long id, final String program) {
        return new SwitchesBuilder().setSwitch(BindingMap.of(new SwitchBuilder().setNode(new NodeId(node))
            .setProgram(BindingMap.of(new ProgramBuilder().setProgramId(new ProgramId(Uint32.valueOf(id)))
                .setProgram(new ProgramName(program)).build()))
            .build())).build();
    }

    @Test
    void guardsOnOtherSwitchesMayShareEverything() {
        assertEquals(Optional.empty(), GuardConflicts.between(guard("a", List.of("openflow:1"), 0, 1000, 65000,
            65001), guard("b", List.of("openflow:2"), 0, 1000, 65000, 65001)));
    }

    @Test
    void aSharedSwitchRefusesASharedProgramId() {
        final Optional<String> problem = GuardConflicts.between(
            guard("a", List.of("openflow:1", "openflow:2"), 0, 1000, 65000, 65001),
            guard("b", List.of("openflow:2"), 0, 2000, 65001, 65002));
        assertEquals(Optional.of("program id 65001 is also SYN guard b's, on openflow:2"), problem);
    }

    @Test
    void priorityRangesThatMeetAreRefusedOnlyInTheSameTable() {
        final GuardConfig a = guard("a", List.of("openflow:1"), 0, 1000, 65000, 65001);
        assertTrue(GuardConflicts.between(a, guard("b", List.of("openflow:1"), 0, 1002, 65010, 65011)).orElseThrow()
            .startsWith("priority 1000 is too close to SYN guard b's 1002 in table 0 on openflow:1"));
        assertTrue(GuardConflicts.between(a, guard("b", List.of("openflow:1"), 0, 998, 65010, 65011)).isPresent());
        assertEquals(Optional.empty(),
            GuardConflicts.between(a, guard("b", List.of("openflow:1"), 0, 1003, 65010, 65011)));
        assertEquals(Optional.empty(),
            GuardConflicts.between(a, guard("b", List.of("openflow:1"), 2, 1000, 65010, 65011)));
    }

    @Test
    void anOperatorsProgramAtTheGuardsIdIsRefused() {
        final GuardConfig a = guard("a", List.of("openflow:1"), 0, 1000, 65000, 65001);
        assertEquals(Optional.of("syn-guard a: switch openflow:1 has program my-firewall at id 65001, the guard's"
            + " filter-program-id (choose other ids, or remove that entry)"),
            GuardConflicts.problem(List.of(a), switchWith("openflow:1", 65001, "my-firewall")));
        assertEquals(Optional.empty(), GuardConflicts.problem(List.of(a), switchWith("openflow:2", 65001,
            "my-firewall")));
        assertEquals(Optional.empty(), GuardConflicts.problem(List.of(a), switchWith("openflow:1", 65002,
            "my-firewall")));
    }

    @Test
    void theGuardsOwnEntriesAreItsOwnEvenWithItsIdsSwapped() {
        final GuardConfig a = guard("a", List.of("openflow:1"), 0, 1000, 65001, 65000);
        assertEquals(Optional.empty(), GuardConflicts.problem(List.of(a), switchWith("openflow:1", 65000,
            "syn-guard-a-sampler")));
        assertEquals(Optional.empty(), GuardConflicts.problem(List.of(a), switchWith("openflow:1", 65001,
            "syn-guard-a-p0f")));
        assertTrue(GuardConflicts.problem(List.of(a), switchWith("openflow:1", 65001, "syn-guard-b-p0f"))
            .isPresent());
    }

    @Test
    void theFirstConflictAmongSeveralGuardsIsNamed() {
        assertEquals(Optional.of("syn-guard a: program id 65000 is also SYN guard c's, on openflow:3"),
            GuardConflicts.problem(List.of(guard("a", List.of("openflow:3"), 0, 1000, 65000, 65001),
                guard("b", List.of("openflow:4"), 0, 1000, 65000, 65001),
                guard("c", List.of("openflow:3"), 0, 3000, 64000, 65000)), null));
    }
}
