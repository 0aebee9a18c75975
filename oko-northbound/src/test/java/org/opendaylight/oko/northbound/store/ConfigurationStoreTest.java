/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opendaylight.mdsal.common.api.LogicalDatastoreType.CONFIGURATION;

import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.DataValidationFailedException;
import org.opendaylight.mdsal.common.api.PostCanCommitStep;
import org.opendaylight.mdsal.common.api.PostPreCommitStep;
import org.opendaylight.mdsal.common.api.ThreePhaseCommitStep;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
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
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.util.concurrent.FluentFutures;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.model.api.EffectiveModelContext;

/**
 * The configuration store in front of a model of the datastore ({@link ModelDatastore}): what a client was
 * answered with success is what a start after a KILL puts back, and nothing else. Each test names the finding of
 * issue 55 it reproduces; each failed on the store before the two-phase records.
 */
class ConfigurationStoreTest extends AbstractConcurrentDataBrokerTest {
    private static final String MEMBER = "member-1";

    @TempDir
    Path dir;

    private BindingNormalizedNodeSerializer codec;
    private EffectiveModelContext schema;
    private List<YangInstanceIdentifier> roots;
    private final StartGate gate = new StartGate();

    @BeforeEach
    void setUp() throws Exception {
        setup();
        codec = getDataBrokerTestCustomizer().getAdapterContext().currentSerializer();
        schema = getDataBrokerTestCustomizer().getSchemaService().getGlobalContext();
        roots = List.of(codec.toYangInstanceIdentifier(DataObjectReference.builder(Programs.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Switches.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Nodes.class).build()));
    }

    /** A controller started on an empty datastore (persistent=false) with the store in {@link #dir}. */
    private ConfigurationStore start(final ModelDatastore datastore) throws IOException {
        return ModelDatastore.started(new ConfigurationStore(datastore.member(MEMBER), roots, dir, MEMBER,
            datastore.shards(MEMBER, List.of(MEMBER)), gate, 0, 10));
    }

    private static DataObjectIdentifier<Switch> switchRef(final String node) {
        return DataObjectIdentifier.builder(Switches.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .build();
    }

    private YangInstanceIdentifier switchPath(final String node) {
        return codec.toYangInstanceIdentifier(switchRef(node));
    }

    /** A switch entry running one program named {@code program}. */
    private NormalizedNode switchEntry(final String node, final String program) {
        return codec.toNormalizedDataObject(switchRef(node), new SwitchBuilder().setNode(new NodeId(node))
            .setProgram(BindingMap.of(new ProgramBuilder().setProgramId(new ProgramId(Uint32.valueOf(5)))
                .setProgram(new ProgramName(program)).build())).build()).node();
    }

    private DOMDataTreeWriteTransaction put(final ModelDatastore.Member member, final String node,
            final String program) {
        final var tx = member.newWriteOnlyTransaction();
        tx.put(CONFIGURATION, switchPath(node), switchEntry(node, program));
        return tx;
    }

    private DOMDataTreeWriteTransaction delete(final ModelDatastore.Member member, final String node) {
        final var tx = member.newWriteOnlyTransaction();
        tx.delete(CONFIGURATION, switchPath(node));
        return tx;
    }

    private static void assertAcknowledged(final List<? extends ListenableFuture<? extends CommitInfo>> answers)
            throws InterruptedException {
        for (var answer : answers) {
            try {
                answer.get();
            } catch (ExecutionException e) {
                throw new AssertionError("a write the test expects to be acknowledged failed", e);
            }
        }
    }

    private static String refusal(final ListenableFuture<? extends CommitInfo> answer) {
        final var failure = assertThrows(ExecutionException.class, answer::get, "the write is refused");
        final var text = new StringBuilder();
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            text.append(cause.getMessage()).append(" / ");
        }
        return text.toString();
    }

    /** What the switch entry is after a KILL of the controller and a start on an empty datastore. */
    private Optional<NormalizedNode> afterKill(final ModelDatastore.Member member, final String node)
            throws IOException {
        member.kill();
        final var restarted = new ModelDatastore(schema);
        start(restarted);
        return restarted.read(switchPath(node));
    }

