/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.opendaylight.mdsal.common.api.LogicalDatastoreType.CONFIGURATION;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a read of the configuration see every write acknowledged before the read was sent, in a cluster.
 *
 * <p>Why: OpenDaylight 11.0.2's shard leader answers reads from its own data tree without confirming with a majority
 * that it still leads (no read index, no lease), and a read through the member that leads is not even sent to the
 * shard: RESTCONF reads the member's local tree. A member paused longer than an election (a SIGSTOP, a long garbage
 * collection) that led a shard answers, once it runs again and before it learns that another member was elected,
 * the configuration as it was when it stopped, older than writes the others acknowledged meanwhile (seen by
 * it/tools/chaos: a read of a value replaced 5 s earlier).
 *
 * <p>How: before such a read, a commit that changes nothing goes through each stored subtree's shard: a merge of an
 * empty container at the subtree's root. The shard's leader replicates every commit that reaches it through Raft,
 * changed data or not (controller's {@code ShardDataTree.startCommit}), and answers only once a majority holds it;
 * cohorts and listeners are not called for an unmodified tree. A commit of a deposed leader cannot reach a majority:
 * it steps down and the client's frontend sends the commit to the new leader. Once the commit is answered, every
 * write acknowledged before the read was sent is in the log before it, and the shard this member's frontend reads
 * from has applied it (the leader that answered, or a later one, which serves nothing before applying its
 * predecessors' entries). The read that follows sees the configuration at a moment inside its own window. Requests
 * that arrive while a commit is under way wait for the next one (which starts after they arrived), so a burst of
 * them costs two commits, not one each. Each stored subtree gets a transaction of its own: a transaction over two
 * shards would be a three-phase commit, whose first phase holds one shard's queue while the other has no leader.
 *
 * <p>A request that cannot be confirmed within {@link #TIMEOUT_MILLIS} (no leader: a majority is down) is refused
 * with the reason rather than answered with what may be old; so is one that finds {@link #MAX_WAITING} others
 * waiting already (the gate runs before authentication: nobody holds the server's threads with requests that wait
 * for a cluster without a majority). A commit under way for longer than {@link #STALE_MILLIS} (its shard has no
 * leader) does not hold the requests that arrive later: they get a commit of their own.
 */
final class ReadBarrier {
    private static final Logger LOG = LoggerFactory.getLogger(ReadBarrier.class);
    /** How long a request waits for its commit (an election takes about 3 s with `make up`'s settings). */
    static final long TIMEOUT_MILLIS = 8_000;
    /** A commit under way for longer than this does not hold later requests (its shard has no leader). */
    static final long STALE_MILLIS = 1_000;
    /** Requests waiting at once beyond which more are refused at once. */
    static final int MAX_WAITING = 64;

    private final DOMDataBroker broker;
    private final List<YangInstanceIdentifier> roots;
    private final Object lock = new Object();
    /** The latest commit launched and not answered yet, and when it was launched; null when none is. */
    private CompletableFuture<@Nullable String> running;
    private long runningSince;
    /** What the requests that arrived while {@link #running} was under way wait for: the commit after it. */
    private CompletableFuture<@Nullable String> next;
    private int waiting;

    ReadBarrier(final DOMDataBroker broker, final List<YangInstanceIdentifier> roots) {
        this.broker = broker;
        this.roots = List.copyOf(roots);
    }

    /**
     * Waits until a commit that started after this call has gone through every stored subtree's shard; returns null
     * then, or why it could not (the request should then be refused).
     */
    @Nullable String pass() {
        final CompletableFuture<@Nullable String> barrier;
        CompletableFuture<@Nullable String> launch = null;
        synchronized (lock) {
            if (waiting >= MAX_WAITING) {
                return MAX_WAITING + " requests wait for the shards' leaders already";
            }
            waiting++;
            final long now = System.nanoTime();
            if (running == null || now - runningSince > TimeUnit.MILLISECONDS.toNanos(STALE_MILLIS)) {
                launch = new CompletableFuture<>();
                running = launch;
                runningSince = now;
                if (next != null) {
                    // They came after the stale commit was launched: this one, launched now, confirms them.
                    final var joined = next;
                    launch.whenComplete((why, failure) -> joined.complete(why));
                    next = null;
                }
                barrier = launch;
            } else {
                if (next == null) {
                    next = new CompletableFuture<>();
                }
                barrier = next;
            }
        }
        try {
            if (launch != null) {
                launch(launch);
            }
            return barrier.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return "no shard leader confirmed the configuration within " + TIMEOUT_MILLIS / 1000 + " s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (ExecutionException e) {
            return String.valueOf(e.getCause());
        } finally {
            synchronized (lock) {
                waiting--;
            }
        }
    }

    /**
     * Commits a change of nothing in each stored subtree, one transaction each (each in one shard); {@code barrier}
     * completes when every one is answered (or when the broker refused to start one: a closed broker at shutdown).
     */
    @SuppressWarnings("checkstyle:IllegalCatch")
    private void launch(final CompletableFuture<@Nullable String> barrier) {
        final List<ListenableFuture<? extends CommitInfo>> commits = new ArrayList<>();
        for (YangInstanceIdentifier root : roots) {
            try {
                final var tx = broker.newWriteOnlyTransaction();
                tx.merge(CONFIGURATION, root, ImmutableNodes.newContainerBuilder()
                    .withNodeIdentifier(NodeIdentifier.create(root.getLastPathArgument().getNodeType())).build());
                commits.add(tx.commit());
            } catch (RuntimeException e) {
                commits.add(Futures.immediateFailedFuture(e));
            }
        }
        Futures.addCallback(Futures.allAsList(commits), new FutureCallback<List<CommitInfo>>() {
            @Override
            public void onSuccess(final List<CommitInfo> result) {
                answered(barrier, null);
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("A request for the configuration could not be confirmed by the shards' leaders", cause);
                answered(barrier, "the shards' leaders did not confirm the configuration: " + cause);
            }
        }, MoreExecutors.directExecutor());
    }

    /**
     * The commits of {@code barrier} were answered: its requests go on, and if it is the latest, the requests that
     * came meanwhile get theirs.
     */
    private void answered(final CompletableFuture<@Nullable String> barrier, final @Nullable String why) {
        CompletableFuture<@Nullable String> launch = null;
        synchronized (lock) {
            if (running == barrier) {
                running = null;
                if (next != null) {
                    launch = next;
                    next = null;
                    running = launch;
                    runningSince = System.nanoTime();
                }
            }
        }
        barrier.complete(why);
        if (launch != null) {
            launch(launch);
        }
    }
}
