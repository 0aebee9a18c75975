/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The repair of openflowplugin's role timer race: a switch set to slave on the member that runs its cluster
 * singleton has its connection to that member closed, and nothing else does.
 */
class MastershipRepairTest {
    private static final String NODE = "openflow:1";
    private static final long GRACE_MILLIS = 50;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService work = Executors.newSingleThreadExecutor();
    /** The switches whose singleton runs on this member. */
    private final Set<String> singletonsHere = ConcurrentHashMap.newKeySet();
    /** The switches Oko was told this member masters. */
    private final Set<String> mastered = ConcurrentHashMap.newKeySet();
    private final List<String> closed = new CopyOnWriteArrayList<>();
    private final AtomicInteger ownershipQueries = new AtomicInteger();
    /** openflowplugin's services for the switch on this connection: started (or starting), all running. */
    private final AtomicBoolean started = new AtomicBoolean(true);
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean connected = new AtomicBoolean(true);
    private final AtomicBoolean closable = new AtomicBoolean(true);

    /** The entity ownership service answers (else: times out, empty). */
    private final AtomicBoolean ownershipAnswers = new AtomicBoolean(true);

    private final MastershipRepair repair = new MastershipRepair("member-1", node -> {
        ownershipQueries.incrementAndGet();
        return ownershipAnswers.get() ? Optional.of(singletonsHere.contains(node)) : Optional.empty();
    }, device -> {
        if (!connected.get()) {
            return null;
        }
        return new MastershipRepair.Connection() {
            @Override
            public boolean servicesStarted() {
                return started.get();
            }

            @Override
            public boolean servicesRunning() {
                return running.get();
            }

            @Override
            public boolean close(final String reason) {
                closed.add(device.getNodeId().getValue() + ": " + reason);
                return closable.get();
            }
        };
    }, timer, work, GRACE_MILLIS);

    @AfterEach
    void tearDown() {
        timer.shutdownNow();
        work.shutdownNow();
    }

    @Test
    void switchSetToSlaveWhereItsSingletonRunsIsDisconnectedHereAfterTheGracePeriod() throws Exception {
        singletonsHere.add(NODE);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        assertEquals(List.of(), closed, "not before the grace period");
        settle();
        assertEquals(1, closed.size(), closed.toString());
        assertTrue(closed.get(0).startsWith(NODE + ": Oko: this member (member-1) holds the cluster's mastership of "
            + NODE + " but openflowplugin set the switch to slave"), closed.get(0));
    }

    @Test
    void theEntityOwnershipServiceIsNotAskedOnOpenflowpluginsThread() throws Exception {
        // Under load its answer takes seconds (a thousand switches connecting at once): openflowplugin's threads,
        // which say "lost ownership", must not wait for it.
        singletonsHere.add(NODE);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        assertEquals(0, ownershipQueries.get());
        settle();
        assertEquals(1, ownershipQueries.get());
    }

    @Test
    void aSlaveOfAnotherMastersSwitchIsLeftAlone() throws Exception {
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        settle();
        assertEquals(List.of(), closed);
    }

    @Test
    void aSwitchMasteredWithinTheGracePeriodIsLeftAlone() throws Exception {
        singletonsHere.add(NODE);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        mastered.add(NODE);
        settle();
        assertEquals(List.of(), closed);
    }

    @Test
    void aSwitchWhoseSingletonMovedWithinTheGracePeriodIsLeftAlone() throws Exception {
        singletonsHere.add(NODE);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        singletonsHere.remove(NODE);
        settle();
        assertEquals(List.of(), closed);
    }

    @Test
    void aSwitchWhoseServicesStoppedWithinTheGracePeriodIsLeftAlone() throws Exception {
        // A real loss of mastership, or a disconnection, says "lost ownership" first and then stops the services.
        singletonsHere.add(NODE);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        running.set(false);
        settle();
        assertEquals(List.of(), closed);
    }

    @Test
    void aSlaveTimerBeforeTheServicesStartIsTheNormalOrder() throws Exception {
        // Under load the singleton's services start seconds after ownership: the timer fires first, and the master
        // role follows when they start. Seen in a run of a thousand switches on one controller.
        singletonsHere.add(NODE);
        started.set(false);
        running.set(false);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        started.set(true);
        running.set(true);
        settle();
        assertEquals(List.of(), closed);
    }

    @Test
    void aDisconnectedSwitchIsLeftAlone() throws Exception {
        // openflowplugin says "lost ownership" when a switch disconnects, before its singleton is released.
        singletonsHere.add(NODE);
        connected.set(false);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        settle();
        assertEquals(List.of(), closed);
    }

    @Test
    void repeatedSlaveSignalsCloseOnce() throws Exception {
        singletonsHere.add(NODE);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        settle();
        assertEquals(1, closed.size(), closed.toString());
    }

    @Test
    void aConnectionThatCannotBeClosedIsTriedOnceAndAnotherSignalTriesAgain() throws Exception {
        singletonsHere.add(NODE);
        closable.set(false);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        settle();
        assertEquals(1, closed.size(), closed.toString());
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        settle();
        assertEquals(2, closed.size(), closed.toString());
    }

    @Test
    void anOwnershipServiceThatDoesNotAnswerIsAskedAgainNotTakenForNo() throws Exception {
        singletonsHere.add(NODE);
        ownershipAnswers.set(false);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        // The first check asked and got no answer; it answers from the next try on (of OWNERSHIP_TRIES; waiting a
        // fixed time here let a loaded machine spend all the tries before the service answered).
        awaitQueries(1);
        assertEquals(List.of(), closed);
        ownershipAnswers.set(true);
        settle();
        assertEquals(1, closed.size(), "closed once the service answers: " + closed);
    }

    @Test
    void anOwnershipServiceThatNeverAnswersGivesUpAfterItsTries() throws Exception {
        singletonsHere.add(NODE);
        ownershipAnswers.set(false);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        for (int i = 0; i < MastershipRepair.OWNERSHIP_TRIES + 1; i++) {
            settle();
        }
        assertEquals(List.of(), closed);
        assertEquals(MastershipRepair.OWNERSHIP_TRIES, ownershipQueries.get());
    }

    @Test
    void aDisconnectionIsNotAskedAboutAtAll() throws Exception {
        // openflowplugin says "lost ownership" first and stops the services right after: the local check settles it.
        singletonsHere.add(NODE);
        repair.slaveSet(TestDevices.device(NODE), mastered::contains);
        running.set(false);
        settle();
        assertEquals(0, ownershipQueries.get());
        assertEquals(List.of(), closed);
    }

    /** Past the grace period, and past every check it scheduled. */
    private void awaitQueries(final int queries) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ownershipQueries.get() < queries) {
            assertTrue(System.nanoTime() < deadline, "the entity ownership service was never asked");
            Thread.sleep(1);
        }
    }

    private void settle() throws Exception {
        Thread.sleep(GRACE_MILLIS * 3);
        timer.submit(() -> { }).get(5, TimeUnit.SECONDS);
        work.submit(() -> { }).get(5, TimeUnit.SECONDS);
    }
}
