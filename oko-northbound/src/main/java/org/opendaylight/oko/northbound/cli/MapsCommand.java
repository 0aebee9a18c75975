/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.cli;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.karaf.shell.api.action.Action;
import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Reference;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.apache.karaf.shell.api.console.Session;
import org.opendaylight.mdsal.binding.api.RpcService;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMaps;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMapsInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yangtools.yang.common.Uint32;

/** oko:maps: the dump-maps RPC from the console. */
@Service
@Command(scope = "oko", name = "maps", description = "Show a program's maps on a switch (DUMP_MAPS)")
public final class MapsCommand implements Action {
    @Reference
    private Session session;

    @Reference
    private RpcService rpcs;

    @Argument(index = 0, name = "node", required = true, description = "switch, e.g. openflow:1")
    private String node;

    @Argument(index = 1, name = "program-id", required = true, description = "the program's id on the switch")
    private long programId;

    @Argument(index = 2, name = "map", multiValued = true, description = "map names (all maps when none)")
    private List<String> maps;

    @Override
    public Object execute() throws Exception {
        final var input = new DumpMapsInputBuilder()
            .setNode(new NodeId(node))
            .setProgramId(new ProgramId(Uint32.valueOf(programId)));
        if (maps != null && !maps.isEmpty()) {
            input.setMap(maps.stream().map(MapName::new).collect(Collectors.toSet()));
        } else {
            input.setMap(Set.of());
        }
        try {
            final var output = RpcCalls.await(rpcs.getRpc(DumpMaps.class).invoke(input.build()));
            for (var map : output.nonnullMap().values()) {
                session.getConsole().println("map " + map.getMapIndex().getValue()
                    + (map.getMapName() == null ? "" : " '" + map.getMapName().getValue() + "'") + " "
                    + map.getMapType().getName() + ": " + map.getEntryCount() + " entries");
                for (var entry : map.nonnullEntry()) {
                    final String fields = entry.nonnullKeyField().values().stream()
                        .map(f -> f.getName() + "=" + f.getValue()).collect(Collectors.joining(" "))
                        + (entry.nonnullValueField().isEmpty() ? "" : " | ")
                        + entry.nonnullValueField().values().stream().map(f -> f.getName() + "=" + f.getValue())
                            .collect(Collectors.joining(" "));
                    session.getConsole().println("  " + entry.getKey() + " = " + entry.getValue()
                        + (fields.isBlank() ? "" : "   " + fields));
                }
            }
        } catch (RpcCalls.CommandFailedException e) {
            session.getConsole().println("Error: " + e.getMessage());
        }
        return null;
    }
}
