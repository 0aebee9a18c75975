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
import java.util.stream.Collectors;
import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.Session;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.Elf;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.Library;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;

/** oko:programs: the stored programs and what each switch has, as RESTCONF shows them. */
@Service
@Command(scope = "oko", name = "programs", description = "List stored filter programs and their status per switch")
public final class ProgramsCommand implements Action {
    @Reference
    private Session session;

    @Reference
    private DataBroker broker;

    @Override
    public Object execute() throws Exception {
        final PrintStream out = session.getConsole();
        final Optional<Programs> config = ConsoleReads.read(broker, LogicalDatastoreType.CONFIGURATION, Programs.class);
        final Map<ProgramKey, Program> withInfo = ConsoleReads.read(broker, LogicalDatastoreType.OPERATIONAL,
                Programs.class)
            .map(Programs::nonnullProgram).orElse(Map.of());
        out.printf("%-20s %-32s %-6s %12s  %s%n", "PROGRAM", "SOURCE", "VALID", "INSTRUCTIONS", "MAPS");
        for (Program program : config.map(Programs::nonnullProgram).orElse(Map.of()).values()) {
            final var info = Optional.ofNullable(withInfo.get(program.key())).map(Program::getInfo);
            out.printf("%-20s %-32s %-6s %12s  %s%n", program.getName().getValue(), source(program),
                info.map(i -> Boolean.TRUE.equals(i.getValid()) ? "yes" : "no").orElse("?"),
                info.map(i -> i.getInstructions() == null ? "" : i.getInstructions().toString()).orElse(""),
                info.map(i -> Boolean.TRUE.equals(i.getValid())
                    ? i.nonnullMap().values().stream().map(m -> m.getMapName().getValue())
                        .collect(Collectors.joining(", "))
                    : i.getProblem()).orElse(""));
        }
        out.println();
        out.printf("%-20s %10s  %-20s %-20s %s%n", "SWITCH", "PROGRAM-ID", "PROGRAM", "STATUS", "MESSAGE");
        final Optional<Switches> switches = ConsoleReads.read(broker, LogicalDatastoreType.OPERATIONAL, Switches.class);
        for (var sw : switches.map(Switches::nonnullSwitch).orElse(Map.of()).values()) {
            for (var program : sw.nonnullProgram().values()) {
                out.printf("%-20s %10s  %-20s %-20s %s%n", sw.getNode().getValue(), program.getProgramId().getValue(),
                    program.getProgram() == null ? "" : program.getProgram().getValue(),
                    program.getStatus() == null ? "" : program.getStatus().getName(),
                    program.getStatusMessage() == null ? "" : program.getStatusMessage());
            }
        }
        return null;
    }

    private static String source(final Program program) {
        if (program.getSource() instanceof Library library && library.getLibraryFilter() != null) {
            return "library " + library.getLibraryFilter().getValue();
        }
        if (program.getSource() instanceof Elf elf && elf.getElf() != null) {
            return "elf, " + elf.getElf().length + " bytes";
        }
        return "";
    }
}
