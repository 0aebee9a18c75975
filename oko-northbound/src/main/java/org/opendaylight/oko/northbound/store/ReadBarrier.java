/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.opendaylight.mdsal.common.api.LogicalDatastoreType.CONFIGURATION;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.yangtools.util.concurrent.FluentFutures;
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
 * predecessors' entries). The read that follows sees the configuration at a moment inside its own window. Reads
 * that arrive while a commit is under way wait for the next one (which starts after they arrived), so a burst of
 * reads costs two commits, not one each.
 *
 * <p>A read that cannot be confirmed within {@link #TIMEOUT_MILLIS} (no leader: a majority is down) is refused with
 * the reason rather than answered with what may be old.
 */
final class ReadBarrier {
    private static final Logger LOG = LoggerFactory.getLogger(ReadBarrier.class);
    /** How long a read waits for its commit (an election takes about 3 s with `make up`'s settings). */
    static final long TIMEOUT_MILLIS = 8_000;

    private final DOMDataBroker broker;
    private final List<YangInstanceIdentifier> roots;
    private final Object lock = new Object();
    /** What the reads of the commit under way wait for; null when none is. */
    private CompletableFuture<@Nullable String> running;
    /** What the reads that arrived while {@link #running} was under way wait for: the commit after it. */
    private CompletableFuture<@Nullable String> next;

    ReadBarrier(final DOMDataBroker broker, final List<YangInstanceIdentifier> roots) {
        this.broker = broker;
        this.roots = List.copyOf(roots);
    }

    /**
     * Waits until a commit that started after this call has gone through every stored subtree's shard; returns null
     * then, or why it could not (the read should then be refused).
     */
    @Nullable String pass() {
        final CompletableFuture<@Nullable String> barrier;
        final boolean first;
        synchronized (lock) {
            first = running == null;
            if (first) {
                running = new CompletableFuture<>();
                barrier = running;
            } else {
                if (next == null) {
                    next = new CompletableFuture<>();
                }
                barrier = next;
            }
        }
        if (first) {
            launch(barrier);
        }
        try {
            return barrier.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return "no shard leader confirmed the configuration within " + TIMEOUT_MILLIS / 1000 + " s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (ExecutionException e) {
            return String.valueOf(e.getCause());
        }
    }

    /**
     * Commits a change of nothing in every stored subtree; {@code barrier} completes when it is answered (or when
     * the broker refused to start it: a closed broker at shutdown).
     */
    @SuppressWarnings("checkstyle:IllegalCatch")
    private void launch(final CompletableFuture<@Nullable String> barrier) {
        FluentFuture<? extends CommitInfo> commit;
        try {
            final var tx = broker.newWriteOnlyTransaction();
            for (YangInstanceIdentifier root : roots) {
                tx.merge(CONFIGURATION, root, ImmutableNodes.newContainerBuilder()
                    .withNodeIdentifier(NodeIdentifier.create(root.getLastPathArgument().getNodeType())).build());
            }
            commit = tx.commit();
        } catch (RuntimeException e) {
            commit = FluentFutures.immediateFailedFluentFuture(e);
        }
        commit.addCallback(new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                answered(barrier, null);
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("A read of the configuration could not be confirmed by the shards' leaders", cause);
                answered(barrier, "the shards' leaders did not confirm the configuration: " + cause);
            }
        }, MoreExecutors.directExecutor());
    }

    /** The commit of {@code barrier} was answered: its reads go on, and the reads that came meanwhile get theirs. */
    private void answered(final CompletableFuture<@Nullable String> barrier, final @Nullable String why) {
        final CompletableFuture<@Nullable String> following;
        synchronized (lock) {
            following = next;
            next = null;
            running = following;
        }
        barrier.complete(why);
        if (following != null) {
            launch(following);
        }
    }
}
