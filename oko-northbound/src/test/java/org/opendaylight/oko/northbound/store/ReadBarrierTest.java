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
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.SettableFuture;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.ContainerNode;

/** Which commit a read of the configuration waits for, in a cluster (the commits' answers held by the test). */
class ReadBarrierTest {
    private static final YangInstanceIdentifier ROOT = YangInstanceIdentifier.of(QName.create("urn:test", "root"));

    /** A broker whose commits the test answers; it records what each commit wrote. */
    private static final class HeldCommits {
        final List<SettableFuture<CommitInfo>> commits = new CopyOnWriteArrayList<>();
        final List<String> writes = new CopyOnWriteArrayList<>();
        final DOMDataBroker broker = (DOMDataBroker) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] { DOMDataBroker.class }, (proxy, method, args) -> {
                if (!method.getName().equals("newWriteOnlyTransaction")) {
                    throw new UnsupportedOperationException(method.getName());
                }
                return transaction();
            });

        private DOMDataTreeWriteTransaction transaction() {
            return (DOMDataTreeWriteTransaction) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { DOMDataTreeWriteTransaction.class },
                (proxy, method, args) -> switch (method.getName()) {
                    case "merge" -> {
                        final var data = (ContainerNode) args[2];
                        writes.add(method.getName() + " " + args[0] + " " + args[1] + " children "
                            + data.body().size());
                        yield null;
                    }
                    case "commit" -> {
                        final SettableFuture<CommitInfo> answer = SettableFuture.create();
                        commits.add(answer);
                        yield FluentFuture.from(answer);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        }
    }

    private static CompletableFuture<String> read(final ReadBarrier barrier) {
        final var done = new CompletableFuture<String>();
        final Thread thread = new Thread(() -> done.complete(String.valueOf(barrier.pass())));
        thread.start();
        return done;
    }

    private static void waitFor(final java.util.function.BooleanSupplier condition) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out");
            Thread.sleep(5);
        }
    }

    @Test
    void theCommitMergesAnEmptyContainerAtEachStoredRoot() throws Exception {
        final var held = new HeldCommits();
        final var second = YangInstanceIdentifier.of(QName.create("urn:test", "other"));
        final var read = read(new ReadBarrier(held.broker, List.of(ROOT, second)));
        // One transaction a subtree (a transaction over two shards would be a three-phase commit).
        waitFor(() -> held.commits.size() == 2);
        assertEquals(List.of("merge " + LogicalDatastoreType.CONFIGURATION + " " + ROOT + " children 0",
            "merge " + LogicalDatastoreType.CONFIGURATION + " " + second + " children 0"), held.writes);
        held.commits.get(0).set(CommitInfo.empty());
        Thread.sleep(100);
        assertFalse(read.isDone(), "answered before all its commits were");
        held.commits.get(1).set(CommitInfo.empty());
        assertEquals("null", read.get(5, TimeUnit.SECONDS));
    }

    @Test
    void readsThatArriveDuringACommitWaitForTheNextOneTogether() throws Exception {
        final var held = new HeldCommits();
        final var barrier = new ReadBarrier(held.broker, List.of(ROOT));
        final var first = read(barrier);
        waitFor(() -> held.commits.size() == 1);
        // Two reads arrive while the first commit is under way: that commit may have been answered by a leader
        // before they were sent, so it does not confirm them.
        final var second = read(barrier);
        final var third = read(barrier);
        Thread.sleep(100);
        held.commits.get(0).set(CommitInfo.empty());
        assertEquals("null", first.get(5, TimeUnit.SECONDS));
        waitFor(() -> held.commits.size() == 2);
        Thread.sleep(100);
        assertFalse(second.isDone() || third.isDone(), "confirmed by a commit that started before they came");
        held.commits.get(1).set(CommitInfo.empty());
        assertEquals("null", second.get(5, TimeUnit.SECONDS));
        assertEquals("null", third.get(5, TimeUnit.SECONDS));
        assertEquals(2, held.commits.size(), "one commit for the reads that came together");
        // With nothing under way, the next read starts its own.
        final var fourth = read(barrier);
        waitFor(() -> held.commits.size() == 3);
        held.commits.get(2).set(CommitInfo.empty());
        assertEquals("null", fourth.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aCommitThatFailsRefusesItsReadsWithTheReasonAndTheNextReadTriesAgain() throws Exception {
        final var held = new HeldCommits();
        final var barrier = new ReadBarrier(held.broker, List.of(ROOT));
        final var refused = read(barrier);
        waitFor(() -> held.commits.size() == 1);
        held.commits.get(0).setException(new IllegalStateException("no leader for shard default"));
        final String why = refused.get(5, TimeUnit.SECONDS);
        assertNotNull(why);
        assertTrue(why.contains("did not confirm") && why.contains("no leader for shard default"), why);
        final var again = read(barrier);
        waitFor(() -> held.commits.size() == 2);
        held.commits.get(1).set(CommitInfo.empty());
        assertEquals("null", again.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aReadWithoutAnswerIsRefusedAfterTheTimeout() throws Exception {
        final var held = new HeldCommits();
        final long started = System.nanoTime();
        final String why = new ReadBarrier(held.broker, List.of(ROOT)).pass();
        assertNotNull(why);
        assertTrue(why.contains("within 8 s"), why);
        assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(ReadBarrier.TIMEOUT_MILLIS));
    }

    @Test
    void aCommitWithoutAnswerForASecondDoesNotHoldTheRequestsAfterIt() throws Exception {
        final var held = new HeldCommits();
        final var barrier = new ReadBarrier(held.broker, List.of(ROOT));
        final var stuck = read(barrier);                    // its shard has no leader
        waitFor(() -> held.commits.size() == 1);
        Thread.sleep(ReadBarrier.STALE_MILLIS + 200);
        final var later = read(barrier);
        waitFor(() -> held.commits.size() == 2);
        held.commits.get(1).set(CommitInfo.empty());
        assertEquals("null", later.get(5, TimeUnit.SECONDS));
        assertFalse(stuck.isDone());
        held.commits.get(0).set(CommitInfo.empty());
        assertEquals("null", stuck.get(5, TimeUnit.SECONDS));
    }

    @Test
    void beyondTheCapOfWaitingRequestsMoreAreRefusedAtOnce() throws Exception {
        final var held = new HeldCommits();
        final var barrier = new ReadBarrier(held.broker, List.of(ROOT));
        final List<CompletableFuture<String>> waiting = new java.util.ArrayList<>();
        for (int i = 0; i < ReadBarrier.MAX_WAITING; i++) {
            waiting.add(read(barrier));
        }
        waitFor(() -> held.commits.size() == 1);
        Thread.sleep(200);
        final long started = System.nanoTime();
        final String why = barrier.pass();
        assertNotNull(why);
        assertTrue(why.contains("requests wait"), why);
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(1), "not refused at once");
        held.commits.get(0).set(CommitInfo.empty());
        waitFor(() -> held.commits.size() == 2);
        held.commits.get(1).set(CommitInfo.empty());
        for (var request : waiting) {
            assertEquals("null", request.get(5, TimeUnit.SECONDS));
        }
    }
}
