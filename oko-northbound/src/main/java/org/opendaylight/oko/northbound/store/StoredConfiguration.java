/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.ContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerChild;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.api.schema.SystemMapNode;
import org.opendaylight.yangtools.yang.data.codec.binfmt.NormalizedNodeDataInput;
import org.opendaylight.yangtools.yang.data.codec.binfmt.NormalizedNodeStreamVersion;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidateNode;

/**
 * The stored configuration of a few subtrees ("roots", each a container), kept as units: one per entry of a list
 * directly under a root (a program, a switch, an inventory node), and one per other child of a root. A change to
 * one switch's entry is then one unit, whatever the number of switches: what the store writes per change is
 * proportional to the change. A {@link Change} replaces everything at or below its path.
 *
 * <p>Not thread-safe: its owner serializes the calls.
 */
final class StoredConfiguration {
    /** Everything at or below {@code path} becomes {@code data} (nothing when null). */
    record Change(YangInstanceIdentifier path, NormalizedNode data) {
    }

    /**
     * One unit's change in one commit: its data before and after, as the datastore's data tree holds them (the
     * same objects wherever the datastore hands out the same commit: what tells a commit from another of equal
     * data).
     */
    record UnitChange(YangInstanceIdentifier path, NormalizedNode before, NormalizedNode after) {
    }

    /** The changes that make each unit what {@code changes} leave it. */
    static List<Change> plain(final List<UnitChange> changes) {
        return changes.stream().map(unit -> new Change(unit.path(), unit.after())).toList();
    }

    /** Changes as unit changes whose earlier data is unknown. */
    static List<UnitChange> unplain(final List<Change> changes) {
        return changes.stream().map(change -> new UnitChange(change.path(), null, change.data())).toList();
    }

    private final List<YangInstanceIdentifier> roots;
    private final Map<YangInstanceIdentifier, NormalizedNode> units = new HashMap<>();

    StoredConfiguration(final List<YangInstanceIdentifier> roots) {
        this.roots = List.copyOf(roots);
    }

    List<YangInstanceIdentifier> roots() {
        return roots;
    }

    int size() {
        return units.size();
    }

    void apply(final Change change) {
        final YangInstanceIdentifier path = change.path();
        final int depth = depth(path);
        if (depth == 2) {
            units.remove(path);                                     // a list entry: nothing below it is a unit
        } else {
            units.keySet().removeIf(path::contains);
        }
        if (change.data() != null) {
            split(path, depth, change.data());
        }
    }

    void applyAll(final List<Change> changes) {
        changes.forEach(this::apply);
    }

    private void split(final YangInstanceIdentifier path, final int depth, final NormalizedNode data) {
        if (depth == 0 && data instanceof ContainerNode container) {
            for (DataContainerChild child : container.body()) {
                split(path.node(child.name()), 1, child);
            }
        } else if (depth == 1 && data instanceof SystemMapNode map) {
            for (MapEntryNode entry : map.body()) {
                units.put(path.node(entry.name()), entry);
            }
        } else {
            units.put(path, data);
        }
    }

    /** Whether {@code path} is at or below one of the stored roots. */
    boolean covers(final YangInstanceIdentifier path) {
        return roots.stream().anyMatch(root -> root.contains(path));
    }

    /** The stored root {@code path} is at or below. */
    YangInstanceIdentifier rootOf(final YangInstanceIdentifier path) {
        return roots.stream().filter(root -> root.contains(path)).findFirst().orElseThrow(
            () -> new IllegalArgumentException(path + " is not under any stored root " + roots));
    }

    /** The stored data of one unit (an entry or another child of a root), or null. */
    NormalizedNode unit(final YangInstanceIdentifier path) {
        return units.get(path);
    }

    /** Every unit, as changes that put them back. */
    List<Change> allUnits() {
        return units.entrySet().stream().map(unit -> new Change(unit.getKey(), unit.getValue())).toList();
    }

    /** Whether both hold the same units with the same data. */
    boolean sameUnits(final StoredConfiguration other) {
        return units.equals(other.units);
    }

    /**
     * Whether applying {@code change} would change nothing: a unit with the same data, or a root or list that
     * holds exactly what the change puts there.
     */
    boolean holds(final Change change) {
        final StoredConfiguration after = new StoredConfiguration(roots);
        if (depth(change.path()) >= 2) {
            return Objects.equals(units.get(change.path()), change.data());
        }
        after.units.putAll(units);
        after.apply(change);
        return after.units.equals(units);
    }

    /** The units below {@code root}, as changes that put them back. */
    List<Change> units(final YangInstanceIdentifier root) {
        return units.entrySet().stream().filter(unit -> root.contains(unit.getKey()))
            .map(unit -> new Change(unit.getKey(), unit.getValue())).toList();
    }