    /** Every file of the store, by name (what a KILL would leave). */
    private Map<String, String> storeFiles() throws IOException {
        final var files = new TreeMap<String, String>();
        try (var walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(file).toString(), HexFormat.of().formatHex(Files.readAllBytes(file)));
            }
        }
        return files;
    }

    /**
     * The commit a read waits for in a cluster (ReadBarrier) goes through the shards of the stored subtrees but
     * changes nothing: neither the datastore nor the store's files (no record, no fsync a read).
     */
    @Test
    void aReadBarrierChangesNeitherTheDatastoreNorTheStoredFiles() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        start(datastore);
        assertAcknowledged(List.of(put(member, "openflow:1", "fw").commit()));
        final var held = roots.stream().map(datastore::read).toList();
        final var files = storeFiles();
        final var barrier = new ReadBarrier(member, roots);
        for (int i = 0; i < 3; i++) {
            assertNull(barrier.pass());
        }
        assertEquals(held, roots.stream().map(datastore::read).toList());
        assertEquals(files, storeFiles());
    }

    /**
     * Finding 1: two writers of one entry, X then Y, both answered before this member's listener hears of X (its
     * notifications come after the answers): the store must not log X again after Y. Killed after the listener
     * heard of X only.
     */
    @Test
    void twoWritersOfOneEntryKeepTheLastAcknowledgedThroughAKill() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        start(datastore);
        assertAcknowledged(List.of(put(member, "openflow:1", "first").commit()));
        member.hold();
        assertAcknowledged(List.of(put(member, "openflow:1", "x").commit()));
        assertAcknowledged(List.of(put(member, "openflow:1", "y").commit()));
        member.deliver(1);                                      // the listener hears of X, then the KILL
        assertEquals(Optional.of(switchEntry("openflow:1", "y")), afterKill(member, "openflow:1"));
    }

    /** Finding 1, with a delete: an acknowledged delete is not undone by the put before it. */
    @Test
    void anAcknowledgedDeleteIsNotUndoneByTheWriteBeforeIt() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        start(datastore);
        member.hold();
        assertAcknowledged(List.of(put(member, "openflow:1", "x").commit()));
        assertAcknowledged(List.of(delete(member, "openflow:1").commit()));
        member.deliver(1);
        assertEquals(Optional.empty(), afterKill(member, "openflow:1"));
    }

    /**
     * Finding 1 across a change of leader: this member's listener still has to hear of a commit another member
     * led (Z) when this member, now the leader, commits a newer value (W) of the same entry.
     */
    @Test
    void aListenerBehindANewLeaderDoesNotPutAnOlderValueAfterANewerOne() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        final var other = datastore.member("member-2");
        start(datastore);
        datastore.lead("member-2");
        member.hold();
        assertAcknowledged(List.of(put(other, "openflow:1", "z").commit()));
        datastore.lead(MEMBER);
        assertAcknowledged(List.of(put(member, "openflow:1", "w").commit()));
        member.deliver(1);                                      // Z reaches this member's listener, then the KILL
        assertEquals(Optional.of(switchEntry("openflow:1", "w")), afterKill(member, "openflow:1"));
    }

    /**
     * A member that becomes the leader while its listener still has to hear of the previous leader's commits has
     * a complete copy from its first commit on (the whole subtree as the datastore holds it goes with that
     * commit's prepare), and the older notifications that arrive afterwards are not written over it.
     */
    @Test
    void aNewLeaderWhoseListenerLagsHasACompleteCopyFromItsFirstCommit() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        final var other = datastore.member("member-2");
        start(datastore);
        datastore.lead("member-2");
        member.hold();
        assertAcknowledged(List.of(put(other, "openflow:1", "old").commit()));
        assertAcknowledged(List.of(put(other, "openflow:1", "x").commit()));
        assertAcknowledged(List.of(put(other, "openflow:2", "y").commit()));
        datastore.lead(MEMBER);
        assertAcknowledged(List.of(put(member, "openflow:3", "z").commit()));
        member.deliver(1);                                      // "old" reaches the listener, then the KILL
        member.kill();
        final var restarted = new ModelDatastore(schema);
        start(restarted);
        assertEquals(Optional.of(switchEntry("openflow:1", "x")), restarted.read(switchPath("openflow:1")));
        assertEquals(Optional.of(switchEntry("openflow:2", "y")), restarted.read(switchPath("openflow:2")));
        assertEquals(Optional.of(switchEntry("openflow:3", "z")), restarted.read(switchPath("openflow:3")));
    }

    /**
     * Finding 6: a write another cohort refuses after the store's pre-commit gets an error (controller 11.0.2
     * aborts no cohort that pre-committed); it must not come back at the next start.
     */
    @Test
    void aWriteRefusedAfterTheStorePreparedItIsNotRestored() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        start(datastore);
        member.registerCommitCohort(DOMDataTreeIdentifier.of(CONFIGURATION, roots.get(1)),
            (txId, ctx, candidates) -> FluentFutures.immediateFluentFuture(new PostCanCommitStep() {
                @Override
                public ListenableFuture<? extends PostPreCommitStep> preCommit() {
                    return Futures.immediateFailedFuture(new IOException("refused by another cohort"));
                }

                @Override
                public ListenableFuture<?> abort() {
                    return ThreePhaseCommitStep.NOOP_ABORT_FUTURE;
                }
            }));
        assertTrue(refusal(put(member, "openflow:1", "refused").commit()).contains("refused by another cohort"));
        assertEquals(Optional.empty(), datastore.read(switchPath("openflow:1")));
        assertEquals(Optional.empty(), afterKill(member, "openflow:1"));
    }

    /**
     * The audit's finding 4: a restore refused by a configuration store (here a failed one that leads the shard)
     * says nothing about the entries: none is dropped, and the next start restores them.
     */
    @Test
    void aRestoreRefusedByAFailedStoreDropsNothing() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        start(datastore);
        assertAcknowledged(List.of(put(member, "openflow:1", "kept").commit()));
        member.kill();
        final var restarted = new ModelDatastore(schema);
        final var failedLeader = restarted.member(MEMBER).registerCommitCohort(
            DOMDataTreeIdentifier.of(CONFIGURATION, roots.get(1)),
            (txId, ctx, candidates) -> FluentFutures.immediateFailedFluentFuture(new DataValidationFailedException(
                YangInstanceIdentifier.class, roots.get(1), ConfigurationStore.STORE_REFUSAL
                    + " refuses configuration writes: it did not start: snapshot damaged (see karaf.log)")));
        assertEquals(ConfigurationStore.State.FAILED, start(restarted).state());
        failedLeader.close();
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(file -> file.getFileName().toString().startsWith("refused-")));
        }
        final var again = new ModelDatastore(schema);
        start(again);
        assertEquals(Optional.of(switchEntry("openflow:1", "kept")), again.read(switchPath("openflow:1")));
    }

    /**
     * A restore commit the datastore fails with its own error (not a verdict on the data: seen at a whole-cluster
     * start while another member restored another subtree of the same shard) is tried again: the store starts and the
     * configuration is back, instead of a store that refuses every write and a cluster that waits for it.
     */
    @Test
    void aRestoreCommitTheDatastoreFailsOnItsOwnIsTriedAgain() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        start(datastore);
        assertAcknowledged(List.of(put(member, "openflow:1", "kept").commit()));
        member.kill();
        final var restarted = new ModelDatastore(schema);
        restarted.member(MEMBER).failNextConfigurationCommits(2);
        assertEquals(ConfigurationStore.State.RUNNING, start(restarted).state());
        assertEquals(Optional.of(switchEntry("openflow:1", "kept")), restarted.read(switchPath("openflow:1")));
    }

    /**
     * Finding 7: a store that cannot start (here a damaged snapshot) refuses every write with the reason instead
     * of letting the datastore take writes nothing keeps.
     */
    @Test
    void aStoreThatCannotStartRefusesWritesWithTheReason() throws Exception {
        Files.write(dir.resolve(StoreFiles.SNAPSHOT_FILE), new byte[] { 1, 2, 3, 4, 5, 6, 7, 8 });
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        final var store = start(datastore);
        assertEquals(ConfigurationStore.State.FAILED, store.state());
        final String refusal = refusal(put(member, "openflow:1", "unkept").commit());
        assertTrue(refusal.contains("refuses configuration writes") && refusal.contains("damaged"), refusal);
        assertEquals(Optional.empty(), datastore.read(switchPath("openflow:1")));
        // RESTCONF's configuration data stays closed: the datastore does not hold the configuration.
        assertFalse(gate.isOpen());
    }

    /** The commit step must not fail for want of disk: the pre-commit refuses while the reserve is not free. */
    @Test
    void aWriteIsRefusedWhenTheDiskHasLessThanTheReserve() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        ModelDatastore.started(new ConfigurationStore(member, roots, dir, MEMBER,
            datastore.shards(MEMBER, List.of(MEMBER)), gate, Long.MAX_VALUE, 10));
        final String refusal = refusal(put(member, "openflow:1", "big").commit());
        assertTrue(refusal.contains("keeps in reserve"), refusal);
        assertEquals(Optional.empty(), afterKill(member, "openflow:1"));
    }

    /**
     * Every acknowledged write of a sequence is back after a KILL, and a start writes the configuration once (a
     * snapshot), not once more into the log.
     */
    @Test
    void acknowledgedWritesAreBackAfterAKillAndAStartWritesOneSnapshot() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        assertFalse(gate.isOpen());
        start(datastore);
        assertTrue(gate.isOpen(), "RESTCONF's configuration data stays closed after the start");
        final List<DOMDataTreeWriteTransaction> writes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            writes.add(put(member, "openflow:" + i, "p" + i));
        }
        assertAcknowledged(datastore.commitPipelined(writes));
        assertAcknowledged(List.of(delete(member, "openflow:3").commit()));
        member.kill();
        assertTrue(Files.size(dir.resolve(StoreFiles.LOG_FILE)) > 0);
        final var restarted = new ModelDatastore(schema);
        final var store = start(restarted);
        assertEquals(ConfigurationStore.State.RUNNING, store.state());
        for (int i = 0; i < 20; i++) {
            assertEquals(i == 3 ? Optional.empty() : Optional.of(switchEntry("openflow:" + i, "p" + i)),
                restarted.read(switchPath("openflow:" + i)), "openflow:" + i);
        }
        assertEquals(0, Files.size(dir.resolve(StoreFiles.LOG_FILE)), "the restore's own writes logged");
    }

    private static DataObjectIdentifier<Node> nodeRef(final String node) {
        return DataObjectIdentifier.builder(Nodes.class).child(Node.class, new NodeKey(
            new org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId(node))).build();
    }

    private static DataObjectIdentifier<Flow> flowRef(final String node, final String flow) {
        return nodeRef(node).toBuilder().augmentation(FlowCapableNode.class)
            .child(Table.class, new TableKey(Uint8.ZERO)).child(Flow.class, new FlowKey(new FlowId(flow))).build();
    }

    private static Flow flow(final String id, final int priority) {
        return new FlowBuilder().setId(new FlowId(id)).setTableId(Uint8.ZERO).setPriority(Uint16.valueOf(priority))
            .build();
    }

    /** Node {@code node} whose table 0 holds {@code flows}. */
    private NormalizedNode node(final String node, final Flow... flows) {
        return codec.toNormalizedDataObject(nodeRef(node), new NodeBuilder().setId(
            new org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId(node))
            .addAugmentation(new FlowCapableNodeBuilder().setTable(BindingMap.of(new TableBuilder().setId(Uint8.ZERO)
                .setFlow(BindingMap.of(flows)).build())).build())
            .build()).node();
    }

    private DOMDataTreeWriteTransaction putNode(final ModelDatastore.Member member, final String node,
            final Flow... flows) {
        final var tx = member.newWriteOnlyTransaction();
        tx.put(CONFIGURATION, codec.toYangInstanceIdentifier(nodeRef(node)), node(node, flows));
        return tx;
    }

    private DOMDataTreeWriteTransaction putFlow(final ModelDatastore.Member member, final String node,
            final Flow flow) {
        final var ref = flowRef(node, flow.getId().getValue());
        final var tx = member.newWriteOnlyTransaction();
        tx.put(CONFIGURATION, codec.toYangInstanceIdentifier(ref), codec.toNormalizedDataObject(ref, flow).node());
        return tx;
    }

    /**
     * Finding 11: flows are units of their own, through the cohort and the listener as the datastore hands
     * commits to them: a node written whole, flows added, replaced and deleted one by one are back after a KILL,
     * and each flow's write is a record of that flow only.
     */
    @Test
    void flowsWrittenOneByOneAreBackAfterAKill() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        start(datastore);
        assertAcknowledged(List.of(putNode(member, "openflow:1", flow("a", 1), flow("b", 1)).commit()));
        final long before = Files.size(dir.resolve(StoreFiles.LOG_FILE));
        assertAcknowledged(List.of(putFlow(member, "openflow:1", flow("c", 1)).commit()));
        final long oneFlow = Files.size(dir.resolve(StoreFiles.LOG_FILE)) - before;
        assertAcknowledged(List.of(putFlow(member, "openflow:1", flow("a", 7)).commit()));
        final var tx = member.newWriteOnlyTransaction();
        tx.delete(CONFIGURATION, codec.toYangInstanceIdentifier(flowRef("openflow:1", "b")));
        assertAcknowledged(List.of(tx.commit()));
        for (int i = 0; i < 200; i++) {
            assertAcknowledged(List.of(putFlow(member, "openflow:1", flow(String.format("f%03d", i), 2)).commit()));
        }
        final long at200 = Files.size(dir.resolve(StoreFiles.LOG_FILE));
        assertAcknowledged(List.of(putFlow(member, "openflow:1", flow("c", 3)).commit()));
        assertEquals(oneFlow, Files.size(dir.resolve(StoreFiles.LOG_FILE)) - at200,
            "a flow's write records more with 200 flows more in its node");
        member.kill();
        final var restarted = new ModelDatastore(schema);
        start(restarted);
        final List<Flow> expected = new ArrayList<>(List.of(flow("a", 7), flow("c", 3)));
        for (int i = 0; i < 200; i++) {
            expected.add(flow(String.format("f%03d", i), 2));
        }
        assertEquals(Optional.of(node("openflow:1", expected.toArray(Flow[]::new))),
            restarted.read(codec.toYangInstanceIdentifier(nodeRef("openflow:1"))));
    }

    /**
     * Flows across members: another member writes a node whole (Z); this member, leading now, writes a flow in it
     * (W) before its listener heard of Z. Z, heard of afterwards, does not take the flow away: both are back after
     * a KILL.
     */
    @Test
    void aFlowWrittenIntoANodeTheStoreHasNotHeardOfYetIsKept() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        final var other = datastore.member("member-2");
        start(datastore);
        assertAcknowledged(List.of(putNode(member, "openflow:9").commit()));   // this member's first commit
        datastore.lead("member-2");
        member.hold();
        assertAcknowledged(List.of(putNode(other, "openflow:1", flow("b", 3)).commit()));
        datastore.lead(MEMBER);
        assertAcknowledged(List.of(putFlow(member, "openflow:1", flow("a", 2)).commit()));
        member.deliver(1);                                      // Z reaches this member's listener, then the KILL
        member.kill();
        final var restarted = new ModelDatastore(schema);
        start(restarted);
        assertEquals(Optional.of(node("openflow:1", flow("a", 2), flow("b", 3))),
            restarted.read(codec.toYangInstanceIdentifier(nodeRef("openflow:1"))));
    }

    /**
     * The review of finding 11: a node the datastore holds when the store restores (written before the cohorts
     * took effect: newer than the stored one) is kept as the datastore has it; the stored node's flows are not
     * mixed into it.
     */
    @Test
    void aNodeTheDatastoreHoldsAtARestoreIsKeptWhole() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        start(datastore);
        assertAcknowledged(List.of(putNode(member, "openflow:1", flow("a", 1), flow("b", 1)).commit()));
        member.kill();
        final var restarted = new ModelDatastore(schema);
        final var early = restarted.member(MEMBER);
        assertAcknowledged(List.of(putNode(early, "openflow:1", flow("c", 5)).commit()));
        start(restarted);
        assertEquals(Optional.of(node("openflow:1", flow("c", 5))),
            restarted.read(codec.toYangInstanceIdentifier(nodeRef("openflow:1"))));
    }

    /**
     * The review of finding 11: a restore the datastore refuses for its data is tried again entry by entry (an
     * inventory node with its tables and flows, as the store's cohort recognises its own restore): the refused node
     * is dropped, the others are restored, and the start finishes.
     */
    @Test
    void aNodeRefusedAtARestoreIsDroppedAndTheOthersRestored() throws Exception {
        final var datastore = new ModelDatastore(schema);
        final var member = datastore.member(MEMBER);
        start(datastore);
        assertAcknowledged(List.of(putNode(member, "openflow:1", flow("a", 1)).commit()));
        assertAcknowledged(List.of(putNode(member, "openflow:2", flow("b", 1)).commit()));
        member.kill();
        final var restarted = new ModelDatastore(schema);
        final var refused = codec.toYangInstanceIdentifier(nodeRef("openflow:1"));
        restarted.member(MEMBER).registerCommitCohort(DOMDataTreeIdentifier.of(CONFIGURATION, roots.get(2)),
            (txId, ctx, candidates) -> {
                for (var candidate : candidates) {
                    var node = candidate.getRootNode();
                    for (var arg : refused.getPathArguments().subList(roots.get(2).getPathArguments().size(),
                            refused.getPathArguments().size())) {
                        node = node == null ? null : node.modifiedChild(arg);
                    }
                    if (node != null && node.dataAfter() != null) {
                        return FluentFutures.immediateFailedFluentFuture(new DataValidationFailedException(
                            YangInstanceIdentifier.class, refused, "openflow:1 is not welcome"));
                    }
                }
                return FluentFutures.immediateFluentFuture(PostCanCommitStep.NOOP);
            });
        final var store = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> start(restarted));
        assertEquals(ConfigurationStore.State.RUNNING, store.state());
        assertEquals(Optional.empty(), restarted.read(refused));
        assertEquals(Optional.of(node("openflow:2", flow("b", 1))),
            restarted.read(codec.toYangInstanceIdentifier(nodeRef("openflow:2"))));
    }
}
