/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.program;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;

/**
 * Checks a write of /programs before it commits: every program that is new or changed must resolve (a valid ELF
 * object or an existing library filter, parameters and initial entries that fit). The answer names the program
 * and the field, as the operator's RESTCONF error.
 */
public final class ProgramsValidator {
    private final ProgramResolver resolver;

    public ProgramsValidator(final ProgramResolver resolver) {
        this.resolver = requireNonNull(resolver);
    }

    /** What is wrong with the new state, or empty when it may commit. */
    public Optional<String> problem(final Programs before, final Programs after) {
        if (after == null) {
            return Optional.empty();
        }
        final Map<ProgramKey, Program> old = before == null ? Map.of() : before.nonnullProgram();
        for (Program program : after.nonnullProgram().values()) {
            if (program.equals(old.get(program.key()))) {
                continue;
            }
            try {
                resolver.resolve(program.getName().getValue(), program.getSource(), program);
            } catch (InvalidProgramException e) {
                return Optional.of("program '" + program.getName().getValue() + "': " + e.getMessage());
            }
        }
        return Optional.empty();
    }

    /**
     * A program deleted from /programs while a switch entry still names it, in the configuration as it will be
     * after the write: the switch would keep running it with nothing in the configuration saying so. Removing the
     * switch entry in the same write, or before, lets the program go.
     */
    public static Optional<String> stillConfigured(final Programs before, final Programs after,
            final Switches switchesAfter) {
        if (before == null || switchesAfter == null) {
            return Optional.empty();
        }
        final Map<ProgramKey, Program> remaining = after == null ? Map.of() : after.nonnullProgram();
        for (var sw : switchesAfter.nonnullSwitch().values()) {
            for (var entry : sw.nonnullProgram().values()) {
                if (entry.getProgram() == null) {
                    continue;
                }
                final var key = new ProgramKey(entry.getProgram());
                if (before.nonnullProgram().containsKey(key) && !remaining.containsKey(key)) {
                    final String node = sw.getNode().getValue();
                    final long id = entry.getProgramId().getValue().toJava();
                    return Optional.of("program '" + entry.getProgram().getValue() + "' is configured for " + node
                        + " as program " + id + ": delete /oko:switches/switch=" + node + "/program=" + id
                        + " first, or in the same request");
                }
            }
        }
        return Optional.empty();
    }
}
