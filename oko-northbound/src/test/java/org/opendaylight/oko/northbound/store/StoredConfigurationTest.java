/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.oko.northbound.store.StoredConfiguration.Change;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowCapableNode;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowCapableNodeBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.Table;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.TableBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.TableKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.FlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.FlowKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.LibraryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program;
import org.opendaylight.yangtools.binding.DataObject;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTree;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidate;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidateNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeConfiguration;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeModification;
import org.opendaylight.yangtools.yang.data.tree.impl.di.InMemoryDataTreeFactory;

/**
 * The store's half of a commit, on yangtools' data tree (the datastore's own): each commit's candidate becomes
 * changes appended to the store's files; reading the files back from nothing gives exactly what the datastore
 * holds, after every kind of write (entry put, replaced, merged into, deleted; a whole subtree written and
 * deleted).
 */
class StoredConfigurationTest extends AbstractConcurrentDataBrokerTest {
    @TempDir
    Path dir;

    private BindingNormalizedNodeSerializer codec;
    private DataTree tree;
    private List<YangInstanceIdentifier> roots;
    private StoreFiles files;
    private StoredConfiguration live;
    /** The bytes the last commit appended to the log. */
    private long lastAppend;
    /** The changes of the last commit. */
    private List<Change> lastChanges = List.of();

    @BeforeEach
    void setUp() throws Exception {
        setup();
        codec = getDataBrokerTestCustomizer().getAdapterContext().currentSerializer();
        tree = new InMemoryDataTreeFactory().create(DataTreeConfiguration.DEFAULT_CONFIGURATION,
            getDataBrokerTestCustomizer().getSchemaService().getGlobalContext());
        roots = List.of(path(DataObjectReference.builder(Programs.class).build()),
            path(DataObjectReference.builder(Switches.class).build()),
            path(DataObjectReference.builder(Nodes.class).build()));
        files = StoreFiles.open(dir);
        files.compact(StoredConfiguration.encode(List.of()));
        live = new StoredConfiguration(roots);
    }

    @AfterEach
    void tearDown() throws IOException {
        files.close();
    }

    private YangInstanceIdentifier path(final DataObjectReference<?> ref) {
        return codec.toYangInstanceIdentifier(ref);
    }

    private <T extends DataObject> NormalizedNode data(final DataObjectIdentifier<T> ref, final T object) {
        return codec.toNormalizedDataObject(ref, object).node();
    }

    /** One transaction on the data tree, and the store's part of its commit. */
    private void commit(final Consumer<DataTreeModification> edit) throws Exception {
        final DataTreeModification modification = tree.takeSnapshot().newModification();
        edit.accept(modification);
        modification.ready();
        tree.validate(modification);
        final var candidate = tree.prepare(modification);
        final List<Change> changes = new ArrayList<>();
        final List<Change> undo = new ArrayList<>();
        for (YangInstanceIdentifier root : roots) {
            DataTreeCandidateNode node = candidate.getRootNode();
            for (var arg : root.getPathArguments()) {
                node = node == null ? null : node.modifiedChild(arg);
            }
            if (node != null) {
                changes.addAll(StoredConfiguration.changes(root, node));
                undo.addAll(StoredConfiguration.undo(root, node));
            }
        }
        tree.commit(candidate);

        // An aborted commit's undo brings the store back to where it was.
        final var beforeCommit = roots.stream().map(live::root).toList();
        live.applyAll(changes);
        live.applyAll(undo);
        assertEquals(beforeCommit, roots.stream().map(live::root).toList(), "after the undo of " + changes);
        final long before = files.logBytes();
        if (!changes.isEmpty()) {
            files.append(StoredConfiguration.encode(changes));
            live.applyAll(changes);
        }
        lastAppend = files.logBytes() - before;
        lastChanges = changes;
    }

