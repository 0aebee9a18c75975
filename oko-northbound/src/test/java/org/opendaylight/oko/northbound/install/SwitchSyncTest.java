/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.SettableFuture;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.FilterLibrary;
import org.opendaylight.oko.northbound.program.ProgramInfoPublisher;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.oko.northbound.stats.StatisticsPoller;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowCapableNodeBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.InstallStatus;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.settings.ParameterBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.ElfBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.LibraryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.Statistics;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * Configuration to switch, on mdsal's in-memory data broker with a {@link FakeSwitchClient}: what is sent, in
 * which order, and what the operational datastore says afterwards.
 */
class SwitchSyncTest extends AbstractConcurrentDataBrokerTest {
    private static final String NODE = "openflow:1";
    private static final String MEMBER = "member-1";
    private static final long PROG_ID = 30;
    /** rate 5 and burst 5 (burst defaults to rate), little-endian u64s. */
    private static final String PARAMS_5_5 = "00000000=05000000000000000500000000000000";

    private final FakeSwitchClient client = new FakeSwitchClient();
    private final LoadedPrograms loaded = new LoadedPrograms();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    /** Read-only transactions the code under test opened (a read leaves journal entries in a real datastore). */
    private final AtomicInteger reads = new AtomicInteger();
    private SwitchSync sync;
    private SwitchOwnership ownership;
    private OperationalState state;
    private OkoSupport support;

    @BeforeEach
    void setUp() throws Exception {
        setup();
        final DataBroker broker = countingReads(getDataBroker());
        state = new OperationalState(broker);
        final var resolver = new ProgramResolver(new FilterLibrary(), new FilterCatalog());
        final var installer = new ProgramInstaller(client, loaded, state, SwitchEvents.NONE);
        support = new OkoSupport(client, state, broker, pool);
        sync = new SwitchSync(broker, resolver, installer, loaded, state, support, pool, 5_000);
        ownership = new SwitchOwnership(MEMBER, sync, loaded, state, new ProgramInfoPublisher(broker, resolver),
            support, SwitchEvents.NONE, new MastershipRepair(MEMBER, node -> Optional.of(false), device -> null, timer,
                pool, 1));
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        timer.shutdownNow();
    }

