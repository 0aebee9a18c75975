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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opendaylight.mdsal.common.api.LogicalDatastoreType.CONFIGURATION;

import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.PostCanCommitStep;
import org.opendaylight.mdsal.common.api.PostPreCommitStep;
import org.opendaylight.mdsal.common.api.ThreePhaseCommitStep;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
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
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.model.api.EffectiveModelContext;

/**
 * A three-member cluster's configuration stores in front of one model datastore ({@link ModelDatastore}): whole
 * cluster restarts after a KILL of every member, with wiped stores, stale copies, a restorer that dies midway and
 * a member that never comes back. Findings 2, 3, 4 and 10 of issue 55: each sequence lost or emptied the
 * configuration with the store that let the first member to claim the restore put its copy back.
 */
class ClusterStoreTest extends AbstractConcurrentDataBrokerTest {
    private static final List<String> MEMBERS = List.of("member-1", "member-2", "member-3");

    @TempDir
    Path base;

    private BindingNormalizedNodeSerializer codec;
    private EffectiveModelContext schema;
    private List<YangInstanceIdentifier> roots;
    private final Map<String, CompletableFuture<ConfigurationStore>> starting = new HashMap<>();
    /** Each member's RESTCONF gate, a new one at each start (a new Karaf). */
    private final Map<String, StartGate> gates = new HashMap<>();

    @BeforeEach
    void setUp() throws Exception {
        setup();
        codec = getDataBrokerTestCustomizer().getAdapterContext().currentSerializer();
        schema = getDataBrokerTestCustomizer().getSchemaService().getGlobalContext();
        roots = List.of(codec.toYangInstanceIdentifier(DataObjectReference.builder(Programs.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Switches.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Nodes.class).build()));
    }

    @AfterEach
    void tearDown() {
        starting.values().forEach(start -> start.cancel(true));
    }

    private Path dir(final String member) {
        return base.resolve(member);
    }

