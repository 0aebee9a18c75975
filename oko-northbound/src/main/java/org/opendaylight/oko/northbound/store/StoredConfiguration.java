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
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.Table;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yangtools.yang.common.QName;
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
import org.opendaylight.yangtools.yang.data.tree.api.ModificationType;

/**
 * The stored configuration of a few subtrees ("roots", each a container), kept as units: one per entry of a list
 * directly under a root (a program, a switch, an inventory node), one per other child of a root, and one per entry
 * of the lists {@link #INNER_UNIT_LISTS} names inside such an entry (an inventory node's tables, a table's flows). A
 * unit that has units inside it keeps only its own part (the entry without those lists). A change to one switch's
 * entry, or to one flow, is then one unit, whatever the number of switches or flows: what the store writes per
 * change is proportional to the change. A {@link Change} replaces everything at or below its path.
 *
 * <p>Not thread-safe: its owner serializes the calls.
 */
final class StoredConfiguration {
    /**
     * Lists whose entries are units of their own inside the unit that holds them: an inventory node's tables and a
     * table's flows (a node holds thousands of flows, each written on its own).
     */
    static final Set<QName> INNER_UNIT_LISTS = Set.of(Table.QNAME, Flow.QNAME);

    /** Everything at or below {@code path} becomes {@code data} (nothing when null). */
    record Change(YangInstanceIdentifier path, NormalizedNode data) {
    }

    /**
     * One unit's change in one commit: its data before and after, as the datastore's data tree holds them (the
     * same objects wherever the datastore hands out the same commit: what tells a commit from another of equal
     * data). {@code outer}: for a unit inside an entry of a list under a root (a flow, a table), that entry as the
     * commit left it (whole, with everything inside it), else null: what the store writes instead of the unit when
     * the unit alone would not do (its holder not stored; a newer commit overlapping an older one).
     */
    record UnitChange(YangInstanceIdentifier path, NormalizedNode before, NormalizedNode after, Change outer) {
        UnitChange(final YangInstanceIdentifier path, final NormalizedNode before, final NormalizedNode after) {
            this(path, before, after, null);
        }

        /** The entry under a root this change is in, as the commit left it; the change itself at or above one. */
        Change outerChange() {
            return outer != null ? outer : new Change(path, after);
        }
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
    /** Each unit's data; a unit with units inside it: its own part. */
    private final Map<YangInstanceIdentifier, NormalizedNode> units = new HashMap<>();
    /** The units directly inside each unit that has any. A unit inside another exists only while that one does. */
    private final Map<YangInstanceIdentifier, Set<YangInstanceIdentifier>> inner = new HashMap<>();

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
        remove(path);
        if (change.data() != null) {
            split(path, depth(path), change.data());
        }
    }

    void applyAll(final List<Change> changes) {
        changes.forEach(this::apply);
    }

    /** Removes everything at or below {@code path}. */
    private void remove(final YangInstanceIdentifier path) {
        if (units.containsKey(path)) {
            removeUnit(path);
        } else if (isEntryUnitPath(path)) {
            return;                                     // an entry not stored has nothing stored inside it
        } else if (isInnerListPath(path)) {
            final Set<YangInstanceIdentifier> siblings = inner.get(path.getParent());
            if (siblings != null) {
                List.copyOf(siblings).stream().filter(path::contains).forEach(this::removeUnit);
            }
        } else {                                        // a root, a list under it: rare, whole subtrees
            for (YangInstanceIdentifier unit : List.copyOf(units.keySet())) {
                if (path.contains(unit) && units.containsKey(unit)) {
                    removeUnit(unit);
                }
            }
        }
    }

    private void removeUnit(final YangInstanceIdentifier path) {
        units.remove(path);
        final Set<YangInstanceIdentifier> inside = inner.remove(path);
        if (inside != null) {
            inside.forEach(this::removeUnit);
        }
        final YangInstanceIdentifier holder = holder(path);
        if (holder != null) {
            final Set<YangInstanceIdentifier> siblings = inner.get(holder);
            if (siblings != null) {
                siblings.remove(path);
                if (siblings.isEmpty()) {
                    inner.remove(holder);
                }
            }
        }
    }

