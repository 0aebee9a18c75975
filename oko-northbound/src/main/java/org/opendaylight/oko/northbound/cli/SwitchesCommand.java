/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.cli;

import java.io.PrintStream;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.Session;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program;

/** The switches Oko knows: connected or not, which cluster member masters each, and how their programs stand. */
@Service
@Command(scope = "oko", name = "switches",
    description = "List the switches: connected, the cluster member that masters each, Oko support, programs")
public final class SwitchesCommand implements Action {
    @Reference
    private Session session;
    @Reference
    private DataBroker broker;

    @Override
    public Object execute() throws Exception {
        final PrintStream out = session.getConsole();
        final Switches switches = ConsoleReads.read(broker, LogicalDatastoreType.OPERATIONAL, Switches.class)
            .orElse(null);
        out.printf("%-24s %-9s %-12s %-4s %s%n", "SWITCH", "CONNECTED", "MASTER", "OKO", "PROGRAMS");
        final Collection<Switch> entries = switches == null ? List.of() : switches.nonnullSwitch().values();
        for (Switch entry : entries) {
            out.printf("%-24s %-9s %-12s %-4s %s%n", entry.getNode().getValue(),
                Boolean.TRUE.equals(entry.getConnected()) ? "yes" : "no",
                entry.getMaster() == null ? "-" : entry.getMaster(),
                entry.getOkoSupported() == null ? "?" : entry.getOkoSupported() ? "yes" : "no",
                statuses(entry.nonnullProgram().values()));
        }
        return null;
    }

    /** "2 installed, 1 rejected": how many of the switch's programs have each status. */
    private static String statuses(final Collection<Program> programs) {
        final Map<String, Long> counts = programs.stream().collect(Collectors.groupingBy(
            program -> program.getStatus() == null ? "unknown" : program.getStatus().getName(), TreeMap::new,
            Collectors.counting()));
        return counts.isEmpty() ? "none" : counts.entrySet().stream()
            .map(count -> count.getValue() + " " + count.getKey()).collect(Collectors.joining(", "));
    }
}
