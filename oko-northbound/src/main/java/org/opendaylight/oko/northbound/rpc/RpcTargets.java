/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.DatastoreReads;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OkoSupport;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.program.ProgramImage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yangtools.binding.DataObject;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.ErrorTag;

/**
 * What the RPCs act on, checked before anything is sent: a switch this member may talk Oko to, a program id, a map
 * of a program this controller loaded. Each check refuses with the field and the reason.
 */
final class RpcTargets {
    private final DataBroker broker;
    private final LoadedPrograms loaded;
    private final OkoSupport support;
    private final Predicate<String> mastered;
    private final String member;
    private final long timeoutMillis;

    /**
     * Targets on cluster member {@code member}, which talks to the switches it masters ({@code mastered}) and names
     * the master of any other.
     */
    RpcTargets(final DataBroker broker, final LoadedPrograms loaded, final OkoSupport support,
            final Predicate<String> mastered, final String member, final long timeoutMillis) {
        this.broker = requireNonNull(broker);
        this.loaded = requireNonNull(loaded);
        this.support = requireNonNull(support);
        this.mastered = requireNonNull(mastered);
        this.member = requireNonNull(member);
        this.timeoutMillis = timeoutMillis;
    }

    /** The programs this controller loaded, with their images (map names, sizes, layouts). */
    LoadedPrograms loaded() {
        return loaded;
    }

    /** The switch's id, if it is connected (in the operational inventory), mastered here and runs Oko. */
    String connectedNode(final NodeId nodeId) throws RpcRefusal {
        if (nodeId == null) {
            throw new RpcRefusal(ErrorTag.INVALID_VALUE, "node is required");
        }
        final String node = nodeId.getValue();
        final Optional<Node> inventory = read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier
            .builder(Nodes.class).child(Node.class, new NodeKey(nodeId)).build());
        if (inventory.isEmpty()) {
            throw new RpcRefusal(ErrorTag.DATA_MISSING, "switch " + node + " is unknown or not connected");
        }
        if (!mastered.test(node)) {
            // In a cluster, only the switch's master talks Oko to it (and knows what it loaded there).
            final String master = read(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(node))
                .map(Switch::getMaster).orElse(null);
            throw new RpcRefusal(ErrorTag.RESOURCE_DENIED, node + " is mastered by "
                + (master != null ? master : "another cluster member") + ", not by this one (" + member
                + "): call the RPC on " + (master != null ? master : "the master") + "'s RESTCONF");
        }
        if (support.unsupported(node)) {
            // Nothing Oko is sent to a switch without Oko.
            throw new RpcRefusal(ErrorTag.OPERATION_NOT_SUPPORTED, support.unsupportedMessage(node));
        }
        return node;
    }

    static long requireProgId(final ProgramId id) throws RpcRefusal {
        if (id == null) {
            throw new RpcRefusal(ErrorTag.INVALID_VALUE, "program-id is required");
        }
        return id.getValue().toJava();
    }

    /** The map a name refers to in the program this controller loaded under the id. */
    ProgramImage.MapDeclaration map(final String node, final long progId, final MapName name) throws RpcRefusal {
        if (name == null) {
            throw new RpcRefusal(ErrorTag.INVALID_VALUE, "map: the map's name is required");
        }
        final LoadedPrograms.Loaded program = loaded.get(node, progId).orElseThrow(() -> new RpcRefusal(
            ErrorTag.DATA_MISSING, "program " + progId + " on " + node + " was not loaded by this controller, so"
                + " its map names are unknown (load it with load-program or /switches)"));
        final ProgramImage image = program.program().image();
        return image.map(name.getValue()).orElseThrow(() -> new RpcRefusal(ErrorTag.INVALID_VALUE, "map: '"
            + name.getValue() + "' is not a map of program " + progId + " (it has " + image.maps().stream()
                .map(ProgramImage.MapDeclaration::name).collect(Collectors.joining(", ")) + ")"));
    }

    /** One read of the datastore, bounded by the RPCs' timeout; a failed read refuses with operation-failed. */
    <T extends DataObject> Optional<T> read(final LogicalDatastoreType store, final DataObjectIdentifier<T> path)
            throws RpcRefusal {
        try (var tx = broker.newReadOnlyTransaction()) {
            return DatastoreReads.await(tx.read(store, path), timeoutMillis, "the datastore");
        } catch (IllegalStateException e) {
            throw new RpcRefusal(ErrorTag.OPERATION_FAILED, e.getMessage(), e);
        }
    }
}
