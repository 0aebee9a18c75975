/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.cli;

import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.Session;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.Statistics;

/** oko:stats: each switch's programs with the statistics the controller last read from the switch. */
@Service
@Command(scope = "oko", name = "stats", description = "Show filter program statistics per switch")
public final class StatsCommand implements Action {
    private static final String ROW = "%-20s %10s  %-20s %12s %12s %8s %8s %6s %9s%n";

    @Reference
    private Session session;

    @Reference
    private DataBroker broker;

    @Argument(index = 0, name = "node", required = false, description = "Only this switch (openflow:N)")
    private String node;

    @Override
    public Object execute() throws Exception {
        final PrintStream out = session.getConsole();
        final Optional<Switches> switches = ConsoleReads.read(broker, LogicalDatastoreType.OPERATIONAL,
            Switches.class);
        out.printf(ROW, "SWITCH", "PROGRAM-ID", "PROGRAM", "RUNS", "MATCHES", "ERRORS", "NS/RUN", "RULES",
            "DP-FLOWS");
        boolean found = false;
        for (Switch sw : switches.map(Switches::nonnullSwitch).orElse(Map.of()).values()) {
            final String name = sw.getNode().getValue();
            if (node != null && !node.equals(name)) {
                continue;
            }
            found = true;
            if (Boolean.FALSE.equals(sw.getOkoSupported())) {
                out.printf("%-20s does not support Oko (%s)%n", name, sw.getOkoSupportMessage());
                continue;
            }
            for (var program : sw.nonnullProgram().values()) {
                final Statistics stats = program.getStatistics();
                final String programName = program.getProgram() == null ? "" : program.getProgram().getValue();
                if (stats == null) {
                    out.printf("%-20s %10s  %-20s (no statistics yet)%n", name, program.getProgramId().getValue(),
                        programName);
                    continue;
                }
                out.printf(ROW, name, program.getProgramId().getValue(), programName, stats.getRuns(),
                    stats.getMatches(), stats.getErrors(), stats.getAverageNsPerRun(), stats.getRules(),
                    stats.getDatapathFlows());
                for (var map : stats.nonnullMap().values()) {
                    out.printf("    map %s %s (%s): %s of %s used, %s evicted, %s refused (full)%n",
                        map.getMapIndex().getValue(), map.getMapName() == null ? "?" : map.getMapName().getValue(),
                        map.getMapType() == null ? "?" : map.getMapType().getName(), map.getUsed(),
                        map.getMaxEntries(), map.getEvictions(), map.getRefusedFull());
                }
            }
        }
        if (node != null && !found) {
            out.println("no such switch: " + node);
        }
        return null;
    }
}