    private void split(final YangInstanceIdentifier path, final int depth, final NormalizedNode data) {
        if (depth == 0 && data instanceof ContainerNode container) {
            for (DataContainerChild child : container.body()) {
                split(path.node(child.name()), 1, child);
            }
        } else if ((depth == 1 || isInnerListPath(path)) && data instanceof SystemMapNode map) {
            for (MapEntryNode entry : map.body()) {
                putEntry(path.node(entry.name()), entry);
            }
        } else if (isEntryUnitPath(path) && data instanceof MapEntryNode entry) {
            putEntry(path, entry);
        } else {
            units.put(path, data);
        }
    }

    /** Stores an entry as a unit: its own part, and each entry of its inner lists as a unit inside it. */
    private void putEntry(final YangInstanceIdentifier path, final MapEntryNode entry) {
        final YangInstanceIdentifier holder = holder(path);
        if (holder != null && !units.containsKey(holder)) {
            // Cannot be in the datastore without the entry that holds it. Only an older commit written after a
            // newer one (StoreLog.notified) makes one, and the newer units written after it remove it again.
            return;
        }
        final var own = ImmutableNodes.newMapEntryBuilder().withNodeIdentifier(entry.name());
        final List<SystemMapNode> lists = new ArrayList<>();
        for (DataContainerChild child : entry.body()) {
            if (child instanceof SystemMapNode list && INNER_UNIT_LISTS.contains(list.name().getNodeType())) {
                lists.add(list);
            } else {
                own.withChild(child);
            }
        }
        units.put(path, lists.isEmpty() ? entry : own.build());
        if (holder != null) {
            inner.computeIfAbsent(holder, key -> new HashSet<>()).add(path);
        }
        for (SystemMapNode list : lists) {
            for (MapEntryNode child : list.body()) {
                putEntry(path.node(list.name()).node(child.name()), child);
            }
        }
    }

    /** Whether {@code path} names an entry that is a unit: of a list under a root, or of an inner list. */
    private boolean isEntryUnitPath(final YangInstanceIdentifier path) {
        final int depth = depth(path);
        return depth == 2 || depth > 2 && path.getLastPathArgument() instanceof NodeIdentifierWithPredicates
            && isInnerListPath(path.getParent());
    }

    /** Whether {@code path} names an inner list (of {@link #INNER_UNIT_LISTS}) of an entry that is a unit. */
    private boolean isInnerListPath(final YangInstanceIdentifier path) {
        return depth(path) > 2 && path.getLastPathArgument() instanceof NodeIdentifier list
            && INNER_UNIT_LISTS.contains(list.getNodeType()) && isEntryUnitPath(path.getParent());
    }

    /** The unit an inner unit is inside of; null for a unit directly under a root. */
    private YangInstanceIdentifier holder(final YangInstanceIdentifier path) {
        return depth(path) > 2 && isEntryUnitPath(path) ? path.getParent().getParent() : null;
    }

    /**
     * {@code changes} as they can be applied to what is stored now: a unit inside an entry whose holder is not
     * stored (the store lags behind the datastore there) becomes that entry, whole, as the commit left it. Without
     * this the unit would be dropped ({@link #putEntry}).
     */
    List<UnitChange> anchored(final List<UnitChange> changes) {
        if (changes.stream().allMatch(unit -> unit.outer() == null || holdersStored(unit.path()))) {
            return changes;
        }
        final Map<YangInstanceIdentifier, UnitChange> out = new LinkedHashMap<>();
        for (UnitChange unit : changes) {
            if (unit.outer() == null || holdersStored(unit.path())) {
                out.putIfAbsent(unit.path(), unit);
            } else {
                out.putIfAbsent(unit.outer().path(), new UnitChange(unit.outer().path(), null, unit.outer().data()));
            }
        }
        return List.copyOf(out.values());
    }