    @Test
    void configuredProgramIsLoadedThenGetsItsParameters() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " load 30 replace keep-maps", NODE + " update 30 map 0 " + PARAMS_5_5),
            client.sent);
        assertStatus(InstallStatus.Installed, "");
        assertTrue(loaded.get(NODE, PROG_ID).isPresent());
    }

    @Test
    void unchangedConfigurationIsNotSentAgainButAChangedParameterIs() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(2, client.sent.size(), client.sent::toString);
        storeLimiter("7");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " load 30 replace keep-maps",
            NODE + " update 30 map 0 00000000=07000000000000000700000000000000"), client.sent.subList(2, 4));
    }

    @Test
    void verifierRejectionIsTheStatusWithTheSwitchsText() throws Exception {
        client.refusals.put("load", "OKO_EC_VERIFIER_REJECTED: insn 3: loop");
        storeLimiter("5");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " load 30 replace keep-maps"), client.sent);
        assertStatus(InstallStatus.Rejected, "OKO_EC_VERIFIER_REJECTED: insn 3: loop");
        assertFalse(loaded.get(NODE, PROG_ID).isPresent());
    }

    @Test
    void refusedReplacementIsTheStatusAndTheOldProgramIsSaidToRunOn() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
        client.refusals.put("load", "OKO_EC_VERIFIER_REJECTED: insn 3: loop");
        storeLimiter("7");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        // Was: still 'installed', the earlier program's status, with the new configuration refused unseen.
        assertStatus(InstallStatus.Rejected,
            "OKO_EC_VERIFIER_REJECTED: insn 3: loop; the switch still runs the program loaded before");
        assertTrue(loaded.get(NODE, PROG_ID).isPresent());
    }

    @Test
    void pendingOfAnEntryWrittenAgainWithTheRunningProgramBecomesInstalled() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        // The entry deleted and written again before a sync ran: the commit said 'pending' (the cohort does).
        state.programStatus(NODE, PROG_ID, "limiter", null, new Outcome(InstallStatus.Pending,
            "configured; the controller loads it next")).get(10, TimeUnit.SECONDS);
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
        assertEquals(2, client.sent.size(), client.sent::toString);       // nothing sent again
    }

    @Test
    void refusedParametersTakeTheProgramOffTheSwitchAgain() throws Exception {
        client.refusals.put("update", "OKO_EC_BAD_MAP_SIZES: map 0 has key 4 value 16, message has key 4 value 8");
        storeLimiter("5");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " load 30 replace keep-maps", NODE + " update 30 map 0 " + PARAMS_5_5,
            NODE + " unload 30 force"), client.sent);
        assertStatus(InstallStatus.Failed, "initial entries of map 'params' refused: OKO_EC_BAD_MAP_SIZES: map 0"
            + " has key 4 value 16, message has key 4 value 8; the program was unloaded");
    }

    @Test
    void programNoLongerConfiguredIsUnloadedAndForgotten() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.CONFIGURATION, switchProgram());
        tx.commit().get();
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(NODE + " unload 30", client.sent.get(2));
        waitFor(() -> readStatus().isEmpty(), "the operational entry stayed");
    }

    @Test
    void switchNamingAProgramThatIsNotStoredFails() throws Exception {
        installOnSwitch("nope");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(), client.sent);
        assertStatus(InstallStatus.Failed, "program 'nope' is not configured under /programs");
    }

    @Test
    void programThatIsNotAnElfObjectIsNeverSent() throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.CONFIGURATION, programPath("junk"), new ProgramBuilder()
            .setName(new ProgramName("junk")).setSource(new ElfBuilder().setElf(new byte[] { 1, 2, 3 }).build())
            .build());
        tx.commit().get();
        installOnSwitch("junk");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(), client.sent);
        assertStatus(InstallStatus.Failed, "elf: not an ELF object");
    }

    @Test
    void reconciliationEndsOnlyWhenTheProgramsAreOnTheSwitch() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        final SettableFuture<Void> gate = SettableFuture.create();
        client.loadGate = gate;
        final var reconciliation = ownership.startReconciliation(TestDevices.device(NODE));
        Thread.sleep(300);
        assertFalse(reconciliation.isDone(), "reconciliation ended before the switch confirmed LOAD_PROG");
        gate.set(null);
        assertEquals(Boolean.TRUE, reconciliation.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps",
            NODE + " update 30 map 0 " + PARAMS_5_5), client.sent);
        assertStatus(InstallStatus.Installed, "");
    }

    @Test
    void aNewMasterTakesOverWhatTheSwitchRunsInsteadOfLoadingItAgain() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
        final String sha256 = readStatus().orElseThrow().getSha256();
        final String fingerprint = readStatus().orElseThrow().getSettingsFingerprint();
        assertTrue(fingerprint != null, "no settings fingerprint recorded");
        // After the last map write, the switch was told the install is complete, with its fingerprint.
        assertEquals(List.of(NODE + " mark 30 " + fingerprint), client.marks);

        // Another member becomes master (here: this one, knowing nothing loaded). The switch lists the program
        // with the configured ELF's SHA-256 and the install mark of the configured map writes: nothing is sent but
        // the probe.
        loaded.forgetSwitch(NODE);
        client.sent.clear();
        client.statistics = List.of(running(sha256, fingerprint));
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0"), client.sent);
        assertTrue(loaded.get(NODE, PROG_ID).isPresent(), "the program taken over is not known loaded");
        assertStatus(InstallStatus.Installed, "");

        // The configured ELF whose install was never marked complete (or was loaded again since) is loaded again.
        loaded.forgetSwitch(NODE);
        client.sent.clear();
        client.statistics = List.of(running(sha256, "00".repeat(32)));
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps",
            NODE + " update 30 map 0 " + PARAMS_5_5), client.sent);

        // So is one on a switch older than protocol 1.4 (no install mark).
        loaded.forgetSwitch(NODE);
        client.sent.clear();
        client.statistics = List.of(running(sha256, null));
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps",
            NODE + " update 30 map 0 " + PARAMS_5_5), client.sent);

        // A different ELF on the switch (loaded by someone else) is replaced.
        loaded.forgetSwitch(NODE);
        client.sent.clear();
        client.statistics = List.of(running("00".repeat(32), fingerprint));
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps",
            NODE + " update 30 map 0 " + PARAMS_5_5), client.sent);

        // Parameters changed while no member mastered the switch: the running program is loaded with them.
        storeLimiter("7");
        loaded.forgetSwitch(NODE);
        client.sent.clear();
        client.statistics = List.of(running(sha256, fingerprint));
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps",
            NODE + " update 30 map 0 00000000=07000000000000000700000000000000"), client.sent);

        // A switch that does not report SHA-256s (protocol 1.1) gets it loaded.
        loaded.forgetSwitch(NODE);
        client.sent.clear();
        client.statistics = List.of(new SwitchClient.ProgramStatistics(PROG_ID, true, 0, 0, 0, 0, 0, 0, 0, 78, 0,
            List.of()));
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(3, client.sent.size(), client.sent::toString);
    }

    private static SwitchClient.ProgramStatistics running(final String sha256, final String installMark) {
        return new SwitchClient.ProgramStatistics(PROG_ID, true, 10, 5, 0, 0, 0, 1, 0, 78, 0, List.of(), sha256,
            installMark);
    }

    /**
     * Finding 9 of the durability issue: a reload that stopped between LOAD_PROG and its last UPDATE_MAP (here the
     * master's connection dropped: the map write and the unload that follows it never reach the switch) leaves the
     * switch running the configured ELF without the configured parameters. The operational entry still holds the
     * fingerprint of the install before; a member that takes the switch over must load the program again, not adopt
     * it.
     */
    @Test
    void aReloadCutShortBeforeItsLastMapWriteIsLoadedAgainNotTakenOver() throws Exception {
        client.stateful = true;
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");

        // The rate goes to 7: the master loads the program again (replace, keep maps), then loses the switch.
        client.refusals.put("update", "not connected");
        client.refusals.put("unload", "not connected");
        storeLimiter("7");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        waitFor(() -> readStatus().map(p -> p.getStatus() == InstallStatus.Failed).orElse(false),
            "the cut-short reload is not 'failed': " + readStatus());
        client.refusals.clear();

        // The operator puts the rate back to 5 before another member masters the switch; the switch runs the
        // configured ELF, its maps keep whatever the cut-short reload left.
        storeLimiter("5");
        loaded.forgetSwitch(NODE);
        client.sent.clear();
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps",
            NODE + " update 30 map 0 " + PARAMS_5_5), client.sent);
        assertStatus(InstallStatus.Installed, "");
    }

    /**
     * The switch's mark is the proof of a complete install, not the operational datastore: after a whole-cluster
     * restart (no operational entry at all) the program is taken over as it runs.
     */
    @Test
    void aCompleteInstallIsTakenOverWithoutTheOperationalEntry() throws Exception {
        client.stateful = true;
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");

        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, switchProgram());
        tx.commit().get();
        loaded.forgetSwitch(NODE);
        client.sent.clear();
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0"), client.sent);
        assertStatus(InstallStatus.Installed, "");
        assertEquals(ProgramInstaller.fingerprint(loaded.get(NODE, PROG_ID).orElseThrow().program()),
            readStatus().orElseThrow().getSettingsFingerprint());
    }

    /** A switch that cannot record the mark (older than 1.4) still gets a complete, installed program. */
    @Test
    void aSwitchThatCannotRecordTheMarkStillHasTheProgramInstalled() throws Exception {
        client.refusals.put("mark", "OFPBRC_BAD_EXP_TYPE");
        storeLimiter("5");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " load 30 replace keep-maps", NODE + " update 30 map 0 " + PARAMS_5_5),
            client.sent);
        assertEquals(1, client.marks.size(), client.marks::toString);
        assertStatus(InstallStatus.Installed, "");
    }

    @Test
    void losingTheSwitchMarksItsProgramsDisconnected() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        ownership.onBecomeOwner(TestDevices.device(NODE));
        waitFor(() -> readOperationalSwitch(NODE).map(sw -> MEMBER.equals(sw.getMaster())
            && Boolean.TRUE.equals(sw.getConnected())).orElse(false), "the master did not say it masters the switch");
        ownership.onLoseOwnership(TestDevices.device(NODE));
        assertFalse(loaded.get(NODE, PROG_ID).isPresent());
        assertStatus(InstallStatus.SwitchDisconnected, NODE + " is not connected to the controller");
        final Switch sw = readOperationalSwitch(NODE).orElseThrow();
        assertEquals(Boolean.FALSE, sw.getConnected());
        assertEquals(null, sw.getMaster());
        assertEquals(null, readStatus().orElseThrow().getStatistics());
    }

    @Test
    void aSlaveLeavesTheMastersEntryAlone() throws Exception {
        // In a cluster, openflowplugin tells a member that becomes a slave for a switch that it lost it. The
        // switch is in the inventory (another member masters it), and what that master wrote stays.
        storeLimiter("5");
        installOnSwitch("limiter");
        describeInInventory(NODE, "Open vSwitch", "3.1.0");
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructureMerge(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(NODE),
            new SwitchBuilder().setNode(new NodeId(NODE)).setConnected(true).setMaster("member-2").build());
        tx.commit().get();
        new OperationalState(getDataBroker()).programStatus(NODE, PROG_ID, "limiter", "ab", Outcome.installed())
            .get();
        final Switch before = readOperationalSwitch(NODE).orElseThrow();

        ownership.onLoseOwnership(TestDevices.device(NODE));
        ownership.configurationChanged(Set.of(NODE));
        sync.sync("openflow:99").get(10, TimeUnit.SECONDS);
        Thread.sleep(300);
        assertEquals(before, readOperationalSwitch(NODE).orElseThrow());
        assertEquals(List.of(), client.sent);

        // Once the switch is gone from the inventory, no member masters it: any member marks it.
        final var remove = getDataBroker().newWriteOnlyTransaction();
        remove.delete(LogicalDatastoreType.OPERATIONAL, OperationalState.inventoryPath(NODE));
        remove.commit().get();
        ownership.inventoryNodeRemoved(NODE);
        assertStatus(InstallStatus.SwitchDisconnected, NODE + " is not connected to the controller");
        assertEquals(null, readOperationalSwitch(NODE).orElseThrow().getMaster());
        assertEquals("ab", readStatus().orElseThrow().getSha256(), "the last SHA-256 the switch ran is kept");
    }

    @Test
    void configurationChangesReachOwnedSwitchesAndMarkOthersDisconnected() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        client.sent.clear();
        storeLimiter("9");
        ownership.configurationChanged(Set.of(NODE));
        waitFor(() -> client.sent.size() == 2, "the changed parameter was not pushed: " + client.sent);
        assertEquals(NODE + " update 30 map 0 00000000=09000000000000000900000000000000", client.sent.get(1));

        // A switch nobody masters (not in the operational inventory): its programs say so, nothing is sent.
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, OperationalState.programPath("openflow:2", 5),
            new org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder()
                .setProgramId(new ProgramId(Uint32.valueOf(5))).setProgram(new ProgramName("limiter")).build());
        tx.commit().get();
        ownership.configurationChanged(Set.of("openflow:2"));
        waitFor(() -> readStatus("openflow:2", 5).map(p -> p.getStatus() == InstallStatus.SwitchDisconnected)
            .orElse(false), "openflow:2's program is not marked disconnected");
        assertTrue(client.sent.stream().noneMatch(m -> m.startsWith("openflow:2")), client.sent::toString);
    }

    @Test
    void aSwitchNeitherConfiguredNorConnectedLeavesNoOperationalEntry() throws Exception {
        storeLimiter("5");
        nameProgram("openflow:2", 5, "limiter");
        nameProgram("openflow:2", 6, "limiter");
        ownership.configurationChanged(Set.of("openflow:2"));
        waitFor(() -> readStatus("openflow:2", 6).isPresent(), "openflow:2's programs were not marked");

        // One program is no longer configured for it: its old status goes, the other's stays.
        var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.CONFIGURATION, OperationalState.programPath("openflow:2", 6));
        tx.commit().get();
        ownership.configurationChanged(Set.of("openflow:2"));
        waitFor(() -> readStatus("openflow:2", 6).isEmpty(), "program 6's status stayed after it was removed");
        assertTrue(readStatus("openflow:2", 5).isPresent());

        // The switch entry is removed: nothing is said of the switch any more (it stayed until a restart).
        tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.CONFIGURATION, OperationalState.switchPath("openflow:2"));
        tx.commit().get();
        ownership.configurationChanged(Set.of("openflow:2"));
        waitFor(() -> readOperationalSwitch("openflow:2").isEmpty(), "openflow:2's operational entry stayed");

        // A switch that disconnects and was never configured: its connected=false entry does not stay either.
        ownership.onBecomeOwner(TestDevices.device("openflow:3"));
        waitFor(() -> readOperationalSwitch("openflow:3").isPresent(), "openflow:3 was not recorded as connected");
        ownership.onLoseOwnership(TestDevices.device("openflow:3"));
        waitFor(() -> readOperationalSwitch("openflow:3").isEmpty(), "openflow:3's operational entry stayed");
    }

    @Test
    void aProgramTheSwitchKeptIsInstalledAgainWhenConfiguredAgain() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
        // A flow still names it: the switch refuses to unload it.
        client.refusals.put("unload", "OKO_EC_PROG_IN_USE: program 30 is used by 1 rules");
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.CONFIGURATION, switchProgram());
        tx.commit().get();
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        waitFor(() -> readStatus().map(p -> p.getStatus() == InstallStatus.Failed).orElse(false),
            "the refused unload is not reported: " + readStatus());
        // Configured again (the same program): it was stale as 'failed' forever; now it is loaded again.
        client.refusals.remove("unload");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
        assertEquals(NODE + " load 30 replace keep-maps", client.sent.get(client.sent.size() - 2));
    }

    @Test
    void aProgramStoredAgainAfterItsDeletionIsInstalledAgain() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.CONFIGURATION, programPath("limiter"));
        tx.commit().get();
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Failed, "program 'limiter' is not configured under /programs");
        // Stored again, unchanged: it was 'failed' forever; now it is loaded again and says so.
        storeLimiter("5");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
    }

    @Test
    void aSwitchWithoutOkoIsSentNothingAndItsProgramsSayWhy() throws Exception {
        client.refusals.put("stats", "BADEXPERIMENTER");
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0"), client.sent);
        assertStatus(InstallStatus.Unsupported, NODE + " does not support Oko (the switch answered BADEXPERIMENTER)");
        // openflowplugin writes the switch's description into the inventory after reconciliation.
        describeInInventory(NODE, "Open vSwitch", "3.1.0");
        ownership.inventoryNodeAdded(NODE);
        assertStatus(InstallStatus.Unsupported, NODE + " does not support Oko (Open vSwitch 3.1.0 answered "
            + "BADEXPERIMENTER)");
        waitFor(() -> readOperationalSwitch(NODE).map(sw -> Boolean.FALSE.equals(sw.getOkoSupported())
            && "Open vSwitch 3.1.0 answered BADEXPERIMENTER".equals(sw.getOkoSupportMessage())).orElse(false),
            "oko-supported is not false: " + readOperationalSwitch(NODE));
        // A configuration change sends nothing either.
        storeLimiter("9");
        sync.sync(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0"), client.sent);
        assertFalse(loaded.get(NODE, PROG_ID).isPresent());
    }

    @Test
    void aSwitchWithOkoIsAskedOnceThenGetsItsPrograms() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps",
            NODE + " update 30 map 0 " + PARAMS_5_5), client.sent);
        assertStatus(InstallStatus.Installed, "");
        waitFor(() -> readOperationalSwitch(NODE).map(sw -> Boolean.TRUE.equals(sw.getOkoSupported()))
            .orElse(false), "oko-supported is not true: " + readOperationalSwitch(NODE));
    }

    @Test
    void anotherAnswerToTheProbeIsTakenForOko() throws Exception {
        // An Oko switch of protocol 1.0 refuses PROG_STATS with another error: it still gets its programs.
        client.refusals.put("stats", "OFPBRC_BAD_EXP_TYPE");
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
        assertFalse(support.unsupported(NODE));
        waitFor(() -> readOperationalSwitch(NODE).map(sw -> Boolean.TRUE.equals(sw.getOkoSupported())
            && "no answer to the probe (OFPBRC_BAD_EXP_TYPE); taken to speak Oko".equals(sw.getOkoSupportMessage()))
            .orElse(false), "the switch does not say why it is taken to speak Oko: " + readOperationalSwitch(NODE));
    }

    @Test
    void aConfigurationChangeDuringTheProbeWaitsForItsAnswer() throws Exception {
        client.refusals.put("stats", "BADEXPERIMENTER");
        final SettableFuture<Void> gate = SettableFuture.create();
        client.statsGate = gate;
        storeLimiter("5");
        final var reconciliation = ownership.startReconciliation(TestDevices.device(NODE));
        installOnSwitch("limiter");
        final var sync2 = sync.sync(NODE);
        Thread.sleep(300);
        assertFalse(sync2.isDone(), "a sync went ahead of the probe's answer");
        gate.set(null);
        reconciliation.get(10, TimeUnit.SECONDS);
        sync2.get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0"), client.sent);
        assertStatus(InstallStatus.Unsupported, NODE + " does not support Oko (the switch answered BADEXPERIMENTER)");
    }

    @Test
    void statisticsAnsweredAfterTheProgramWasReplacedAreDropped() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
        client.statistics = List.of(new SwitchClient.ProgramStatistics(PROG_ID, true, 1000, 250, 0, 0, 0, 1, 0, 78,
            16, List.of()));
        final SettableFuture<Void> gate = SettableFuture.create();
        client.statsGate = gate;
        try (var poller = new StatisticsPoller(client, state, loaded, support, ownership::ownedNodes,
                Executors.newSingleThreadScheduledExecutor(), pool, 0)) {
            poller.pollOnce();
            storeLimiter("9");                  // replaced on the switch (its counters start again)
            sync.sync(NODE).get(10, TimeUnit.SECONDS);
            gate.set(null);
            Thread.sleep(500);
        }
        assertEquals(null, readStatus().orElseThrow().getStatistics(), "the old program's counters were written");
    }

    @Test
    void averageNsPerRunIsRoundedAsTheSwitchPrintsIt() {
        // printf("%.1f") of the double quotient: half to even on the exact binary value.
        assertEquals("0.2", StatisticsPoller.toStatistics(stats(1, 4), null).getAverageNsPerRun().toString());
        assertEquals("0.8", StatisticsPoller.toStatistics(stats(3, 4), null).getAverageNsPerRun().toString());
        assertEquals("0.0", StatisticsPoller.toStatistics(stats(5, 0), null).getAverageNsPerRun().toString());
        assertEquals("33.3", StatisticsPoller.toStatistics(stats(100, 3), null).getAverageNsPerRun().toString());
        // Unsigned: 2^64 - 1 ns over 2^63 runs is 2.0.
        assertEquals("2.0", StatisticsPoller.toStatistics(stats(-1, Long.MIN_VALUE), null).getAverageNsPerRun()
            .toString());
    }

    private static SwitchClient.ProgramStatistics stats(final long timedNs, final long timedRuns) {
        return new SwitchClient.ProgramStatistics(1, false, 0, 0, 0, timedRuns, timedNs, 0, 0, 1, 0, List.of());
    }

    @Test
    void statisticsOfLoadedProgramsReachTheirOperationalEntries() throws Exception {
        storeLimiter("5");
        installOnSwitch("limiter");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertStatus(InstallStatus.Installed, "");
        client.statistics = List.of(
            new SwitchClient.ProgramStatistics(PROG_ID, true, 1000, 250, 1, 2, 91, 2, 3, 22, 16,
                List.of(new SwitchClient.MapStatistics(3, 4, 4, 2, 0))),
            new SwitchClient.ProgramStatistics(99, false, 5, 5, 0, 0, 0, 0, 0, 3, 0, List.of()));
        try (var poller = new StatisticsPoller(client, state, loaded, support, ownership::ownedNodes,
                Executors.newSingleThreadScheduledExecutor(), pool, 0)) {
            poller.pollOnce();
        }
        waitFor(() -> readStatus().map(p -> p.getStatistics() != null).orElse(false), "no statistics written");
        final Statistics stats = readStatus().orElseThrow().getStatistics();
        assertEquals(Uint64.valueOf(1000), stats.getRuns());
        assertEquals(Uint64.valueOf(250), stats.getMatches());
        assertEquals(Uint64.valueOf(1), stats.getErrors());
        assertEquals("45.5", stats.getAverageNsPerRun().toString());
        assertEquals(Uint32.valueOf(2), stats.getRules());
        assertEquals(Uint32.valueOf(3), stats.getDatapathFlows());
        assertTrue(stats.getJit());
        final var map = stats.nonnullMap().values().iterator().next();
        assertEquals(loaded.get(NODE, PROG_ID).orElseThrow().program().image().maps().get(0).name(),
            map.getMapName().getValue());
        assertEquals(Uint64.valueOf(2), map.getEvictions());
        // Program 99 runs on the switch but was not loaded by this controller: no entry is made for it.
        assertFalse(readStatus(NODE, 99).isPresent());
    }

    @Test
    void statisticsOfAProgramWhoseEntryIsGoneAreDropped() throws Exception {
        final var stats = StatisticsPoller.toStatistics(new SwitchClient.ProgramStatistics(77, false, 1, 0, 0, 0, 0,
            0, 0, 3, 0, List.of()), null);
        assertThrows(java.util.concurrent.ExecutionException.class,
            () -> state.statistics(NODE, java.util.Map.of(77L, stats)).get(10, TimeUnit.SECONDS));
        assertFalse(readStatus(NODE, 77).isPresent());
    }

    private void describeInInventory(final String node, final String hardware, final String software)
            throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Nodes.class)
            .child(Node.class, new NodeKey(new NodeId(node))).build(), new NodeBuilder()
                .setId(new NodeId(node))
                .addAugmentation(new FlowCapableNodeBuilder().setHardware(hardware).setSoftware(software).build())
                .build());
        tx.commit().get();
    }

    private Optional<Switch> readOperationalSwitch(final String node) {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(node)).get();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aChangeToOneSwitchOfTwentyReadsOnlyForThatSwitch() throws Exception {
        final ExecutorService changes = Executors.newSingleThreadExecutor();
        final var switchesListener = getDataBroker().registerTreeChangeListener(
            LogicalDatastoreType.CONFIGURATION, DataObjectReference.builder(Switches.class).child(Switch.class)
                .build(), list -> changes.execute(() -> ownership.switchesChanged(list)));
        final var programsListener = getDataBroker().registerTreeChangeListener(
            LogicalDatastoreType.CONFIGURATION, DataObjectReference.builder(Programs.class).child(Program.class)
                .build(), list -> changes.execute(() -> ownership.programsChanged(list)));
        try {
            storeLimiter("5");
            for (int i = 1; i <= 20; i++) {
                nameProgram("openflow:" + i, 5, "limiter");
            }
            waitFor(() -> readStatus("openflow:20", 5).isPresent(), "openflow:20 was not marked disconnected");
            Thread.sleep(300);
            reads.set(0);

            // One switch gets a second program: that switch is looked at (its configuration, whether anybody
            // masters it, what its operational entry lists), not the other nineteen.
            nameProgram("openflow:7", 6, "limiter");
            waitFor(() -> readStatus("openflow:7", 6).isPresent(), "openflow:7's new program was not marked");
            Thread.sleep(300);
            assertTrue(reads.get() <= 3, reads.get() + " reads for a change to one switch of 20");

            // A program change reads the switches once to find those that name it, then each of them.
            reads.set(0);
            storeLimiter("9");
            Thread.sleep(500);
            assertTrue(reads.get() <= 1 + 3 * 20, reads.get() + " reads for a change to a program 20 switches use");
        } finally {
            switchesListener.close();
            programsListener.close();
            changes.shutdownNow();
        }
    }

    private void nameProgram(final String node, final long progId, final String programName) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, OperationalState.programPath(node, progId),
            new org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder()
                .setProgramId(new ProgramId(Uint32.valueOf(progId))).setProgram(new ProgramName(programName))
                .build());
        tx.commit().get();
    }

    private DataBroker countingReads(final DataBroker broker) {
        return (DataBroker) Proxy.newProxyInstance(DataBroker.class.getClassLoader(), new Class<?>[] {
            DataBroker.class }, (proxy, method, args) -> {
                if (method.getName().equals("newReadOnlyTransaction")
                        || method.getName().equals("newReadWriteTransaction")) {
                    reads.incrementAndGet();
                }
                return method.invoke(broker, args);
            });
    }

    private void storeLimiter(final String rate) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.CONFIGURATION, programPath("limiter"), new ProgramBuilder()
            .setName(new ProgramName("limiter"))
            .setSource(new LibraryBuilder().setLibraryFilter(new LibraryFilterName("rate-limiter")).build())
            .setParameter(BindingMap.of(new ParameterBuilder().setName("rate").setValue(rate).build()))
            .build());
        tx.commit().get();
    }

    private void installOnSwitch(final String programName) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, switchProgram(),
            new org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder()
                .setProgramId(new ProgramId(Uint32.valueOf(PROG_ID)))
                .setProgram(new ProgramName(programName))
                .build());
        tx.commit().get();
    }

    private static DataObjectIdentifier<Program> programPath(final String name) {
        return DataObjectIdentifier.builder(Programs.class).child(Program.class, new ProgramKey(new ProgramName(name)))
            .build();
    }

    private static DataObjectIdentifier<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch
            .Program> switchProgram() {
        return OperationalState.programPath(NODE, PROG_ID);
    }

    private Optional<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program>
            readStatus() {
        return readStatus(NODE, PROG_ID);
    }

    private Optional<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program>
            readStatus(final String node, final long progId) {
        try (var tx = getDataBroker().newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, OperationalState.programPath(node, progId)).get();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new AssertionError(e);
        }
    }

    /** Status writes are asynchronous: the last one wins within a few milliseconds. */
    private void assertStatus(final InstallStatus status, final String message) throws Exception {
        waitFor(() -> readStatus().map(p -> p.getStatus() == status && message.equals(p.getStatusMessage()))
            .orElse(false), "expected " + status + " '" + message + "', have " + readStatus());
    }

    private static void waitFor(final java.util.function.BooleanSupplier condition, final String what)
            throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what);
            }
            Thread.sleep(20);
        }
    }
}