    /** How far {@code path} is below its root (0 for the root itself). */
    private int depth(final YangInstanceIdentifier path) {
        for (YangInstanceIdentifier root : roots) {
            if (root.contains(path)) {
                return length(path) - length(root);
            }
        }
        throw new IllegalArgumentException(path + " is not under any stored root " + roots);
    }

    private static int length(final YangInstanceIdentifier path) {
        return path.getPathArguments().size();
    }

    /**
     * The changes a commit makes to one root, as units: a write of one switch entry is one change of that entry.
     */
    static List<Change> changes(final YangInstanceIdentifier root, final DataTreeCandidateNode node) {
        return plain(unitChanges(root, node));
    }

    /** The changes that undo what {@link #changes} returns for the same commit: the same units, as they were. */
    static List<Change> undo(final YangInstanceIdentifier root, final DataTreeCandidateNode node) {
        return unitChanges(root, node).stream().map(unit -> new Change(unit.path(), unit.before())).toList();
    }

    /** The units a commit changes below one root, each with its data before and after. */
    static List<UnitChange> unitChanges(final YangInstanceIdentifier root, final DataTreeCandidateNode node) {
        final var out = new ArrayList<UnitChange>();
        collect(root, node, 0, out);
        return out;
    }

    private static void collect(final YangInstanceIdentifier path, final DataTreeCandidateNode node, final int depth,
            final List<UnitChange> out) {
        switch (node.modificationType()) {
            case UNMODIFIED:
                return;
            case SUBTREE_MODIFIED:
            case APPEARED:                          // made by a write below it (a first entry)
            case DISAPPEARED:                       // gone with its last entry
                final NormalizedNode shape = node.dataAfter() != null ? node.dataAfter() : node.dataBefore();
                if (depth == 0 && shape instanceof ContainerNode || depth == 1 && shape instanceof SystemMapNode) {
                    for (DataTreeCandidateNode child : node.childNodes()) {
                        collect(path.node(child.name()), child, depth + 1, out);
                    }
                    return;
                }
                out.add(new UnitChange(path, node.dataBefore(), node.dataAfter()));
                return;
            default:                                // written or deleted as a whole
                out.add(new UnitChange(path, node.dataBefore(), node.dataAfter()));
        }
    }

    /** The stored data of one root, as a container to write in its place; empty when nothing is stored there. */
    Optional<ContainerNode> root(final YangInstanceIdentifier root) {
        final var builder = ImmutableNodes.newContainerBuilder()
            .withNodeIdentifier((NodeIdentifier) root.getLastPathArgument());
        final Map<NodeIdentifier, List<MapEntryNode>> lists = new LinkedHashMap<>();
        boolean any = false;
        for (var unit : units.entrySet()) {
            final YangInstanceIdentifier path = unit.getKey();
            if (!root.contains(path)) {
                continue;
            }
            any = true;
            if (length(path) - length(root) == 2
                    && path.getLastPathArgument() instanceof NodeIdentifierWithPredicates
                    && unit.getValue() instanceof MapEntryNode entry) {
                lists.computeIfAbsent((NodeIdentifier) path.getParent().getLastPathArgument(),
                    key -> new ArrayList<>()).add(entry);
            } else {
                builder.withChild((DataContainerChild) unit.getValue());
            }
        }
        for (var list : lists.entrySet()) {
            builder.withChild(ImmutableNodes.newSystemMapBuilder().withNodeIdentifier(list.getKey())
                .withValue(list.getValue()).build());
        }
        return any ? Optional.of(builder.build()) : Optional.empty();
    }

    /** Everything stored, as one payload whose changes rebuild it from nothing. */
    byte[] snapshot() throws IOException {
        return encode(snapshotChanges());
    }

    /** What {@link #snapshot} encodes: each root whole (immutable data: encoded later, elsewhere, it is the same). */
    List<Change> snapshotChanges() {
        final var all = new ArrayList<Change>();
        for (YangInstanceIdentifier root : roots) {
            all.add(new Change(root, root(root).orElse(null)));
        }
        return all;
    }

    static byte[] encode(final List<Change> changes) throws IOException {
        final var bytes = new ByteArrayOutputStream();
        try (var data = new DataOutputStream(bytes);
             var out = NormalizedNodeStreamVersion.current().newDataOutput(data)) {
            out.writeInt(changes.size());
            for (Change change : changes) {
                out.writeYangInstanceIdentifier(change.path());
                out.writeOptionalNormalizedNode(change.data());
            }
        }
        return bytes.toByteArray();
    }

    static List<Change> decode(final byte[] payload) throws IOException {
        final var in = NormalizedNodeDataInput.newDataInput(new DataInputStream(new ByteArrayInputStream(payload)));
        final int count = in.readInt();
        if (count < 0) {
            throw new IOException("a change record with " + count + " changes");
        }
        final var changes = new ArrayList<Change>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            final YangInstanceIdentifier path = in.readYangInstanceIdentifier();
            changes.add(new Change(path, in.readOptionalNormalizedNode().orElse(null)));
        }
        return changes;
    }
}