    /** Starts a member's store in a thread of its own (a start waits for the other members). */
    private CompletableFuture<ConfigurationStore> start(final ModelDatastore datastore, final String member) {
        final var broker = datastore.restart(member);
        final var gate = new StartGate();
        gates.put(member, gate);
        final var future = CompletableFuture.supplyAsync(() -> {
            try {
                return ModelDatastore.started(new ConfigurationStore(broker, roots, dir(member), member,
                    datastore.shards(member, MEMBERS), gate, 0, 10));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        starting.put(member, future);
        return future;
    }

    /** Starts the members in this order and waits until every one is running. */
    private void startAll(final ModelDatastore datastore, final String... order) throws Exception {
        final var futures = Stream.of(order).map(member -> start(datastore, member)).toList();
        for (int i = 0; i < order.length; i++) {
            assertEquals(ConfigurationStore.State.RUNNING, futures.get(i).get(30, TimeUnit.SECONDS).state());
            assertTrue(gates.get(order[i]).isOpen(), "RESTCONF stays closed on a running " + order[i]);
        }
    }

    private static DataObjectIdentifier<Switch> switchRef(final String node) {
        return DataObjectIdentifier.builder(Switches.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .build();
    }

    private YangInstanceIdentifier switchPath(final String node) {
        return codec.toYangInstanceIdentifier(switchRef(node));
    }

    private NormalizedNode switchEntry(final String node, final String program) {
        return codec.toNormalizedDataObject(switchRef(node), new SwitchBuilder().setNode(new NodeId(node))
            .setProgram(BindingMap.of(new ProgramBuilder().setProgramId(new ProgramId(Uint32.valueOf(5)))
                .setProgram(new ProgramName(program)).build())).build()).node();
    }

    /** Writes a switch entry through {@code member}'s broker; the shard's leader commits it. */
    private void write(final ModelDatastore datastore, final String member, final String node, final String program)
            throws Exception {
        final var tx = datastore.member(member).newWriteOnlyTransaction();
        tx.put(CONFIGURATION, switchPath(node), switchEntry(node, program));
        tx.commit().get();
    }

    /**
     * Writes switch entry openflow:1 through member-3 the way audit finding 3 has it: member-1, the leader,
     * pre-commits it and is killed; member-2 is elected and acknowledges it without asking any cohort.
     */
    private void writeReplayedByMember2(final ModelDatastore datastore, final String program) throws Exception {
        final var tx = datastore.member("member-3").newWriteOnlyTransaction();
        tx.put(CONFIGURATION, switchPath("openflow:1"), switchEntry("openflow:1", program));
        datastore.commitReplayedByNextLeader(tx, "member-2").get();
    }

    /** Waits up to {@code seconds} for {@code store}'s copy of /oko:switches to rank in Raft term {@code term}. */
    private void awaitTerm(final ConfigurationStore store, final long term, final long seconds)
            throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (store.copyVersion(switchPath("openflow:1")).term() < term && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    /** Every member stopped at once (KILL): the datastore, kept in memory only, is gone. */
    private ModelDatastore killAll(final ModelDatastore datastore) {
        MEMBERS.forEach(member -> datastore.member(member).kill());
        starting.clear();
        return new ModelDatastore(schema);
    }

    /**
     * A first life: all three start with new stores, member-1 leads and commits {@code a}, then member-2 leads
     * and commits {@code b} of the same entry while the listeners of member-1 and member-3 have not heard of it
     * yet (their copies are older, and they do not know).
     */
    private ModelDatastore lifeWhereMember2HoldsTheNewest() throws Exception {
        final var datastore = new ModelDatastore(schema);
        datastore.member("member-1");                       // member-1 leads first
        startAll(datastore, "member-1", "member-2", "member-3");
        write(datastore, "member-3", "openflow:1", "a");
        datastore.member("member-1").hold();
        datastore.member("member-3").hold();
        datastore.lead("member-2");
        write(datastore, "member-3", "openflow:1", "b");
        return datastore;
    }

    /** Findings 2 and 10: two of three stores replaced, then a whole-cluster start: the third copy is restored. */
    @Test
    void wipedMembersNeverEmptyTheCluster() throws Exception {
        var datastore = new ModelDatastore(schema);
        startAll(datastore, "member-1", "member-2", "member-3");
        write(datastore, "member-2", "openflow:1", "kept");
        datastore = killAll(datastore);
        deleteStore("member-1");
        deleteStore("member-2");
        startAll(datastore, "member-2", "member-1", "member-3");    // the wiped ones first
        assertEquals(Optional.of(switchEntry("openflow:1", "kept")), datastore.read(switchPath("openflow:1")));
    }

    /** Finding 4: whichever member starts first, the newest copy is restored. */
    @Test
    void theNewestCopyIsRestoredWhateverTheStartOrder() throws Exception {
        for (var order : List.of(new String[] { "member-1", "member-2", "member-3" },
                new String[] { "member-3", "member-1", "member-2" })) {
            var datastore = lifeWhereMember2HoldsTheNewest();
            datastore = killAll(datastore);
            startAll(datastore, order);
            assertEquals(Optional.of(switchEntry("openflow:1", "b")), datastore.read(switchPath("openflow:1")),
                "start order " + List.of(order));
            MEMBERS.forEach(member -> deleteStore(member));
        }
    }

    /**
     * Finding 3: the member with the newest copy dies while it restores: the others do not take the partial
     * datastore; when it comes back it finishes, and the cluster starts with the newest configuration.
     */
    @Test
    void aRestorerThatDiesMidwayIsWaitedForAndFinishesWhenItReturns() throws Exception {
        var datastore = lifeWhereMember2HoldsTheNewest();
        datastore = killAll(datastore);
        datastore.member("member-2").failConfigurationCommits();   // its restore's writes fail: it stops
        final var first = start(datastore, "member-1");
        final var third = start(datastore, "member-3");
        final var dying = ModelDatastore.started(new ConfigurationStore(datastore.member("member-2"), roots,
            dir("member-2"), "member-2", datastore.shards("member-2", MEMBERS), new StartGate(), 0, 10));
        assertEquals(ConfigurationStore.State.FAILED, dying.state());
        Thread.sleep(300);
        assertFalse(first.isDone() || third.isDone(), "the others wait for the member with the newest copy");
        assertFalse(gates.get("member-1").isOpen() || gates.get("member-3").isOpen(),
            "RESTCONF serves the configuration data of a member whose start waits");
        assertEquals(Optional.empty(), datastore.read(switchPath("openflow:1")), "member-1's older copy restored");
        startAll(datastore, "member-2");
        assertEquals(ConfigurationStore.State.RUNNING, first.get(30, TimeUnit.SECONDS).state());
        assertEquals(ConfigurationStore.State.RUNNING, third.get(30, TimeUnit.SECONDS).state());
        assertEquals(Optional.of(switchEntry("openflow:1", "b")), datastore.read(switchPath("openflow:1")));
    }

    /**
     * Finding 5: until the whole configuration is back, a write is refused whichever member it comes through and
     * whichever member leads (the refusal was a flag of the restoring member only).
     */
    @Test
    void writesAreRefusedThroughEveryMemberUntilTheClusterHasStarted() throws Exception {
        var datastore = new ModelDatastore(schema);
        startAll(datastore, "member-1", "member-2", "member-3");
        write(datastore, "member-1", "openflow:1", "stored");
        datastore = killAll(datastore);
        final var first = start(datastore, "member-1");
        final var second = start(datastore, "member-2");
        Thread.sleep(300);                                  // both wait for member-3's report
        for (String leader : List.of("member-1", "member-2")) {
            datastore.lead(leader);
            for (String through : List.of("member-1", "member-2", "member-3")) {
                final var tx = datastore.member(through).newWriteOnlyTransaction();
                tx.put(CONFIGURATION, switchPath("openflow:2"), switchEntry("openflow:2", "early"));
                final var failure = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.ExecutionException.class, () -> tx.commit().get());
                assertTrue(String.valueOf(failure.getCause()).contains("putting the stored configuration back"),
                    leader + " leads, through " + through + ": " + failure.getCause());
            }
        }
        startAll(datastore, "member-3");
        first.get(30, TimeUnit.SECONDS);
        second.get(30, TimeUnit.SECONDS);
        assertEquals(Optional.of(switchEntry("openflow:1", "stored")), datastore.read(switchPath("openflow:1")));
        assertEquals(Optional.empty(), datastore.read(switchPath("openflow:2")));
    }

    /** A member gone for good: the others start once an operator names it in start-without. */
    @Test
    void anOperatorLetsTheClusterStartWithoutAMemberGoneForGood() throws Exception {
        var datastore = new ModelDatastore(schema);
        startAll(datastore, "member-1", "member-2", "member-3");
        write(datastore, "member-1", "openflow:1", "x");
        datastore = killAll(datastore);
        final var first = start(datastore, "member-1");
        final var second = start(datastore, "member-2");
        Thread.sleep(300);
        assertFalse(first.isDone() || second.isDone(), "the cluster waits for member-3's copy");
        for (String member : List.of("member-1", "member-2")) {
            Files.writeString(dir(member).resolve(ClusterStart.START_WITHOUT_FILE), "member-3\n");
        }
        assertEquals(ConfigurationStore.State.RUNNING, first.get(30, TimeUnit.SECONDS).state());
        assertEquals(ConfigurationStore.State.RUNNING, second.get(30, TimeUnit.SECONDS).state());
        assertEquals(Optional.of(switchEntry("openflow:1", "x")), datastore.read(switchPath("openflow:1")));

        // The audit's finding 5: the file is for that start only. member-3 comes back, leads, and commits what
        // the others' listeners have not heard of yet when every member is KILLed: the next start must wait for
        // member-3's copy (the newest) again, not go on leaving it out.
        for (String member : List.of("member-1", "member-2")) {
            assertFalse(Files.exists(dir(member).resolve(ClusterStart.START_WITHOUT_FILE)), member);
        }
        startAll(datastore, "member-3");
        datastore.member("member-1").hold();
        datastore.member("member-2").hold();
        datastore.lead("member-3");
        write(datastore, "member-3", "openflow:1", "y");
        datastore = killAll(datastore);
        startAll(datastore, "member-1", "member-2", "member-3");
        assertEquals(Optional.of(switchEntry("openflow:1", "y")), datastore.read(switchPath("openflow:1")));
    }

    /**
     * Audit finding 3: member-1 leads and pre-commits a write, and is killed before its commit step; member-2 is
     * elected and answers the client's replay from the replicated entry without asking any cohort. Every member is
     * KILLed before member-2 commits anything of its own: the start must not take member-1's copy (the latest
     * term in which a cohort committed) over member-2's, which holds the acknowledged write.
     */
    @Test
    void aWriteTheNextLeaderAcknowledgesWithoutItsCohortSurvivesAWholeClusterRestart() throws Exception {
        var datastore = new ModelDatastore(schema);
        datastore.member("member-1");                       // member-1 leads first
        startAll(datastore, "member-1", "member-2", "member-3");
        write(datastore, "member-3", "openflow:1", "a");
        writeReplayedByMember2(datastore, "b");
        // The new leader's copy catches up within a moment of its election (polled); give it a second at most.
        awaitTerm(starting.get("member-2").get(), 2, 1);
        datastore = killAll(datastore);
        startAll(datastore, "member-1", "member-2", "member-3");
        assertEquals(Optional.of(switchEntry("openflow:1", "b")), datastore.read(switchPath("openflow:1")));
    }

    /**
     * An adversarial review of the catch-up: a write of the new term that the new leader's cohort pre-committed
     * and the datastore then gave up (another cohort refused; controller 11.0.2 tells no cohort that pre-committed)
     * stays prepared for good. The catch-up waits for it while the datastore could still commit it, and no
     * longer: it was refused for good, and the write acknowledged without a cohort was lost at the next
     * whole-cluster restart.
     */
    @Test
    void aPrepareTheDatastoreGaveUpDelaysTheNewLeadersCatchUpOnlyWhileItCouldStillCommit() throws Exception {
        var datastore = new ModelDatastore(schema);
        datastore.member("member-1");                       // member-1 leads first
        startAll(datastore, "member-1", "member-2", "member-3");
        write(datastore, "member-3", "openflow:1", "a");
        final var member2 = starting.get("member-2").get();
        final AtomicLong now = new AtomicLong(System.nanoTime());
        member2.clock(now::get);
        // A second cohort of /oko:switches on member-2, after the store's: it refuses every pre-commit.
        datastore.member("member-2").registerCommitCohort(DOMDataTreeIdentifier.of(CONFIGURATION, roots.get(1)),
            (txId, ctx, candidates) -> FluentFutures.immediateFluentFuture(new PostCanCommitStep() {
                @Override
                public ListenableFuture<? extends PostPreCommitStep> preCommit() {
                    return Futures.immediateFailedFuture(new IOException("pre-commit timed out"));
                }

                @Override
                public ListenableFuture<?> abort() {
                    return ThreePhaseCommitStep.NOOP_ABORT_FUTURE;
                }
            }));
        datastore.member("member-2").hold();               // its catch-up is told only after the failed write
        writeReplayedByMember2(datastore, "b");
        final var givenUp = datastore.member("member-3").newWriteOnlyTransaction();
        givenUp.put(CONFIGURATION, switchPath("openflow:9"), switchEntry("openflow:9", "z"));
        assertThrows(ExecutionException.class, () -> givenUp.commit().get());
        datastore.member("member-2").deliverAll();
        Thread.sleep(300);
        assertTrue(member2.copyVersion(switchPath("openflow:1")).term() < 2,
            "caught up while a prepare of the term could still be committed");
        now.addAndGet(StoreLog.PREPARE_LIFETIME_NANOS);
        awaitTerm(member2, 2, 5);
        datastore = killAll(datastore);
        startAll(datastore, "member-1", "member-2", "member-3");
        assertEquals(Optional.of(switchEntry("openflow:1", "b")), datastore.read(switchPath("openflow:1")));
        assertEquals(Optional.empty(), datastore.read(switchPath("openflow:9")), "the refused write came back");
    }

    /**
     * A member that restarts into a running cluster takes the cluster's configuration and puts nothing of its
     * own back; its older copy is kept aside.
     */
    @Test
    void aMemberRejoiningARunningClusterTakesItsConfiguration() throws Exception {
        final var datastore = new ModelDatastore(schema);
        startAll(datastore, "member-1", "member-2", "member-3");
        write(datastore, "member-1", "openflow:1", "old");
        datastore.member("member-3").kill();
        write(datastore, "member-1", "openflow:1", "new");
        startAll(datastore, "member-3");
        assertEquals(Optional.of(switchEntry("openflow:1", "new")), datastore.read(switchPath("openflow:1")));
        try (var names = Files.list(dir("member-3"))) {
            assertTrue(names.anyMatch(path -> path.getFileName().toString().startsWith("replaced-")));
        }
    }

    private void deleteStore(final String member) {
        try (var paths = Files.walk(dir(member))) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
