/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.oko.northbound.store.StoreLog.Place;
import org.opendaylight.oko.northbound.store.StoredConfiguration.Change;
import org.opendaylight.oko.northbound.store.StoredConfiguration.UnitChange;
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
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.SwitchesBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchKey;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;

/** The log's records read back: only committed changes, in commit order, across compactions and old formats. */
class StoreLogTest extends AbstractConcurrentDataBrokerTest {
    @TempDir
    Path dir;

    private BindingNormalizedNodeSerializer codec;
    private List<YangInstanceIdentifier> roots;

    @BeforeEach
    void setUp() throws Exception {
        setup();
        codec = getDataBrokerTestCustomizer().getAdapterContext().currentSerializer();
        roots = List.of(codec.toYangInstanceIdentifier(DataObjectReference.builder(Switches.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Nodes.class).build()));
    }

    private YangInstanceIdentifier root() {
        return roots.get(0);
    }

    private DataObjectIdentifier<Switch> ref(final String node) {
        return DataObjectIdentifier.builder(Switches.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .build();
    }

    private YangInstanceIdentifier path(final String node) {
        return codec.toYangInstanceIdentifier(ref(node));
    }

    private UnitChange put(final String node) {
        final NormalizedNode data = codec.toNormalizedDataObject(ref(node), new SwitchBuilder()
            .setNode(new NodeId(node)).build()).node();
        return new UnitChange(path(node), null, data);
    }

    /** The log of a store created now (its first, empty snapshot written). */
    private StoreLog create() throws IOException {
        final StoreFiles files = StoreFiles.open(dir);
        files.compact(StoredConfiguration.encode(List.of()));
        return StoreLog.open(files, new StoredConfiguration(roots)).log();
    }

    /** What a new process reads from the files. */
    private StoredConfiguration reopen() throws IOException {
        final var stored = new StoredConfiguration(roots);
        StoreLog.open(StoreFiles.open(dir), stored).log().close();
        return stored;
    }

    /** The whole of /oko:switches holding these entries, as a new leader's datastore would hand it over. */
    private NormalizedNode switchesWith(final String... nodes) {
        return codec.toNormalizedDataObject(DataObjectIdentifier.builder(Switches.class).build(),
            new SwitchesBuilder().setSwitch(BindingMap.of(Arrays.stream(nodes)
                .map(node -> new SwitchBuilder().setNode(new NodeId(node)).build()).toList())).build()).node();
    }

    /**
     * Audit finding 3: a new leader's catch-up ranks the copy in its term (read back too), before the cohort
     * commits anything in it; from then on the former listener's notifications (older than the catch-up) are not
     * written, the new listener's are. Not taken while a commit of the term is in flight (that one carries the
     * whole root itself).
     */
    @Test
    void aLeadersCatchUpRanksTheCopyInItsTermAndReplacesTheFormerListener() throws IOException {
        final Object former = new Object();
        final Object leader = new Object();
        try (StoreLog log = create()) {
            log.listenWith(root(), former);
            log.commit(log.prepare(root(), 1, null, List.of(put("openflow:1"))));
            assertTrue(log.needsCatchUp(root(), 2));
            final var inFlight = log.prepare(root(), 2, null, List.of(put("openflow:5")));
            assertFalse(log.leaderCatchUp(root(), leader, 2, switchesWith("openflow:2")));
            log.abort(inFlight);
            assertTrue(log.leaderCatchUp(root(), leader, 2, switchesWith("openflow:2")));
            assertFalse(log.needsCatchUp(root(), 2));
            log.notifiedTo(former, root(), null, List.of(put("openflow:3")));
            log.notifiedTo(leader, root(), null, List.of(put("openflow:4")));
            assertEquals(2, log.version(root()).term());
        }
        final var stored = new StoredConfiguration(roots);
        try (StoreLog log = StoreLog.open(StoreFiles.open(dir), stored).log()) {
            assertEquals(2, log.version(root()).term(), "the version read back");
        }
        assertNull(stored.unit(path("openflow:1")), "the catch-up holds the whole root");
        assertEquals(put("openflow:2").after(), stored.unit(path("openflow:2")));
        assertNull(stored.unit(path("openflow:3")), "the former listener's notification was written");
        assertEquals(put("openflow:4").after(), stored.unit(path("openflow:4")));
        assertNull(stored.unit(path("openflow:5")));
    }

    @Test
    void onlyCommittedChangesAreReadBack() throws IOException {
        try (StoreLog log = create()) {
            log.commit(log.prepare(root(), 1, null, List.of(put("openflow:1"))));
            log.prepare(root(), 1, null, List.of(put("openflow:2")));                 // never decided
            log.abort(log.prepare(root(), 1, null, List.of(put("openflow:3"))));
        }
        final var stored = reopen();
        assertEquals(1, stored.size());
        assertEquals(put("openflow:1").after(), stored.unit(path("openflow:1")));
    }

    @Test
    void commitsApplyInCommitOrderNotPrepareOrder() throws IOException {
        try (StoreLog log = create()) {
            final var first = log.prepare(root(), 1, null, List.of(put("openflow:1")));
            final var second = log.prepare(root(), 1, null, List.of(new UnitChange(path("openflow:1"), null, null)));
            log.commit(first);
            log.commit(second);
            assertThrows(IllegalStateException.class, () -> log.commit(first));
        }
        assertEquals(0, reopen().size());
    }

    @Test
    void aPrepareInFlightOutlivesACompaction() throws IOException {
        try (StoreLog log = create()) {
            final var inFlight = log.prepare(root(), 1, null, List.of(put("openflow:1")));
            log.prepare(root(), 1, null, List.of(put("openflow:2")));                 // never decided
            log.compact();
            log.commit(inFlight);
        }
        final var stored = reopen();
        assertEquals(put("openflow:1").after(), stored.unit(path("openflow:1")));
        assertNull(stored.unit(path("openflow:2")));
    }

    /**
     * The audit's finding 1: controller 11.0.2 answers a client when a cohort's commit step takes more than 5 s,
     * record or not; a commit step that wrote the snapshot itself could take that long. Here the snapshot's disk
     * never finishes while commits go on: they must not wait for it, and every one of them is read back.
     */
    @Test
    void aCommitNeverWaitsForASnapshot() throws Exception {
        final StoreFiles files = StoreFiles.open(dir);
        files.compact(StoredConfiguration.encode(List.of()));
        files.compactAbove(0);
        final var release = new CountDownLatch(1);
        final var writing = new CountDownLatch(1);
        files.beforeSnapshot(() -> {
            writing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        final StoreLog log = StoreLog.open(files, new StoredConfiguration(roots)).log();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            for (int i = 0; i < 20; i++) {
                log.commit(log.prepare(root(), 1, null, List.of(put("openflow:" + i))));
            }
        });
        assertTrue(writing.await(5, TimeUnit.SECONDS), "no snapshot was begun");
        release.countDown();
        log.close();                                       // waits for the snapshot
        final var stored = reopen();
        assertEquals(20, stored.size());
        assertFalse(Files.exists(dir.resolve(StoreFiles.OLD_LOG_FILE)));
    }

    /**
     * A snapshot the disk has no room for is tried again a minute later (or once the log has doubled), not at every
     * commit: each try writes the prepares in flight again and builds the whole configuration.
     */
    @Test
    void aSnapshotThatCannotBeWrittenIsNotTriedAtEveryCommit() throws Exception {
        final long[] now = { 0 };
        final int[] tries = { 0 };
        final StoreFiles files = StoreFiles.open(dir);
        files.compact(StoredConfiguration.encode(List.of()));
        files.compactAbove(0);
        files.snapshotReserve(Long.MAX_VALUE / 2);       // a full disk
        files.beforeSnapshot(() -> tries[0]++);
        try (StoreLog log = StoreLog.open(files, new StoredConfiguration(roots)).log()) {
            log.clock(() -> now[0]);
            for (int i = 0; i < 10; i++) {
                log.commit(log.prepare(root(), 1, null, List.of(put("openflow:" + i))));
                log.awaitCompaction();
            }
            assertEquals(1, tries[0]);
            now[0] += TimeUnit.MINUTES.toNanos(1) + 1;
            log.commit(log.prepare(root(), 1, null, List.of(put("openflow:10"))));
            log.awaitCompaction();
            assertEquals(2, tries[0]);
        }
        assertEquals(11, reopen().size(), "every commit is kept while no snapshot can be written");
    }

    @Test
    void recordsOfTheVersionBeforeTwoPhaseRecordsAreCommittedChanges() throws IOException {
        try (StoreFiles files = StoreFiles.open(dir)) {
            files.compact(StoredConfiguration.encode(List.of()));
            files.append(StoredConfiguration.encode(List.of(new Change(path("openflow:7"), put("openflow:7")
                .after()))));
        }
        assertEquals(put("openflow:7").after(), reopen().unit(path("openflow:7")));
    }

    @Test
    void aNotificationOfACommitItMadeIsNotWrittenAgain() throws IOException {
        try (StoreLog log = create()) {
            final var own = List.of(put("openflow:1"));
            log.commit(log.prepare(root(), 1, null, own));
            // Another member's commit of the same unit, notified late: older than the own commit, skipped.
            log.notified(root(), null, List.of(put("openflow:1")));
            log.notified(root(), null, own);
            assertEquals(1, log.notificationCounts()[0]);
            assertEquals(0, log.notificationCounts()[1]);
            log.notified(root(), null, List.of(new UnitChange(path("openflow:1"), null, null))); // a later one: written
            assertEquals(1, log.notificationCounts()[1]);
        }
        assertEquals(0, reopen().size());
    }

    /**
     * Two commits of the cohort made back to back, notified in the other order (controller 11.0.2 publishes a
     * commit's notification from the callback of its cohorts' commit steps, and does not wait for the previous
     * commit's): the older one's notification is the cohort's own too, and not written after the newer value.
     */
    @Test
    void ownCommitsNotifiedInTheOtherOrderAreNotWrittenAgain() throws IOException {
        try (StoreLog log = create()) {
            final var older = List.of(put("openflow:1"));
            final var newer = List.of(new UnitChange(path("openflow:1"), older.get(0).after(), null));
            log.commit(log.prepare(root(), 1, null, older));
            log.commit(log.prepare(root(), 1, null, newer));
            log.notified(root(), null, newer);
            log.notified(root(), null, older);
            assertEquals(2, log.notificationCounts()[0], "the older commit's notification taken for another member's");
            assertEquals(0, log.notificationCounts()[1]);
        }
        assertNull(reopen().unit(path("openflow:1")), "the deleted switch entry came back");
    }

    /**
     * A commit of the cohort the datastore re-based (a transaction ahead of it failed after the cohort's pre-commit:
     * the nodes it applies are not those the cohort saw, so its notification is not recognised as the cohort's own),
     * notified after a newer commit of the cohort that deleted the entry it wrote: placed by where it stands (its
     * root node after is the newer commit's node before), it does not bring the deleted entry back.
     */
    @Test
    void aReBasedOwnCommitNotifiedAfterANewerOneDoesNotBringItsEntryBack() throws IOException {
        try (StoreLog log = create()) {
            final NormalizedNode start = switchesWith("openflow:7");
            final NormalizedNode afterFailed = switchesWith("openflow:8");  // the failed transaction's, never applied
            final NormalizedNode asSeen = switchesWith("openflow:1");
            final NormalizedNode asApplied = switchesWith("openflow:1");
            final NormalizedNode deleted = switchesWith("openflow:7");
            final var seen = List.of(put("openflow:1"));
            log.commit(log.prepare(root(), 1, new Place(afterFailed, asSeen), seen));
            final var rebased = List.of(put("openflow:1"));              // the same data, other nodes
            final var newer = List.of(new UnitChange(path("openflow:1"), rebased.get(0).after(), null));
            log.commit(log.prepare(root(), 1, new Place(asApplied, deleted), newer));
            log.notified(root(), new Place(asApplied, deleted), newer);
            log.notified(root(), new Place(start, asApplied), rebased);
            assertEquals(1, log.notificationCounts()[0]);
            assertEquals(0, log.notificationCounts()[1], "the re-based commit written after the newer one");
        }
        assertNull(reopen().unit(path("openflow:1")), "the deleted switch entry came back");
    }

    /**
     * This member lost the lead after its cohort committed a change; the new leader's commit of the same entry,
     * applied here, is told before this member's own older one (whose notification waits for a callback of the
     * cohorts' commit steps): placed after it (its root node before is the own commit's node after), it is written,
     * and the own commit's late notification does not undo it.
     */
    @Test
    void aNewLeadersCommitToldBeforeThisMembersOlderOneIsKept() throws IOException {
        try (StoreLog log = create()) {
            final NormalizedNode start = switchesWith("openflow:7");
            final NormalizedNode afterOwn = switchesWith("openflow:1");
            final NormalizedNode afterTheirs = switchesWith("openflow:7");
            final var own = List.of(put("openflow:1"));
            log.commit(log.prepare(root(), 1, new Place(start, afterOwn), own));
            final var theirs = List.of(new UnitChange(path("openflow:1"), own.get(0).after(), null));
            log.notified(root(), new Place(afterOwn, afterTheirs), theirs);   // the new leader's, in term 2
            log.notified(root(), new Place(start, afterOwn), own);
            assertEquals(1, log.notificationCounts()[0]);
            assertEquals(1, log.notificationCounts()[1], "the new leader's commit not written");
        }
        assertNull(reopen().unit(path("openflow:1")), "the new leader's delete was undone");
    }

    /** Runs full GCs until {@code ref} is cleared (the JVM's own collector, as in production). */
    private static void awaitCollected(final WeakReference<?> ref) throws InterruptedException {
        for (int i = 0; i < 100 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(ref.get(), "the root node between J and N was not collected");
    }

    private List<UnitChange> changeJ() {
        return List.of(flowIn("j", 2, flow("a", 1), flow("j", 2), flow("w", 1), flow("v", 1)));
    }

    private List<UnitChange> changeN() {
        return List.of(flowIn("w", 2, flow("a", 1), flow("j", 2), flow("w", 2), flow("v", 1)));
    }

    /**
     * The cohort's J (flow j) and N (flow w), after the re-based X, committed and told (matched as its own).
     * Only a weak reference to the root node between them (J's after, N's before) is kept: nothing else holds it
     * once both notifications are done, as in the datastore.
     */
    private WeakReference<NormalizedNode> jAndNCommittedAndTold(final StoreLog log, final YangInstanceIdentifier nodes,
            final NormalizedNode rx, final NormalizedNode[] keep) throws IOException {
        final NormalizedNode rj = switchesWith("openflow:91");
        final NormalizedNode rn = switchesWith("openflow:92");
        final var j = changeJ();
        final var n = changeN();
        log.commit(log.prepare(nodes, 1, new Place(rx, rj), j));
        log.commit(log.prepare(nodes, 1, new Place(rj, rn), n));
        log.notified(nodes, new Place(rx, rj), j);                 // matched: X's token kept aside
        log.notified(nodes, new Place(rj, rn), n);                 // matched
        if (keep != null) {
            keep[0] = rj;
        }
        return new WeakReference<>(rj);
    }

    /**
     * X (flow v into node openflow:1) is a commit of the cohort the shard re-based: told with other nodes than the
     * cohort saw, not recognised, and told after J and N, two newer commits of the cohort that changed other flows
     * of the node. Flow v is written, and the node as N left it after it. The root node between J and N is held by
     * nothing once both were told, and collected: the order of J and N must not depend on it (an independent review
     * found a first version that held it weakly write J's node, flow w as before N, after N's record).
     */
    @Test
    void aReBasedOwnCommitToldAfterTheNodesBetweenNewerOnesWereCollectedKeepsTheirFlows() throws Exception {
        assertReBasedCommitKeepsNewerFlows(false);
    }

    /** The same with the node between J and N still held. */
    @Test
    void aReBasedOwnCommitToldAfterNewerOnesKeepsTheirFlows() throws Exception {
        assertReBasedCommitKeepsNewerFlows(true);
    }

    private void assertReBasedCommitKeepsNewerFlows(final boolean hold) throws Exception {
        final var nodes = roots.get(1);
        final NormalizedNode[] keep = hold ? new NormalizedNode[1] : null;
        final var expected = nodeData(flow("a", 1), flow("j", 2), flow("w", 2), flow("v", 1));
        try (StoreLog log = create()) {
            final NormalizedNode r1 = switchesWith("openflow:81");
            final var first = List.of(putNode(flow("a", 1), flow("j", 1), flow("w", 1)));
            log.commit(log.prepare(nodes, 1, new Place(null, r1), first));   // first in term 1: catch-up
            log.notified(nodes, new Place(null, r1), first);
            // X as its cohort saw it: on top of a transaction the shard then aborted (re-based afterwards).
            log.commit(log.prepare(nodes, 1, new Place(switchesWith("openflow:82"), switchesWith("openflow:83")),
                List.of(flowIn("v", 1, flow("a", 1), flow("j", 1), flow("w", 1), flow("v", 1)))));
            final NormalizedNode rx = switchesWith("openflow:84");          // X as applied: r1 -> rx
            final var between = jAndNCommittedAndTold(log, nodes, rx, keep);
            if (!hold) {
                awaitCollected(between);
            }
            log.notified(nodes, new Place(r1, rx),
                List.of(flowIn("v", 1, flow("a", 1), flow("j", 1), flow("w", 1), flow("v", 1))));
            assertEquals(expected, log.read(config -> config.subtree(nodePath())), "N's flow w undone");
        }
        assertEquals(expected, reopen().subtree(nodePath()), "N's flow w undone, read back");
    }


    /**
     * This member lost the lead with its own commit K still to be told; the new leader's L1, L2 and L3 are told
     * before it, and the root node between L1 and L2 is collected meanwhile: L3 is still placed after K (through
     * the links recorded), and K's late notification does not undo any of them.
     */
    @Test
    void aNewLeadersThirdCommitToldAfterTheNodesBetweenWereCollectedKeepsTheFirstTwo() throws Exception {
        final var nodes = roots.get(1);
        try (StoreLog log = create()) {
            final NormalizedNode r0 = switchesWith("openflow:70");
            final var first = List.of(putNode(flow("a", 1), flow("k", 1)));
            log.commit(log.prepare(nodes, 1, new Place(null, r0), first));
            log.notified(nodes, new Place(null, r0), first);
            final NormalizedNode rk = switchesWith("openflow:71");
            final var own = List.of(flowIn("k", 2, flow("a", 1), flow("k", 2)));
            log.commit(log.prepare(nodes, 1, new Place(r0, rk), own));                  // K, then the lead is lost
            final NormalizedNode r2 = switchesWith("openflow:73");
            awaitCollected(firstTwoOfTheNewLeaderTold(log, nodes, rk, r2));
            log.notified(nodes, new Place(r2, switchesWith("openflow:74")),
                List.of(flowIn("c", 1, flow("a", 2), flow("b", 1), flow("c", 1), flow("k", 2))));
            log.notified(nodes, new Place(r0, rk), own);                                 // K's, last
            assertEquals(nodeData(flow("a", 2), flow("b", 1), flow("c", 1), flow("k", 2)),
                log.read(config -> config.subtree(nodePath())), "the new leader's commits undone");
        }
    }

    private WeakReference<NormalizedNode> firstTwoOfTheNewLeaderTold(final StoreLog log,
            final YangInstanceIdentifier nodes, final NormalizedNode rk, final NormalizedNode r2) throws IOException {
        final NormalizedNode r1 = switchesWith("openflow:72");
        log.notified(nodes, new Place(rk, r1), List.of(flowIn("a", 2, flow("a", 2), flow("k", 2))));
        log.notified(nodes, new Place(r1, r2), List.of(flowIn("b", 1, flow("a", 2), flow("b", 1), flow("k", 2))));
        return new WeakReference<>(r1);
    }

    /**
     * T is told before its commit step ran (the datastore's ask of the step timed out): its commit step then finds
     * it recorded, and queues nothing to wait for. X (a re-based commit of the cohort, set aside when J was told)
     * is told last: its record ends with node openflow:1 as the newest commit, U, left it (a second review found a
     * version that took T's step for a second, newer commit and wrote T's node after U's, flow u lost).
     */
    @Test
    void aCommitToldBeforeItsCommitStepIsNotOrderedAfterNewerOnes() throws IOException {
        final var nodes = roots.get(1);
        final var expected = nodeData(flow("a", 1), flow("v", 1), flow("j", 1), flow("t", 1), flow("u", 1));
        try (StoreLog log = create()) {
            final NormalizedNode r0 = switchesWith("openflow:60");
            final var first = List.of(putNode(flow("a", 1)));
            log.commit(log.prepare(nodes, 1, new Place(null, r0), first));
            log.notified(nodes, new Place(null, r0), first);
            // X as its cohort saw it, on a transaction the shard then aborted (re-based afterwards).
            log.commit(log.prepare(nodes, 1, new Place(switchesWith("openflow:61"), switchesWith("openflow:62")),
                List.of(flowIn("v", 1, flow("a", 1), flow("v", 1)))));
            final NormalizedNode rx = switchesWith("openflow:63");
            final NormalizedNode rj = switchesWith("openflow:64");
            final var j = List.of(flowIn("j", 1, flow("a", 1), flow("v", 1), flow("j", 1)));
            log.commit(log.prepare(nodes, 1, new Place(rx, rj), j));
            log.notified(nodes, new Place(rx, rj), j);                            // matched: X's token aside
            final NormalizedNode rt = switchesWith("openflow:65");
            final var t = List.of(flowIn("t", 1, flow("a", 1), flow("v", 1), flow("j", 1), flow("t", 1)));
            final var preparedT = log.prepare(nodes, 1, new Place(rj, rt), t);
            log.notified(nodes, new Place(rj, rt), List.of(t.get(0)));            // the listener's list
            log.commit(preparedT);                                                // T's late commit step
            final var u = List.of(flowIn("u", 1, flow("a", 1), flow("v", 1), flow("j", 1), flow("t", 1),
                flow("u", 1)));
            log.commit(log.prepare(nodes, 1, new Place(rt, switchesWith("openflow:66")), u));
            log.notified(nodes, new Place(r0, rx), List.of(flowIn("v", 1, flow("a", 1), flow("v", 1))));
            assertEquals(expected, log.read(config -> config.subtree(nodePath())), "U's flow u undone");
        }
        assertEquals(expected, reopen().subtree(nodePath()), "U's flow u undone, read back");
    }

    /**
     * X's cohort saw node openflow:1 on top of F (flows f and v), which the datastore then aborted, and re-based X:
     * its commit step is recognised as a re-based one and records nothing of what the cohort saw; its notification
     * records it. This member then loses the lead, and the new leader's commit of another flow (g) is written: no
     * flow f of the aborted F (refused to its client), no flow g lost (a second review found both with the
     * cohort's view of X recorded and expected).
     */
    @Test
    void aNewLeadersOtherFlowIsNotOverwrittenByTheNodeAReBasedCommitsCohortSaw() throws IOException {
        final var nodes = roots.get(1);
        final var expected = nodeData(flow("a", 1), flow("v", 1), flow("g", 1));
        try (StoreLog log = create()) {
            final NormalizedNode r0 = switchesWith("openflow:50");
            final var first = List.of(putNode(flow("a", 1)));
            log.commit(log.prepare(nodes, 1, new Place(null, r0), first));
            log.notified(nodes, new Place(null, r0), first);
            final NormalizedNode fa = switchesWith("openflow:51");
            final var preparedF = log.prepare(nodes, 1, new Place(r0, fa), List.of(
                flowIn("f", 1, flow("a", 1), flow("f", 1), flow("v", 5)),
                flowIn("v", 5, flow("a", 1), flow("f", 1), flow("v", 5))));
            final var preparedX = log.prepare(nodes, 1, new Place(fa, switchesWith("openflow:52")),
                List.of(flowIn("v", 1, flow("a", 1), flow("f", 1), flow("v", 1))));
            log.abort(preparedF);                                                 // X is re-based on r0
            log.commit(preparedX);
            final NormalizedNode rx = switchesWith("openflow:53");
            log.notified(nodes, new Place(r0, rx), List.of(flowIn("v", 1, flow("a", 1), flow("v", 1))));
            // The lead is lost; the new leader's commit, applied here.
            log.notified(nodes, new Place(rx, switchesWith("openflow:54")),
                List.of(flowIn("g", 1, flow("a", 1), flow("v", 1), flow("g", 1))));
            assertEquals(expected, log.read(config -> config.subtree(nodePath())));
        }
        assertEquals(expected, reopen().subtree(nodePath()));
    }

    /**
     * This member's first two commits of a term, F and X, pre-committed back to back; F (another shard refused it)
     * is aborted and X re-based. X's catch-up, the root as its cohort saw it, holds F's entry, which the datastore
     * never applied and its client was refused: not taken.
     */
    @Test
    void aReBasedFirstCommitOfATermDoesNotCatchUpAnAbortedOne() throws IOException {
        try (StoreLog log = create()) {
            log.begin(1);
            final NormalizedNode r0 = switchesWith("openflow:9");
            final NormalizedNode fa = switchesWith("openflow:5");
            final var preparedF = log.prepare(root(), 1, new Place(r0, fa), List.of(put("openflow:5")));
            final var preparedX = log.prepare(root(), 1, new Place(fa, switchesWith("openflow:1")),
                List.of(put("openflow:1")));
            log.abort(preparedF);
            log.commit(preparedX);
        }
        assertNull(reopen().unit(path("openflow:5")), "the aborted write is in the copy");
    }

    /**
     * The same when the datastore does not tell the cohort that F was aborted (controller 11.0.2 aborts no cohort
     * when another shard refuses): F's prepare is still undecided when X's commit step comes, and commit steps come
     * in commit order, so F was never committed.
     */
    @Test
    void aReBasedCommitIsRecognisedWhenTheAbortedOneWasNeverDecided() throws IOException {
        try (StoreLog log = create()) {
            log.begin(1);
            final NormalizedNode r0 = switchesWith("openflow:9");
            final NormalizedNode fa = switchesWith("openflow:5");
            log.prepare(root(), 1, new Place(r0, fa), List.of(put("openflow:5")));                 // never decided
            final var rebased = List.of(put("openflow:1"));
            log.commit(log.prepare(root(), 1, new Place(fa, switchesWith("openflow:1")), rebased));
            log.notified(root(), new Place(r0, switchesWith("openflow:1")), List.of(put("openflow:1")));
            assertEquals(1, log.notificationCounts()[1], "the re-based commit's notification not written");
        }
        final var stored = reopen();
        assertNull(stored.unit(path("openflow:5")), "the aborted write is in the copy");
        assertNotNull(stored.unit(path("openflow:1")), "the re-based write is not in the copy");
    }

    /**
     * F, this member's first write of term 2, is pre-committed and
     * waits more than 35 s for Raft consensus (COMMIT_PENDING never times out in 11.0.2); the leader's catch-up
     * gives it up and marks its root-after never applied. The datastore then commits F after all, and Y, a write
     * pre-committed on F's candidate after the catch-up, and Z on Y's. Commit steps come in commit order: F's
     * (superseded) before Y's. Y is taken for re-based (ABORT record), and so is every commit after it (each
     * marks its own root-after): answered writes recorded only by their notifications (a third review found it).
     */
    @Test
    void aCommitOnACommitTheCatchUpGaveUpButTheDatastoreAppliedIsNotReBased() throws IOException {
        final long[] now = { 0 };
        final Object former = new Object();
        final Object leader = new Object();
        final long commits;
        try (StoreLog log = create()) {
            log.clock(() -> now[0]);
            log.begin(1);
            log.listenWith(root(), former);
            final NormalizedNode r0 = switchesWith("openflow:9");
            final NormalizedNode fa = switchesWith("openflow:9", "openflow:1");
            final var preparedF = log.prepare(root(), 2, new Place(r0, fa), List.of(put("openflow:1")));
            now[0] += StoreLog.PREPARE_LIFETIME_NANOS + 1;
            assertTrue(log.leaderCatchUp(root(), leader, 2, r0), "F given up");
            final NormalizedNode ya = switchesWith("openflow:9", "openflow:1", "openflow:2");
            final var preparedY = log.prepare(root(), 2, new Place(fa, ya), List.of(put("openflow:2")));
            log.commit(preparedF);                                        // consensus: F's late step (superseded)
            log.commit(preparedY);                                        // Y's client is answered now
            final var preparedZ = log.prepare(root(), 2,
                new Place(ya, switchesWith("openflow:9", "openflow:1", "openflow:2", "openflow:3")),
                List.of(put("openflow:3")));
            log.commit(preparedZ);
            commits = log.version(root()).commits();
            // Every member is killed before the notifications of Y and Z are written.
        }
        final var stored = reopen();
        assertAll(
            () -> assertNotNull(stored.unit(path("openflow:2")), "Y, committed on F and answered, lost"),
            () -> assertNotNull(stored.unit(path("openflow:3")), "Z, committed on Y and answered, lost"),
            () -> assertEquals(3, commits, "Y and Z not counted as this member's commits in term 2"));
    }

    /**
     * In term 2 F deletes the whole root (a data-root YANG patch
     * that also edits flows, in the inventory shard) and is pre-committed; X, a PUT of one switch and this
     * member's first commit of term 2, is pre-committed on F's candidate, where the root does not exist (its
     * root-before is null). The inventory shard refuses the patch: F is aborted (its client refused) and X
     * re-based on r0. X's root-before is null, which no node comparison can place: X is recognised as re-based by the
     * removal of the root never applied before it, and its catch-up (the root as its cohort saw it: absent) is not
     * forced, or the switch openflow:9 acknowledged in term 1 would be gone from the copy that ranks newest.
     */
    @Test
    void aReBasedFirstCommitOfATermOnAnAbortedDeleteOfTheRootDoesNotEmptyTheCopy() throws IOException {
        try (StoreLog log = create()) {
            log.begin(1);
            final NormalizedNode r0 = switchesWith("openflow:9");
            log.commit(log.prepare(root(), 1, new Place(null, r0), List.of(put("openflow:9"))));
            final var preparedF = log.prepare(root(), 2, new Place(r0, null),
                List.of(new UnitChange(root(), r0, null)));
            final var preparedX = log.prepare(root(), 2, new Place(null, switchesWith("openflow:1")),
                List.of(put("openflow:1")));
            log.abort(preparedF);
            log.commit(preparedX);
        }
        assertNotNull(reopen().unit(path("openflow:9")), "the aborted delete of the root is in the copy");
    }

    /** A flow change as the datastore hands it out: the flow unit, and its node as the commit left it. */
    private UnitChange flowIn(final String id, final int priority, final Flow... nodeFlows) {
        final var unit = putFlow(id, priority);
        return new UnitChange(unit.path(), null, unit.after(), new Change(nodePath(), nodeData(nodeFlows)));
    }

    /**
     * An adversarial review of the fix above: the cohort's commits A (a node with flow a=1) and D (flow a=2)
     * notified D first; then F (flow b) is notified before its commit step ran (its ask timed out), and A's
     * notification comes last. Keeping A's token in the queue made F's record end with A's node: D's flow lost.
     */
    @Test
    void aNotificationAfterOwnCommitsToldInTheOtherOrderKeepsTheNewerFlow() throws IOException {
        final var nodes = roots.get(1);
        try (StoreLog log = create()) {
            final var first = List.of(new UnitChange(nodePath(), null, null));
            log.commit(log.prepare(nodes, 1, null, first));
            log.notified(nodes, null, first);
            final var a = List.of(putNode(flow("a", 1)));
            log.commit(log.prepare(nodes, 1, null, a));
            final var d = List.of(flowIn("a", 2, flow("a", 2)));
            log.commit(log.prepare(nodes, 1, null, d));
            log.notified(nodes, null, d);
            final var f = List.of(flowIn("b", 1, flow("a", 2), flow("b", 1)));
            final var preparedF = log.prepare(nodes, 1, null, f);
            log.notified(nodes, null, f);                                     // before F's commit step
            log.commit(preparedF);
            log.notified(nodes, null, a);                                     // A's, last
            assertEquals(nodeData(flow("a", 2), flow("b", 1)), log.read(config -> config.subtree(nodePath())));
        }
        assertEquals(nodeData(flow("a", 2), flow("b", 1)), reopen().subtree(nodePath()));
    }

    /**
     * The review's T4: a commit step of term 1 that comes after this member led again in term 3 and caught up
     * (its step waited for seconds; the shard, its ask timed out, had published it, and the next leader deleted
     * the entry): the catch-up holds everything of term 1, and the late step does not put its value back over it.
     */
    @Test
    void aLateCommitStepOfAnEarlierTermDoesNotUndoALaterCatchUp() throws IOException {
        final Object former = new Object();
        final Object leader = new Object();
        try (StoreLog log = create()) {
            log.listenWith(root(), former);
            final var first = List.of(put("openflow:9"));
            log.commit(log.prepare(root(), 1, null, first));
            log.notifiedTo(former, root(), null, first);
            final var late = List.of(put("openflow:1"));
            final var prepared = log.prepare(root(), 1, null, late);
            log.notifiedTo(former, root(), null, late);
            log.notifiedTo(former, root(), null,
                List.of(new UnitChange(path("openflow:1"), late.get(0).after(), null)));
            assertTrue(log.leaderCatchUp(root(), leader, 3, switchesWith("openflow:9")));
            log.commit(prepared);
            assertEquals(3, log.version(root()).term());
        }
        assertNull(reopen().unit(path("openflow:1")), "the late commit step's value came back over the catch-up");
    }

    private static DataObjectIdentifier<Node> nodeRef(final String node) {
        return DataObjectIdentifier.builder(Nodes.class).child(Node.class, new NodeKey(
            new org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId(node))).build();
    }

    private DataObjectIdentifier<Flow> flowRef(final String flow) {
        return nodeRef("openflow:1").toBuilder().augmentation(FlowCapableNode.class)
            .child(Table.class, new TableKey(Uint8.ZERO)).child(Flow.class, new FlowKey(new FlowId(flow))).build();
    }

    private static Flow flow(final String id, final int priority) {
        return new FlowBuilder().setId(new FlowId(id)).setTableId(Uint8.ZERO).setPriority(Uint16.valueOf(priority))
            .build();
    }

    /** Node openflow:1, table 0 with flows a and b of these priorities, written whole. */
    private UnitChange putNode(final int priorityA, final int priorityB) {
        return putNode(flow("a", priorityA), flow("b", priorityB));
    }

    /** Node openflow:1, table 0 with these flows, written whole. */
    private UnitChange putNode(final Flow... flows) {
        return new UnitChange(nodePath(), null, nodeData(flows));
    }

    private YangInstanceIdentifier nodePath() {
        return codec.toYangInstanceIdentifier(nodeRef("openflow:1"));
    }

    private NormalizedNode nodeData(final Flow... flows) {
        final var node = new NodeBuilder().setId(
            new org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId("openflow:1"))
            .addAugmentation(new FlowCapableNodeBuilder().setTable(BindingMap.of(new TableBuilder().setId(Uint8.ZERO)
                .setFlow(BindingMap.of(flows)).build())).build())
            .build();
        return codec.toNormalizedDataObject(nodeRef("openflow:1"), node).node();
    }

    /**
     * The review of finding 11: a flow the cohort commits into a node the store does not hold (the store lags
     * behind the datastore there) is recorded with its node, whole, as the commit left it, not dropped.
     */
    @Test
    void aFlowCommittedIntoANodeTheStoreDoesNotHoldIsRecordedWithItsNode() throws IOException {
        final var nodes = roots.get(1);
        try (StoreLog log = create()) {
            final var first = List.of(new UnitChange(nodePath(), null, null));
            log.commit(log.prepare(nodes, 1, null, first));                 // this member's first commit in term 1
            log.notified(nodes, null, first);
            log.commit(log.prepare(nodes, 1, null, List.of(new UnitChange(putFlow("a", 2).path(), null,
                putFlow("a", 2).after(), new Change(nodePath(), nodeData(flow("a", 2), flow("b", 3)))))));
        }
        assertEquals(nodeData(flow("a", 2), flow("b", 3)), reopen().subtree(nodePath()));
    }

    /** The same for a node's tables written as a whole list into a node the store does not hold. */
    @Test
    void aTableListCommittedIntoANodeTheStoreDoesNotHoldIsRecordedWithItsNode() throws IOException {
        final var nodes = roots.get(1);
        final var node = nodeData(flow("a", 2));
        final var tables = ((org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode) node).body().stream()
            .filter(child -> child instanceof org.opendaylight.yangtools.yang.data.api.schema.SystemMapNode)
            .findFirst().orElseThrow();
        try (StoreLog log = create()) {
            final var first = List.of(new UnitChange(nodePath(), null, null));
            log.commit(log.prepare(nodes, 1, null, first));                 // this member's first commit in term 1
            log.notified(nodes, null, first);
            log.commit(log.prepare(nodes, 1, null, List.of(new UnitChange(nodePath().node(tables.name()), null,
                tables, new Change(nodePath(), node)))));
        }
        assertEquals(node, reopen().subtree(nodePath()));
    }

    /**
     * The review of finding 11: this member's listener falls behind by more than a token's lifetime; its cohort
     * deleted node openflow:1 (A), wrote it again with flow b (B), then wrote flow a into it (C, one unit, the node
     * as C left it beside it). A and B, notified after their tokens expired, are taken for other members' commits:
     * the node A deletes and B writes whole must not take flow a away.
     */
    @Test
    void commitsNotifiedAfterTheirTokensExpiredDoNotTakeANewerFlowAway() throws IOException {
        final long[] now = { 0 };
        final var nodes = roots.get(1);
        try (StoreLog log = create()) {
            log.clock(() -> now[0]);
            final var first = List.of(putNode(flow("a", 1), flow("b", 1)));
            log.commit(log.prepare(nodes, 1, null, first));                 // this member's first commit in term 1
            log.notified(nodes, null, first);
            final var deleteA = List.of(new UnitChange(nodePath(), first.get(0).after(), null));
            log.commit(log.prepare(nodes, 1, null, deleteA));
            now[0] = 1;
            final var putB = List.of(putNode(flow("b", 3)));
            log.commit(log.prepare(nodes, 1, null, putB));
            now[0] = StoreLog.TOKEN_LIFETIME_NANOS + 1;
            final var flowC = List.of(new UnitChange(putFlow("a", 2).path(), null, putFlow("a", 2).after(),
                new Change(nodePath(), nodeData(flow("a", 2), flow("b", 3)))));
            log.commit(log.prepare(nodes, 1, null, flowC));
            now[0] = StoreLog.TOKEN_LIFETIME_NANOS + 2;
            log.notified(nodes, null, List.of(new UnitChange(nodePath(), first.get(0).after(), null)));
            log.notified(nodes, null, List.of(putNode(flow("b", 3))));
            log.notified(nodes, null, flowC);
            assertEquals(nodeData(flow("a", 2), flow("b", 3)), log.read(stored -> stored.subtree(nodePath())));
        }
        assertEquals(nodeData(flow("a", 2), flow("b", 3)), reopen().subtree(nodePath()));
    }

    private UnitChange putFlow(final String id, final int priority) {
        return new UnitChange(codec.toYangInstanceIdentifier(flowRef(id)), null,
            codec.toNormalizedDataObject(flowRef(id), flow(id, priority)).node());
    }

    /**
     * Flows are units of their own (finding 11); a node whose own part changed is one unit with its flows. A
     * commit of another member that wrote a whole node, notified after this member's cohort committed a newer change
     * of one of its flows, must not bring that flow's older value back: the log ends with the newer one.
     */
    @Test
    void anOlderWholeNodeNotifiedAfterANewerFlowKeepsTheNewerFlow() throws IOException {
        final var nodes = roots.get(1);
        try (StoreLog log = create()) {
            final var first = List.of(putNode(1, 1));
            log.commit(log.prepare(nodes, 1, null, first));                 // this member's first commit in term 1
            log.notified(nodes, null, first);
            final var newer = List.of(putFlow("a", 2));
            log.commit(log.prepare(nodes, 1, null, newer));
            // Another member's commit, applied before the newer one, notified only now: node written whole,
            // flow b at 3, flow a as it was then.
            log.notified(nodes, null, List.of(putNode(1, 3)));
            log.notified(nodes, null, newer);
            final var expected = putNode(2, 3).after();
            assertEquals(expected, log.read(stored -> stored.subtree(putNode(2, 3).path())));
        }
        assertEquals(putNode(2, 3).after(), reopen().subtree(putNode(2, 3).path()));
    }

    /**
     * The audit's finding 6: a commit whose notification never comes (told before the commit step ran, or a
     * re-based transaction) must not keep the member from following the others for good: after the token's
     * lifetime, other members' commits are written again.
     */
    @Test
    void aCommitNeverNotifiedStopsHoldingBackOtherMembersCommits() throws IOException {
        final long[] now = { 0 };
        try (StoreLog log = create()) {
            log.clock(() -> now[0]);
            log.begin(1);
            log.commit(log.prepare(root(), 1, null, List.of(put("openflow:1"))));   // a catch-up: term 1 is new
            // Its notification never comes; another member leads and commits.
            log.notified(root(), null, List.of(put("openflow:2")));
            assertEquals(0, log.notificationCounts()[1], "written while its own commit may still be notified");
            now[0] += StoreLog.TOKEN_LIFETIME_NANOS + 1;
            log.notified(root(), null, List.of(put("openflow:3")));
            assertEquals(1, log.notificationCounts()[1]);
        }
        final var stored = reopen();
        assertEquals(put("openflow:3").after(), stored.unit(path("openflow:3")));
    }

    /**
     * The audit's finding 7: a copy's version as a running member reports it and as its files say after a restart
     * are the same, so that the members' copies compare whichever of them restarted.
     */
    @Test
    void aVersionReadBackIsTheVersionReportedWhileRunning() throws IOException {
        final StoreLog.Version running;
        try (StoreLog log = create()) {
            log.begin(1);                                  // as a start does: its life, then a snapshot
            log.compact();
            log.notified(root(), null, List.of(put("openflow:1"), put("openflow:2"), put("openflow:3")));
            log.notified(root(), null, List.of(put("openflow:4")));
            running = log.version(root());
        }
        assertEquals(2, running.followed());
        final var files = StoreFiles.open(dir);
        try (StoreLog log = StoreLog.open(files, new StoredConfiguration(roots)).log()) {
            assertEquals(running, log.version(root()));
        }
    }
}
