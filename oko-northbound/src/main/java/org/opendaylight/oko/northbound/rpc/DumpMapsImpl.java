/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.ListenableFuture;
import java.util.Optional;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.maps.MapContentsMapper;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMaps;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMapsInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMapsOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DumpMapsOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.dump.maps.output.MapBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.RpcResult;

/**
 * dump-maps: a program's maps as the switch holds them now, every map or the named ones, with the entries decoded
 * by the program's layouts when this controller loaded it (raw bytes otherwise).
 */
final class DumpMapsImpl implements DumpMaps {
    private final RpcTargets targets;
    private final SwitchClient client;

    DumpMapsImpl(final RpcTargets targets, final SwitchClient client) {
        this.targets = requireNonNull(targets);
        this.client = requireNonNull(client);
    }

    @Override
    public ListenableFuture<RpcResult<DumpMapsOutput>> invoke(final DumpMapsInput input) {
        try {
            final String node = targets.connectedNode(input.getNode());
            final long progId = RpcTargets.requireProgId(input.getProgramId());
            final Optional<LoadedPrograms.Loaded> program = targets.loaded().get(node, progId);
            long mask = 0;
            if (input.getMap() != null) {
                for (MapName name : input.getMap()) {
                    mask |= 1L << targets.map(node, progId, name).index();
                }
            }
            return SwitchCalls.result(client.dumpMaps(node, progId, mask), sections -> new DumpMapsOutputBuilder()
                .setMap(BindingMap.ordered(MapContentsMapper.join(sections).stream()
                    .map(joined -> new MapBuilder(MapContentsMapper.contents(joined, program)).build())
                    .toList()))
                .build(), node);
        } catch (RpcRefusal e) {
            return e.result();
        }
    }
}
