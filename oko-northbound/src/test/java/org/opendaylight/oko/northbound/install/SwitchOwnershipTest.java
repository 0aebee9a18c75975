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
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.SettableFuture;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.FilterLibrary;
import org.opendaylight.oko.northbound.program.ProgramInfoPublisher;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.LibraryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * Which switches this member acts for, and what it does as it gains and loses them: the events other parts of the
 * controller hang on (flows wait for switchReady), and each switch's programs loaded once per mastership.
 */
class SwitchOwnershipTest extends AbstractConcurrentDataBrokerTest {
    private static final String NODE = "openflow:1";
    private static final String MEMBER = "member-1";
    private static final long PROG_ID = 30;

    private final FakeSwitchClient client = new FakeSwitchClient();
    private final LoadedPrograms loaded = new LoadedPrograms();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    /** The events, in order, as "switchMastered openflow:1". */
    private final List<String> events = new CopyOnWriteArrayList<>();
    private SwitchOwnership ownership;
    private OkoSupport support;

    @BeforeEach
    void setUp() throws Exception {
        setup();
        final OperationalState state = new OperationalState(getDataBroker());
        final var resolver = new ProgramResolver(new FilterLibrary(), new FilterCatalog());
        final SwitchEvents recorder = new SwitchEvents() {
            @Override
            public void programInstalled(final String node, final long progId) {
                events.add("programInstalled " + node + " " + progId);
            }

            @Override
            public void programUnloaded(final String node, final long progId, final boolean force) {
                events.add("programUnloaded " + node + " " + progId);
            }

            @Override
            public void switchMastered(final String node) {
                events.add("switchMastered " + node);
            }

            @Override
            public void switchReady(final String node) {
                events.add("switchReady " + node);
            }

            @Override
            public void switchForgotten(final String node) {
                events.add("switchForgotten " + node);
            }
        };
        final var installer = new ProgramInstaller(client, loaded, state, recorder);
        support = new OkoSupport(client, state, getDataBroker(), pool);
        final var sync = new SwitchSync(getDataBroker(), resolver, installer, loaded, state, support, pool, 5_000);
        ownership = new SwitchOwnership(MEMBER, sync, loaded, state, new ProgramInfoPublisher(getDataBroker(),
            resolver), support, recorder, new MastershipRepair(MEMBER, node -> Optional.of(false), device -> null,
                timer, pool, 1));
        configureBaselineOnTheSwitch();
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
        timer.shutdownNow();
    }

    private void configureBaselineOnTheSwitch() throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.CONFIGURATION, DataObjectIdentifier.builder(Programs.class).child(Program.class,
            new ProgramKey(new ProgramName("base"))).build(), new org.opendaylight.yang.gen.v1.urn.opendaylight.oko
                .rev261123.programs.ProgramBuilder().setName(new ProgramName("base"))
                .setSource(new LibraryBuilder().setLibraryFilter(new LibraryFilterName("baseline")).build()).build());
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, OperationalState.programPath(NODE, PROG_ID),
            new ProgramBuilder().setProgramId(new ProgramId(Uint32.valueOf(PROG_ID)))
                .setProgram(new ProgramName("base")).build());
        tx.commit().get();
    }

    @Test
    void reconciliationMastersProbesLoadsThenSaysReady() throws Exception {
        assertFalse(ownership.isOwned(NODE));
        assertEquals(Boolean.TRUE, ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS));
        assertTrue(ownership.isOwned(NODE));
        assertEquals(Set.of(NODE), ownership.ownedNodes());
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps"), client.sent);
        waitFor(() -> events.contains("switchReady " + NODE), "no switchReady: " + events);
        assertEquals(List.of("switchMastered " + NODE, "programInstalled " + NODE + " 30", "switchReady " + NODE),
            events);
    }

    @Test
    void becomingOwnerAfterReconciliationLoadsNothingAgain() throws Exception {
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        client.sent.clear();
        ownership.onBecomeOwner(TestDevices.device(NODE));
        Thread.sleep(300);
        assertEquals(List.of(), client.sent);
        assertEquals(1, events.stream().filter(e -> e.startsWith("switchMastered")).count(), events::toString);
    }

    @Test
    void withoutTheReconciliationFrameworkBecomingOwnerLoadsThePrograms() throws Exception {
        ownership.onBecomeOwner(TestDevices.device(NODE));
        assertTrue(ownership.isOwned(NODE));
        waitFor(() -> events.contains("switchReady " + NODE), "no switchReady: " + events);
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps"), client.sent);
        assertEquals("switchMastered " + NODE, events.get(0));
    }

    @Test
    void aSwitchLostBeforeItsProgramsAreLoadedIsNeverSaidReady() throws Exception {
        final SettableFuture<Void> gate = SettableFuture.create();
        client.loadGate = gate;
        final var reconciliation = ownership.startReconciliation(TestDevices.device(NODE));
        waitFor(() -> client.sent.contains(NODE + " load 30 replace keep-maps"), "LOAD_PROG not sent: " + client.sent);
        ownership.onLoseOwnership(TestDevices.device(NODE));
        assertFalse(ownership.isOwned(NODE));
        gate.set(null);
        reconciliation.get(10, TimeUnit.SECONDS);
        Thread.sleep(300);
        assertFalse(events.contains("switchReady " + NODE), events::toString);
        assertTrue(events.contains("switchForgotten " + NODE), events::toString);
    }

    @Test
    void losingTheSwitchForgetsWhatWasLoadedAndTheProbesVerdict() throws Exception {
        client.refusals.put("stats", "BADEXPERIMENTER");
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertTrue(support.unsupported(NODE));
        ownership.onLoseOwnership(TestDevices.device(NODE));
        assertFalse(support.unsupported(NODE), "the next connection's probe decides again");
        assertEquals(Set.of(), ownership.ownedNodes());

        // Back, now with Oko (the switch was upgraded): asked again and given its program.
        client.refusals.clear();
        client.sent.clear();
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " stats 0", NODE + " load 30 replace keep-maps"), client.sent);
        assertTrue(loaded.get(NODE, PROG_ID).isPresent());
    }

    @Test
    void aSwitchOfAnotherMemberIsSentNothingWhenItsConfigurationChanges() throws Exception {
        ownership.onLoseOwnership(TestDevices.device(NODE));
        ownership.configurationChanged(Set.of(NODE));
        Thread.sleep(300);
        assertEquals(List.of(), client.sent);
    }

    @Test
    void closingForgetsEverySwitch() throws Exception {
        ownership.startReconciliation(TestDevices.device(NODE)).get(10, TimeUnit.SECONDS);
        ownership.close();
        assertEquals(Set.of(), ownership.ownedNodes());
        assertFalse(ownership.isOwned(NODE));
    }

    private static void waitFor(final BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what);
            }
            Thread.sleep(10);
        }
    }
}