    /** What the store's files say after a stop, read by a new process, equals the data tree, root by root. */
    private void assertStoredEqualsTheDatastore() throws IOException {
        final var replayed = new StoredConfiguration(roots);
        try (var reopened = StoreFiles.open(dir)) {
            if (reopened.snapshot() != null) {
                replayed.applyAll(StoredConfiguration.decode(reopened.snapshot()));
            }
            for (byte[] change : reopened.changes()) {
                replayed.applyAll(StoredConfiguration.decode(change));
            }
        }
        for (YangInstanceIdentifier root : roots) {
            final Optional<NormalizedNode> now = tree.takeSnapshot().readNode(root);
            assertEquals(now, replayed.root(root).map(NormalizedNode.class::cast), "after replay: " + root);
            assertEquals(now, live.root(root).map(NormalizedNode.class::cast), "kept in memory: " + root);
        }
    }

    private static DataObjectIdentifier<Switch> switchPath(final String node) {
        return DataObjectIdentifier.builder(Switches.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .build();
    }

    private static Program program(final long id, final String name) {
        return new org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder()
            .setProgramId(new ProgramId(Uint32.valueOf(id))).setProgram(new ProgramName(name)).build();
    }

    private Consumer<DataTreeModification> putSwitch(final String node, final Program... programs) {
        final var ref = switchPath(node);
        final var data = data(ref, new SwitchBuilder().setNode(new NodeId(node)).setProgram(BindingMap.of(programs))
            .build());
        return modification -> modification.write(path(ref), data);
    }

    /** The node of {@code root} in a candidate of the data tree (a listener or cohort registered there gets it). */
    private static DataTreeCandidateNode rootNode(final DataTreeCandidate candidate,
            final YangInstanceIdentifier root) {
        DataTreeCandidateNode node = candidate.getRootNode();
        for (var arg : root.getPathArguments()) {
            node = node.modifiedChild(arg);
        }
        return node;
    }

    private DataTreeCandidate prepared(final Consumer<DataTreeModification> edit) throws Exception {
        final DataTreeModification modification = tree.takeSnapshot().newModification();
        edit.accept(modification);
        modification.ready();
        tree.validate(modification);
        return tree.prepare(modification);
    }

    /**
     * What the store log's order of commits by where they stand (StoreLog.Place) relies on: every commit that
     * changes something under a root makes a new node for the root, and the next commit's node before is that
     * very object (identity); a commit of data equal to what is there still makes a new one.
     */
    @Test
    void aCommitsNodeAfterIsTheNextCommitsNodeBeforeByIdentity() throws Exception {
        final YangInstanceIdentifier switches = roots.get(1);
        final var first = prepared(putSwitch("openflow:1", program(5, "a")));
        tree.commit(first);
        final var second = prepared(putSwitch("openflow:2", program(5, "b")));
        assertSame(rootNode(first, switches).dataAfter(), rootNode(second, switches).dataBefore());
        tree.commit(second);
        final var again = prepared(putSwitch("openflow:2", program(5, "b")));
        assertSame(rootNode(second, switches).dataAfter(), rootNode(again, switches).dataBefore());
        assertNotSame(rootNode(again, switches).dataBefore(), rootNode(again, switches).dataAfter());
        assertEquals(rootNode(again, switches).dataBefore(), rootNode(again, switches).dataAfter());
    }

    @Test
    void everyKindOfWriteReadsBackAsTheDatastoreHasIt() throws Exception {
        commit(putSwitch("openflow:1", program(5, "a")));
        commit(putSwitch("openflow:2", program(5, "b")));
        assertStoredEqualsTheDatastore();

        commit(putSwitch("openflow:1", program(6, "c")));                   // replaced
        final var programPath = switchPath("openflow:2").toBuilder()
            .child(Program.class, program(7, "d").key()).build();
        final var added = data(programPath, program(7, "d"));
        commit(modification -> modification.merge(path(programPath), added));  // inside an entry
        assertStoredEqualsTheDatastore();

        final var programsRef = DataObjectIdentifier.builder(Programs.class)
            .child(org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program.class,
                new ProgramKey(new ProgramName("limiter"))).build();
        final var stored = data(programsRef, new ProgramBuilder().setName(new ProgramName("limiter"))
            .setSource(new LibraryBuilder().setLibraryFilter(new LibraryFilterName("rate-limiter")).build()).build());
        commit(modification -> {                                            // two roots in one transaction
            modification.write(path(programsRef), stored);
            modification.delete(path(switchPath("openflow:1")));
        });
        assertStoredEqualsTheDatastore();

        final var switches = path(DataObjectReference.builder(Switches.class).build());
        commit(modification -> modification.delete(switches));              // a whole subtree
        assertStoredEqualsTheDatastore();
        commit(putSwitch("openflow:9", program(5, "e")));
        final var whole = tree.takeSnapshot().readNode(switches).orElseThrow();
        commit(modification -> modification.delete(switches));
        commit(modification -> modification.write(switches, whole));        // written whole
        assertStoredEqualsTheDatastore();
    }

    @Test
    void oneSwitchsChangeWritesTheSameWhateverTheNumberOfSwitches() throws Exception {
        final long[] appended = new long[2];
        int configured = 0;
        for (int fleet : new int[] { 10, 1000 }) {
            for (; configured < fleet; configured++) {
                commit(putSwitch("openflow:" + (1000 + configured), program(5, "fleet")));
            }
            commit(putSwitch("openflow:" + (1000 + fleet / 2), program(6, "other")));
            appended[fleet == 10 ? 0 : 1] = lastAppend;
        }
        assertEquals(appended[0], appended[1], "bytes appended for one switch's change, 10 and 1000 switches");
        assertStoredEqualsTheDatastore();
    }

    private static DataObjectIdentifier<Node> nodePath(final String node) {
        return DataObjectIdentifier.builder(Nodes.class).child(Node.class, new NodeKey(
            new org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId(node))).build();
    }

    private static DataObjectIdentifier<Table> tablePath(final String node, final int table) {
        return nodePath(node).toBuilder().augmentation(FlowCapableNode.class)
            .child(Table.class, new TableKey(Uint8.valueOf(table))).build();
    }

    private static DataObjectIdentifier<Flow> flowPath(final String node, final int table, final String flow) {
        return tablePath(node, table).toBuilder().child(Flow.class, new FlowKey(new FlowId(flow))).build();
    }

    private static Flow flow(final int table, final String id, final int priority) {
        return new FlowBuilder().setId(new FlowId(id)).setTableId(Uint8.valueOf(table))
            .setPriority(Uint16.valueOf(priority)).build();
    }

    private static Table table(final int id, final Flow... flows) {
        return new TableBuilder().setId(Uint8.valueOf(id)).setFlow(BindingMap.of(flows)).build();
    }

    private Consumer<DataTreeModification> putNode(final String node, final String hardware, final Table... tables) {
        final var ref = nodePath(node);
        final var data = data(ref, new NodeBuilder().setId(
            new org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId(node))
            .addAugmentation(new FlowCapableNodeBuilder().setHardware(hardware).setTable(BindingMap.of(tables))
                .build())
            .build());
        return modification -> modification.write(path(ref), data);
    }

    private Consumer<DataTreeModification> putFlow(final String node, final Flow flow) {
        final var ref = flowPath(node, flow.getTableId().toJava(), flow.getId().getValue());
        final var data = data(ref, flow);
        return modification -> modification.write(path(ref), data);
    }

    /** As openflowplugin's users write flows: merged with the table (and the node) it needs. */
    private Consumer<DataTreeModification> mergeTable(final String node, final Table table) {
        final var ref = tablePath(node, table.getId().toJava());
        final var data = data(ref, table);
        return modification -> modification.merge(path(ref), data);
    }

    @Test
    void flowsAreUnitsOfTheirOwnAndEveryKindOfWriteReadsBack() throws Exception {
        final var nodes = roots.get(2);
        commit(putNode("openflow:1", "hw1", table(0, flow(0, "a", 1), flow(0, "b", 2)), table(1)));
        commit(putNode("openflow:2", "hw2", table(0, flow(0, "x", 1))));
        assertStoredEqualsTheDatastore();
        // node own part, tables, flows: each a unit
        assertEquals(2 + 3 + 3, live.units(nodes).size(), live.units(nodes)::toString);

        commit(mergeTable("openflow:1", table(0, flow(0, "c", 3))));               // a flow added
        assertEquals(List.of(path(flowPath("openflow:1", 0, "c"))), lastChanges.stream().map(Change::path).toList());
        commit(putFlow("openflow:1", flow(0, "a", 7)));                           // one replaced
        assertEquals(List.of(path(flowPath("openflow:1", 0, "a"))), lastChanges.stream().map(Change::path).toList());
        commit(modification -> modification.delete(path(flowPath("openflow:1", 0, "b"))));   // one deleted
        assertEquals(List.of(new Change(path(flowPath("openflow:1", 0, "b")), null)), lastChanges);
        commit(mergeTable("openflow:1", table(2, flow(2, "d", 1))));               // a new table with a flow
        assertEquals(List.of(path(tablePath("openflow:1", 2))), lastChanges.stream().map(Change::path).toList());
        assertStoredEqualsTheDatastore();

        commit(modification -> modification.delete(path(tablePath("openflow:1", 1))));       // an empty table
        commit(modification -> modification.delete(path(tablePath("openflow:1", 0))));       // a table with flows
        assertStoredEqualsTheDatastore();

        // The node's own part (a leaf) changes: one change of the whole node, flows kept.
        final var nodeRef = nodePath("openflow:2");
        final var merged = data(nodeRef, new NodeBuilder().setId(
            new org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId("openflow:2"))
            .addAugmentation(new FlowCapableNodeBuilder().setHardware("hw2-b").build()).build());
        commit(modification -> modification.merge(path(nodeRef), merged));
        assertEquals(List.of(path(nodePath("openflow:2"))), lastChanges.stream().map(Change::path).toList());
        assertStoredEqualsTheDatastore();

        commit(modification -> modification.delete(path(nodePath("openflow:1"))));           // a node with flows
        assertStoredEqualsTheDatastore();
        commit(putFlow("openflow:2", flow(0, "y", 1)));
        final var whole = tree.takeSnapshot().readNode(nodes).orElseThrow();
        commit(modification -> modification.delete(nodes));
        assertStoredEqualsTheDatastore();
        commit(modification -> modification.write(nodes, whole));                   // written whole
        assertStoredEqualsTheDatastore();
        assertEquals(1 + 1 + 2, live.units(nodes).size(), live.units(nodes)::toString);

        // What a restore puts back, outermost first, builds the same configuration again.
        final var again = new StoredConfiguration(roots);
        again.applyAll(live.allUnits());
        assertTrue(again.sameUnits(live));
        assertEquals(live.root(nodes), again.root(nodes));
    }

    @Test
    void oneFlowsChangeWritesTheSameWhateverTheNumberOfFlows() throws Exception {
        commit(putNode("openflow:1", "hw", table(0)));
        final long[] appended = new long[2];
        int configured = 0;
        for (int flows : new int[] { 10, 1000 }) {
            for (; configured < flows; configured++) {
                commit(putFlow("openflow:1", flow(0, String.format("f%04d", configured), 1)));
            }
            commit(putFlow("openflow:1", flow(0, String.format("f%04d", flows / 2), 9)));
            appended[flows == 10 ? 0 : 1] = lastAppend;
        }
        assertEquals(appended[0], appended[1], "bytes appended for one flow's change, 10 and 1000 flows in the node");
        assertStoredEqualsTheDatastore();
    }

    @Test
    void aSnapshotOfTheStoreReadsBackTheSame() throws Exception {
        for (int i = 0; i < 20; i++) {
            commit(putSwitch("openflow:" + i, program(5, "p" + i)));
        }
        commit(modification -> modification.delete(path(switchPath("openflow:0"))));
        files.compact(live.snapshot());
        assertEquals(0, files.logBytes());
        commit(putSwitch("openflow:20", program(5, "after")));
        assertStoredEqualsTheDatastore();
        assertEquals(20, live.size());
        assertTrue(live.root(roots.get(2)).isEmpty());
    }
}