    private boolean holdersStored(final YangInstanceIdentifier path) {
        // An inner list (a node's tables written as a whole list) is held by the entry it is in.
        for (YangInstanceIdentifier holder = isInnerListPath(path) ? path.getParent() : holder(path); holder != null;
                holder = holder(holder)) {
            if (!units.containsKey(holder)) {
                return false;
            }
        }
        return true;
    }

    /** The entry of a list under a root that {@code path} is in (itself at depth 2); the path itself above. */
    YangInstanceIdentifier outerPath(final YangInstanceIdentifier path) {
        final int depth = depth(path);
        return depth <= 2 ? path : path.getAncestor(length(path) - depth + 2);
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

    /** The stored data of one unit (an entry or another child of a root), without the units inside it; or null. */
    NormalizedNode unit(final YangInstanceIdentifier path) {
        return units.get(path);
    }

    /**
     * Everything stored at {@code path} as the datastore would hold it there: a unit with the units inside it, a
     * list of units, a root; null when nothing is.
     */
    NormalizedNode subtree(final YangInstanceIdentifier path) {
        if (units.containsKey(path)) {
            return assemble(path);
        }
        if (roots.contains(path)) {
            return root(path).orElse(null);
        }
        final List<YangInstanceIdentifier> entries;
        if (isInnerListPath(path)) {
            entries = inner.getOrDefault(path.getParent(), Set.of()).stream().filter(path::contains).toList();
        } else if (depth(path) == 1) {
            entries = units.keySet().stream().filter(unit -> path.contains(unit) && depth(unit) == 2).toList();
        } else {
            return null;
        }
        if (entries.isEmpty()) {
            return null;
        }
        final var list = ImmutableNodes.newSystemMapBuilder()
            .withNodeIdentifier((NodeIdentifier) path.getLastPathArgument());
        entries.forEach(entry -> list.withChild((MapEntryNode) assemble(entry)));
        return list.build();
    }

    /** A unit with the units inside it, as one entry. */
    private NormalizedNode assemble(final YangInstanceIdentifier path) {
        final NormalizedNode own = units.get(path);
        final Set<YangInstanceIdentifier> inside = inner.get(path);
        if (inside == null || !(own instanceof MapEntryNode entry)) {
            return own;
        }
        final Map<NodeIdentifier, List<MapEntryNode>> lists = new LinkedHashMap<>();
        for (YangInstanceIdentifier unit : inside) {
            lists.computeIfAbsent((NodeIdentifier) unit.getParent().getLastPathArgument(), key -> new ArrayList<>())
                .add((MapEntryNode) assemble(unit));
        }
        final var whole = ImmutableNodes.newMapEntryBuilder().withNodeIdentifier(entry.name()).withValue(entry.body());
        for (var list : lists.entrySet()) {
            whole.withChild(ImmutableNodes.newSystemMapBuilder().withNodeIdentifier(list.getKey())
                .withValue(list.getValue()).build());
        }
        return whole.build();
    }

    /**
     * Every unit, as changes that put them back, a unit before the units inside it (each change replaces what is
     * below its path).
     */
    List<Change> allUnits() {
        return outermostFirst(units.keySet().stream());
    }

    private List<Change> outermostFirst(final java.util.stream.Stream<YangInstanceIdentifier> paths) {
        return paths.sorted(Comparator.comparingInt(StoredConfiguration::length))
            .map(path -> new Change(path, units.get(path))).toList();
    }

    /** Whether both hold the same units with the same data. */
    boolean sameUnits(final StoredConfiguration other) {
        return units.equals(other.units);
    }

    /** The units below {@code root}, as changes that put them back, a unit before the units inside it. */
    List<Change> units(final YangInstanceIdentifier root) {
        return outermostFirst(units.keySet().stream().filter(root::contains));
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

    /**
     * The units a commit changes below one root, each with its data before and after. An entry some of whose units
     * inside it changed, and nothing of its own part, is the change of those units; an entry whose own part changed
     * (a leaf of an inventory node) is one change, with everything inside it.
     */
    static List<UnitChange> unitChanges(final YangInstanceIdentifier root, final DataTreeCandidateNode node) {
        final var out = new ArrayList<UnitChange>();
        collect(root, node, 0, null, out);
        return out;
    }

    private static void collect(final YangInstanceIdentifier path, final DataTreeCandidateNode node, final int depth,
            final Change outer, final List<UnitChange> out) {
        switch (node.modificationType()) {
            case UNMODIFIED:
                return;
            case SUBTREE_MODIFIED:
            case APPEARED:                          // made by a write below it (a first entry)
            case DISAPPEARED:                       // gone with its last entry
                final NormalizedNode shape = node.dataAfter() != null ? node.dataAfter() : node.dataBefore();
                if (depth == 0 && shape instanceof ContainerNode || depth == 1 && shape instanceof SystemMapNode
                        || depth > 2 && shape instanceof SystemMapNode map
                            && INNER_UNIT_LISTS.contains(map.name().getNodeType())) {
                    for (DataTreeCandidateNode child : node.childNodes()) {
                        collect(path.node(child.name()), child, depth + 1, outer, out);
                    }
                    return;
                }
                if (depth >= 2 && shape instanceof MapEntryNode && onlyInnerListsChanged(node)) {
                    final Change entry = depth == 2 ? new Change(path, node.dataAfter()) : outer;
                    for (DataTreeCandidateNode child : node.childNodes()) {
                        if (isInnerList(child)) {
                            collect(path.node(child.name()), child, depth + 1, entry, out);
                        }
                    }
                    return;
                }
                out.add(new UnitChange(path, node.dataBefore(), node.dataAfter(), outer));
                return;
            default:                                // written or deleted as a whole
                out.add(new UnitChange(path, node.dataBefore(), node.dataAfter(), outer));
        }
    }

    private static boolean isInnerList(final DataTreeCandidateNode child) {
        return child.name() instanceof NodeIdentifier list && INNER_UNIT_LISTS.contains(list.getNodeType());
    }

    /**
     * Whether the only children of an entry that changed are inner lists (its own part is as it was). A merge
     * writes the entry's key leaf again with the value it has: that is no change.
     */
    private static boolean onlyInnerListsChanged(final DataTreeCandidateNode entry) {
        boolean any = false;
        for (DataTreeCandidateNode child : entry.childNodes()) {
            if (isInnerList(child)) {
                any |= child.modificationType() != ModificationType.UNMODIFIED;
            } else if (child.modificationType() != ModificationType.UNMODIFIED
                    && (child.dataBefore() == null || !child.dataBefore().equals(child.dataAfter()))) {
                return false;
            }
        }
        return any;
    }

    /** The stored data of one root, as a container to write in its place; empty when nothing is stored there. */
    Optional<ContainerNode> root(final YangInstanceIdentifier root) {
        final var builder = ImmutableNodes.newContainerBuilder()
            .withNodeIdentifier((NodeIdentifier) root.getLastPathArgument());
        final Map<NodeIdentifier, List<MapEntryNode>> lists = new LinkedHashMap<>();
        boolean any = false;
        for (var unit : units.entrySet()) {
            final YangInstanceIdentifier path = unit.getKey();
            if (!root.contains(path) || length(path) - length(root) > 2) {
                continue;
            }
            any = true;
            if (length(path) - length(root) == 2
                    && path.getLastPathArgument() instanceof NodeIdentifierWithPredicates
                    && unit.getValue() instanceof MapEntryNode) {
                lists.computeIfAbsent((NodeIdentifier) path.getParent().getLastPathArgument(),
                    key -> new ArrayList<>()).add((MapEntryNode) assemble(path));
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
