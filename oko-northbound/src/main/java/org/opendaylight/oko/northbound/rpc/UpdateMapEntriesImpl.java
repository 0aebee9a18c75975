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
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.opendaylight.oko.northbound.program.ProgramImage;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UpdateMapEntries;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UpdateMapEntriesInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UpdateMapEntriesOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UpdateMapEntriesOutputBuilder;
import org.opendaylight.yangtools.yang.common.ErrorTag;
import org.opendaylight.yangtools.yang.common.RpcResult;

/**
 * update-map-entries: writes entries into a map of a program this controller loaded, the map named as in the
 * program. Every key and value must have the map's sizes; nothing is sent if one does not.
 */
final class UpdateMapEntriesImpl implements UpdateMapEntries {
    private final RpcTargets targets;
    private final SwitchClient client;

    UpdateMapEntriesImpl(final RpcTargets targets, final SwitchClient client) {
        this.targets = requireNonNull(targets);
        this.client = requireNonNull(client);
    }

    @Override
    public ListenableFuture<RpcResult<UpdateMapEntriesOutput>> invoke(final UpdateMapEntriesInput input) {
        try {
            final String node = targets.connectedNode(input.getNode());
            final long progId = RpcTargets.requireProgId(input.getProgramId());
            final ProgramImage.MapDeclaration map = targets.map(node, progId, input.getMap());
            final int keySize = (int) map.keySize();
            final int valueSize = ProgramResolver.updateValueSize(map);
            final List<SwitchClient.Entry> entries = new ArrayList<>();
            for (var entry : input.nonnullEntry().values()) {
                final byte[] value = entry.getValue() == null ? new byte[0] : entry.getValue();
                if (entry.getKey().length != keySize || value.length != valueSize) {
                    throw new RpcRefusal(ErrorTag.INVALID_VALUE, "entry " + HexFormat.of().formatHex(entry.getKey())
                        + ": key " + entry.getKey().length + " and value " + value.length + " bytes, map '"
                        + map.name() + "' takes key " + keySize + " and value " + valueSize);
                }
                entries.add(new SwitchClient.Entry(entry.getKey(), value));
            }
            if (entries.isEmpty()) {
                throw new RpcRefusal(ErrorTag.INVALID_VALUE, "entry: at least one entry is needed");
            }
            return SwitchCalls.result(client.updateMap(node, progId, map.index(), keySize, valueSize, entries),
                ignored -> new UpdateMapEntriesOutputBuilder().build(), node);
        } catch (RpcRefusal e) {
            return e.result();
        }
    }
}
