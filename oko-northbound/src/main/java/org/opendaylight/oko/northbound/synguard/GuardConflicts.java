/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program;

/**
 * What SYN guards must not share on a switch, checked when a write commits (docs/syn-guard.md lists it):
 * <ul>
 * <li>a program id: each guard writes its two programs' entries under its switches, and would replace the other
 * guard's or the operator's program at that id (an entry at a guard's id that names another program than the
 * guard's own, {@code syn-guard-NAME-sampler} or {@code syn-guard-NAME-p0f}, is the operator's);</li>
 * <li>flow priorities in one table: a guard's flows take its priority minus one to plus one; two guards whose
 * ranges meet would have flows of equal priority on the same traffic, where OpenFlow leaves the winner
 * undefined.</li>
 * </ul>
 */
public final class GuardConflicts {
    /** A guard's flows use its priority plus or minus this. */
    private static final int PRIORITY_SPREAD = 1;

    private GuardConflicts() {
    }

    /** Why two guards cannot both run, if they cannot. */
    public static Optional<String> between(final GuardConfig one, final GuardConfig other) {
        final List<String> shared = one.nodes().stream().filter(other.nodes()::contains).toList();
        if (one.name().equals(other.name()) || shared.isEmpty()) {
            return Optional.empty();
        }
        final List<Long> ids = List.of(one.samplerProgramId(), one.filterProgramId());
        for (long id : List.of(other.samplerProgramId(), other.filterProgramId())) {
            if (ids.contains(id)) {
                return Optional.of("program id " + id + " is also SYN guard " + other.name() + "'s, on "
                    + shared.get(0));
            }
        }
        if (one.table() == other.table()
            && Math.abs(one.priority() - other.priority()) <= 2 * PRIORITY_SPREAD) {
            return Optional.of("priority " + one.priority() + " is too close to SYN guard " + other.name()
                + "'s " + other.priority() + " in table " + one.table() + " on " + shared.get(0)
                + " (each guard's flows take its priority -1 to +1; leave a gap of at least 3)");
        }
        return Optional.empty();
    }

    /** Why one of these guards cannot run beside the others or beside the switches' program entries. */
    public static Optional<String> problem(final Collection<GuardConfig> guards, final Switches switches) {
        final List<GuardConfig> all = new ArrayList<>(guards);
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                final Optional<String> conflict = between(all.get(i), all.get(j));
                if (conflict.isPresent()) {
                    return Optional.of("syn-guard " + all.get(i).name() + ": " + conflict.orElseThrow());
                }
            }
        }
        final Map<?, Switch> entries = switches == null ? Map.of() : switches.nonnullSwitch();
        for (GuardConfig guard : all) {
            for (Switch entry : entries.values()) {
                if (!guard.nodes().contains(entry.getNode().getValue())) {
                    continue;
                }
                for (Program program : entry.nonnullProgram().values()) {
                    final long id = program.getProgramId().getValue().toJava();
                    final String named = program.getProgram() == null ? null : program.getProgram().getValue();
                    // Either of the guard's own programs: one that changes its ids may swap them.
                    final boolean guardsId = id == guard.samplerProgramId() || id == guard.filterProgramId();
                    if (guardsId && !guard.objectName("sampler").equals(named)
                        && !guard.objectName("p0f").equals(named)) {
                        return Optional.of("syn-guard " + guard.name() + ": switch " + entry.getNode().getValue()
                            + " has program " + named + " at id " + id + ", the guard's "
                            + (id == guard.samplerProgramId() ? "sampler-program-id" : "filter-program-id")
                            + " (choose other ids, or remove that entry)");
                    }
                }
            }
        }
        return Optional.empty();
    }
}
