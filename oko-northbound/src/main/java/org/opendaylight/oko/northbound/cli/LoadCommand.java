/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.Session;
import org.opendaylight.mdsal.binding.api.RpcService;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgram;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.load.program.input.what.ConfiguredBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.load.program.input.what.InlineBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.ElfBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.LibraryBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;

/** oko:load: the load-program RPC from the console. */
@Service
@Command(scope = "oko", name = "load", description = "Load a filter program onto a switch now")
public final class LoadCommand implements Action {
    @Reference
    private Session session;

    @Reference
    private RpcService rpcs;

    @Argument(index = 0, name = "node", required = true, description = "switch, e.g. openflow:1")
    private String node;

    @Argument(index = 1, name = "program-id", required = true, description = "id on the wire, 1..4294967295")
    private long programId;

    @Argument(index = 2, name = "program", required = true,
        description = "a stored program's name, library:<filter>, or file:<path to a .o file>")
    private String program;

    @Option(name = "-r", aliases = "--replace", description = "replace a program loaded under the same id")
    private boolean replace;

    @Option(name = "-k", aliases = "--keep-maps", description = "with --replace, keep the old program's maps")
    private boolean keepMaps;

    @Override
    public Object execute() throws Exception {
        final var input = new LoadProgramInputBuilder()
            .setNode(new NodeId(node))
            .setProgramId(new ProgramId(Uint32.valueOf(programId)))
            .setReplace(replace)
            .setKeepMaps(keepMaps);
        if (program.startsWith("library:")) {
            input.setWhat(new InlineBuilder().setSource(new LibraryBuilder()
                .setLibraryFilter(new LibraryFilterName(program.substring("library:".length()))).build()).build());
        } else if (program.startsWith("file:")) {
            final byte[] elf;
            try {
                elf = Files.readAllBytes(Path.of(program.substring("file:".length())));
            } catch (IOException e) {
                session.getConsole().println("Error: " + "cannot read " + program + ": " + e.getMessage());
                return null;
            }
            input.setWhat(new InlineBuilder().setSource(new ElfBuilder().setElf(elf).build()).build());
        } else {
            input.setWhat(new ConfiguredBuilder().setProgram(new ProgramName(program)).build());
        }
        try {
            final var output = RpcCalls.await(rpcs.getRpc(LoadProgram.class).invoke(input.build()));
            session.getConsole().println(node + ": program " + programId + " " + output.getStatus().getName() + " ("
                + output.getInstructions() + " instructions)");
        } catch (RpcCalls.CommandFailedException e) {
            session.getConsole().println("Error: " + e.getMessage());
        }
        return null;
    }
}
