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
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import org.opendaylight.oko.northbound.program.ProgramImage;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DeleteMapEntries;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DeleteMapEntriesInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DeleteMapEntriesOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.DeleteMapEntriesOutputBuilder;
import org.opendaylight.yangtools.yang.common.ErrorTag;
import org.opendaylight.yangtools.yang.common.RpcResult;

/**
 * delete-map-entries: deletes the given keys from a map of a program this controller loaded, or every entry when
 * all is set. Every key must have the map's key size; nothing is sent if one does not.
 */
final class DeleteMapEntriesImpl implements DeleteMapEntries {
    private final RpcTargets targets;
    private final SwitchClient client;

    DeleteMapEntriesImpl(final RpcTargets targets, final SwitchClient client) {
        this.targets = requireNonNull(targets);
        this.client = requireNonNull(client);
    }

    @Override
    public ListenableFuture<RpcResult<DeleteMapEntriesOutput>> invoke(final DeleteMapEntriesInput input) {
        try {
            final String node = targets.connectedNode(input.getNode());
            final long progId = RpcTargets.requireProgId(input.getProgramId());
            final ProgramImage.MapDeclaration map = targets.map(node, progId, input.getMap());
            final boolean all = Boolean.TRUE.equals(input.getAll());
            final Collection<byte[]> keys = input.getKey() == null ? List.of() : input.getKey();
            for (byte[] key : keys) {
                if (key.length != map.keySize()) {
                    throw new RpcRefusal(ErrorTag.INVALID_VALUE, "key " + HexFormat.of().formatHex(key) + ": "
                        + key.length + " bytes, map '" + map.name() + "' takes " + map.keySize());
                }
            }
            if (!all && keys.isEmpty()) {
                throw new RpcRefusal(ErrorTag.INVALID_VALUE, "key: give the keys to delete, or all = true");
            }
            return SwitchCalls.result(client.deleteMapEntries(node, progId, map.index(), (int) map.keySize(), all,
                List.copyOf(keys)), ignored -> new DeleteMapEntriesOutputBuilder().build(), node);
        } catch (RpcRefusal e) {
            return e.result();
        }
    }
}
