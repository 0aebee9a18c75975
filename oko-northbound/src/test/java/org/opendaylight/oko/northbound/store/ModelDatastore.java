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
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.common.api.OptimisticLockFailedException;
import org.opendaylight.mdsal.common.api.PostCanCommitStep;
import org.opendaylight.mdsal.common.api.PostPreCommitStep;
import org.opendaylight.mdsal.common.api.TransactionCommitFailedException;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCandidate;
import org.opendaylight.mdsal.dom.api.DOMDataTreeChangeListener;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCommitCohort;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.mdsal.dom.api.DOMDataTreeReadTransaction;
import org.opendaylight.mdsal.dom.api.DOMDataTreeReadWriteTransaction;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.mdsal.dom.api.DOMTransactionChain;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.util.concurrent.FluentFutures;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTree;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidateNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidateTip;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeConfiguration;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeModification;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeSnapshot;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeTip;
import org.opendaylight.yangtools.yang.data.tree.api.ModificationType;
import org.opendaylight.yangtools.yang.data.tree.impl.di.InMemoryDataTreeFactory;
import org.opendaylight.yangtools.yang.data.tree.spi.DataTreeCandidates;
import org.opendaylight.yangtools.yang.model.api.EffectiveModelContext;

/**
 * A model of OpenDaylight 11.0.2's distributed datastore as Oko's configuration store meets it, for unit tests:
 * yangtools' own data trees (the shard's), one per datastore, shared by the members of a cluster, and per member a
 * {@link DOMDataBroker}. What the model keeps of the real one (controller's {@code ShardDataTree} and
 * {@code CommitCohort}, read at v11.0.2):
 * <ul>
 *   <li>only the cohorts of the member that leads the shard are asked about a commit;</li>
 *   <li>a commit runs every cohort's can-commit and pre-commit on the tip of the data tree (after the commits
 *       still in flight), and commits in the same order: its cohorts' commit steps run after the data tree has
 *       applied it and before the client is answered; the listeners are told after the answer, each member's in
 *       commit order, and a test may hold a member's notifications back (a listener that lags);</li>
 *   <li>a pre-commit that fails fails the commit, and no cohort that already pre-committed is aborted
 *       (controller 11.0.2 aborts none);</li>
 *   <li>{@link #commitPipelined} pre-commits several transactions before it commits the first, as the shard does
 *       with transactions that arrive together.</li>
 * </ul>
 * The operational datastore has no cohorts and no listeners here.
 */
final class ModelDatastore {
    private final EffectiveModelContext schema;
    private final Map<LogicalDatastoreType, DataTree> trees = new EnumMap<>(LogicalDatastoreType.class);
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final AtomicLong transactionIds = new AtomicLong();
    private String leader;
    /** The shard's Raft term: one more at every change of leader. */
    private long term = 1;

    /** A store started as the component's own thread starts it, here in the caller's. */
    static ConfigurationStore started(final ConfigurationStore store) {
        store.start();
        return store;
    }

    ModelDatastore(final EffectiveModelContext schema) {
        this.schema = schema;
        trees.put(CONFIGURATION, new InMemoryDataTreeFactory().create(DataTreeConfiguration.DEFAULT_CONFIGURATION,
            schema));
        trees.put(LogicalDatastoreType.OPERATIONAL, new InMemoryDataTreeFactory().create(
            DataTreeConfiguration.DEFAULT_OPERATIONAL, schema));
    }

    /** The broker of member {@code name}; the first member asked for leads the shard. */
    synchronized Member member(final String name) {
        if (leader == null) {
            leader = name;
        }
        return members.computeIfAbsent(name, Member::new);
    }

    /** Makes {@code name} the shard's leader: its cohorts are asked from now on. */
    synchronized void lead(final String name) {
        if (!name.equals(leader)) {
            term++;
        }
        leader = member(name).name;
    }

    /**
     * The shards as member {@code name} sees them (one shard holds every root here), in a cluster of
     * {@code cluster}.
     */
    ClusterStart.Shards shards(final String name, final List<String> cluster) {
        // This process of the member: a store of an earlier, killed one sees itself lead nothing.
        final Member self = member(name);
        return new ClusterStart.Shards() {
            @Override
            public long term(final YangInstanceIdentifier root) {
                synchronized (ModelDatastore.this) {
                    return term;
                }
            }

            @Override
            public OptionalLong leadingTerm(final YangInstanceIdentifier root) {
                synchronized (ModelDatastore.this) {
                    return !self.dead && name.equals(leader) ? OptionalLong.of(term) : OptionalLong.empty();
                }
            }

            @Override
            public List<String> members() {
                return cluster;
            }

            @Override
            public void lead(final YangInstanceIdentifier root) {
                ModelDatastore.this.lead(name);
            }
        };
    }

    /**
     * Audit finding 3: the leading member's cohorts pre-commit {@code transaction}, and its process is killed
     * before the commit step; {@code next} is elected (a new term), commits the replicated entry together with its
     * own first one and applies it, asking no cohort (its own are asked of new transactions only), and answers the
     * client's replay of the transaction with success.
     */
    synchronized FluentFuture<? extends CommitInfo> commitReplayedByNextLeader(
            final DOMDataTreeWriteTransaction transaction, final String next) {
        final Prepared prepared = prepare((Tx) transaction, trees.get(CONFIGURATION));
        if (prepared.failure != null) {
            return FluentFutures.immediateFailedFluentFuture(prepared.failure);
        }
        members.get(leader).kill();
        lead(next);
        if (prepared.candidate != null) {
            trees.get(CONFIGURATION).commit(prepared.candidate);
            for (Member member : members.values()) {
                member.publish(prepared.candidate);
            }
        }
        return FluentFutures.immediateFluentFuture(CommitInfo.empty());
    }

    /** A new process of a member that was killed: a new broker under the same name. */
    synchronized Member restart(final String name) {
        final Member old = members.remove(name);
        if (old != null) {
            old.kill();
        }
        return member(name);
    }

    /** What the configuration datastore holds at {@code path}. */
    Optional<NormalizedNode> read(final YangInstanceIdentifier path) {
        return trees.get(CONFIGURATION).takeSnapshot().readNode(path);
    }

    /**
     * Commits the transactions the way the shard handles a batch: every one's cohorts pre-commit (each on the
     * tip the earlier ones left) before the first one's commit step. Returns each one's answer.
     */
    synchronized List<FluentFuture<? extends CommitInfo>> commitPipelined(
            final List<DOMDataTreeWriteTransaction> transactions) {
        final List<Prepared> prepared = new ArrayList<>();
        final List<FluentFuture<? extends CommitInfo>> answers = new ArrayList<>();
        DataTreeTip tip = trees.get(CONFIGURATION);
        for (DOMDataTreeWriteTransaction transaction : transactions) {
            final Prepared one = prepare((Tx) transaction, tip);
            prepared.add(one);
            if (one.candidate != null) {
                tip = one.candidate;
            }
        }
        for (Prepared one : prepared) {
            answers.add(one.failure != null ? FluentFutures.immediateFailedFluentFuture(one.failure) : finish(one));
        }
        return answers;
    }

    private record Prepared(Tx tx, DataTreeCandidateTip candidate, List<PostPreCommitStep> steps,
            TransactionCommitFailedException failure) {
        static Prepared failed(final Tx tx, final String message, final Throwable cause) {
            return new Prepared(tx, null, List.of(), new TransactionCommitFailedException(message, cause));
        }
    }

    private Prepared prepare(final Tx tx, final DataTreeTip tip) {
        if (tx.owner.dead) {
            return Prepared.failed(tx, tx.owner.name + " was killed", new IllegalStateException("killed"));
        }
        final DataTreeModification modification = tx.modifications.get(CONFIGURATION);
        if (modification == null) {
            return new Prepared(tx, null, List.of(), null);
        }
        if (tx.owner.failing) {
            return Prepared.failed(tx, tx.owner.name + " is stopping", new IllegalStateException("stopping"));
        }
        if (tx.owner.transientFailures > 0) {
            tx.owner.transientFailures--;
            return Prepared.failed(tx, "Store tree and candidate base differ",
                new IllegalStateException("Store tree and candidate base differ"));
        }
        modification.ready();
        final DataTreeCandidateTip candidate;
        try {
            tip.validate(modification);
            candidate = tip.prepare(modification);
        } catch (org.opendaylight.yangtools.yang.data.tree.api.ConflictingModificationAppliedException e) {
            return new Prepared(tx, null, List.of(), new OptimisticLockFailedException(
                "Optimistic lock failed for path " + e.getPath(), e));
        } catch (org.opendaylight.yangtools.yang.data.tree.api.DataValidationFailedException e) {
            return Prepared.failed(tx, "Data did not pass validation for path " + e.getPath(), e);
        }
        final List<PostCanCommitStep> canCommitted = new ArrayList<>();
        final Member leading = members.get(leader);
        for (Member.CohortRegistration registration : leading == null ? List.<Member.CohortRegistration>of()
                : List.copyOf(leading.cohorts)) {
            final DataTreeCandidateNode node = find(candidate.getRootNode(), registration.path);
            if (node == null || node.modificationType() == ModificationType.UNMODIFIED) {
                continue;
            }
            try {
                canCommitted.add(registration.cohort.canCommit(tx.id, schema,
                    List.of(new Candidate(DOMDataTreeIdentifier.of(CONFIGURATION, registration.path), node))).get());
            } catch (ExecutionException e) {
                return Prepared.failed(tx, e.getCause().getMessage(), e.getCause());
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        final List<PostPreCommitStep> preCommitted = new ArrayList<>();
        for (PostCanCommitStep step : canCommitted) {
            try {
                preCommitted.add(step.preCommit().get());
            } catch (ExecutionException e) {
                // Controller 11.0.2: no cohort that pre-committed already is aborted.
                return Prepared.failed(tx, e.getCause().getMessage(), e.getCause());
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        return new Prepared(tx, candidate, preCommitted, null);
    }

    private FluentFuture<? extends CommitInfo> finish(final Prepared prepared) {
        final Map<LogicalDatastoreType, DataTreeModification> modifications = prepared.tx.modifications;
        final DataTreeModification operational = modifications.get(LogicalDatastoreType.OPERATIONAL);
        if (operational != null) {
            operational.ready();
            final DataTree tree = trees.get(LogicalDatastoreType.OPERATIONAL);
            try {
                tree.validate(operational);
                tree.commit(tree.prepare(operational));
            } catch (org.opendaylight.yangtools.yang.data.tree.api.DataValidationFailedException e) {
                return FluentFutures.immediateFailedFluentFuture(new OptimisticLockFailedException(
                    "Optimistic lock failed for path " + e.getPath(), e));
            }
        }
        if (prepared.candidate == null) {
            return FluentFutures.immediateFluentFuture(CommitInfo.empty());
        }
        trees.get(CONFIGURATION).commit(prepared.candidate);
        for (PostPreCommitStep step : prepared.steps) {
            try {
                step.commit().get();
            } catch (ExecutionException e) {
                // Controller 11.0.2 logs a cohort's failed commit step and answers the client with success.
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        for (Member member : members.values()) {
            member.publish(prepared.candidate);
        }
        return FluentFutures.immediateFluentFuture(CommitInfo.empty());
    }

    private static DataTreeCandidateNode find(final DataTreeCandidateNode root, final YangInstanceIdentifier path) {
        DataTreeCandidateNode node = root;
        for (var arg : path.getPathArguments()) {
            node = node == null ? null : node.modifiedChild(arg);
        }
        return node;
    }

    private record Candidate(DOMDataTreeIdentifier getRootPath, DataTreeCandidateNode getRootNode)
            implements DOMDataTreeCandidate {
    }

    /** One member's broker: its cohorts, its listeners and their notifications. */
    final class Member implements DOMDataBroker, DOMDataBroker.CommitCohortExtension,
            DOMDataBroker.DataTreeChangeExtension {
        private record CohortRegistration(YangInstanceIdentifier path, DOMDataTreeCommitCohort cohort) {
        }

        private record ListenerRegistration(YangInstanceIdentifier path, DOMDataTreeChangeListener listener) {
        }

        private final String name;
        private final List<CohortRegistration> cohorts = new ArrayList<>();
        /** Closed from any thread (a store swapping listeners while it is told): copied on write. */
        private final List<ListenerRegistration> listeners = new CopyOnWriteArrayList<>();
        /** Queued in commit order (under the model's lock), told one at a time: one actor a listener, as ODL's. */
        private final Deque<Runnable> notifications = new ConcurrentLinkedDeque<>();
        private final Object telling = new Object();
        private volatile boolean holding;

        /** Set when the member's process is gone: its transactions fail. */
        private boolean dead;
        /** Set when the member's configuration writes are to fail (a process about to die). */
        private boolean failing;
        /** How many of the member's next configuration writes fail as the datastore's own error (then succeed). */
        private int transientFailures;

        Member(final String name) {
            this.name = name;
        }

        String name() {
            return name;
        }

        /** Makes this member's writes to the configuration datastore fail from now on. */
        void failConfigurationCommits() {
            synchronized (ModelDatastore.this) {
                failing = true;
            }
        }

        /**
         * Makes this member's next {@code count} configuration writes fail in can-commit with the datastore's own
         * error (seen at a whole-cluster start: "Store tree ... and candidate base ... differ"), not a refusal.
         */
        void failNextConfigurationCommits(final int count) {
            synchronized (ModelDatastore.this) {
                transientFailures = count;
            }
        }

        /** Holds this member's notifications back until {@link #deliver} (a listener that lags). */
        void hold() {
            holding = true;
        }

        /** Delivers up to {@code count} of the held notifications, oldest first. */
        void deliver(final int count) {
            synchronized (telling) {
                for (int i = 0; i < count; i++) {
                    final Runnable next = notifications.pollFirst();
                    if (next == null) {
                        return;
                    }
                    next.run();
                }
            }
        }

        /** Delivers every held notification and stops holding them. */
        void deliverAll() {
            holding = false;
            deliver(Integer.MAX_VALUE);
        }

        /**
         * Forgets this member's registrations and notifications: the process was killed. Its broker refuses
         * everything from now on; the member's next process takes a new broker ({@link ModelDatastore#restart}).
         */
        void kill() {
            synchronized (ModelDatastore.this) {
                cohorts.clear();
                listeners.clear();
                notifications.clear();
                dead = true;
            }
        }

        private void publish(final DataTreeCandidateTip candidate) {
            for (ListenerRegistration registration : List.copyOf(listeners)) {
                final DataTreeCandidateNode node = find(candidate.getRootNode(), registration.path);
                if (node == null || node.modificationType() == ModificationType.UNMODIFIED) {
                    continue;
                }
                final var change = DataTreeCandidates.newDataTreeCandidate(registration.path, node);
                notifications.addLast(() -> {
                    if (listeners.contains(registration)) {
                        registration.listener.onDataTreeChanged(List.of(change));
                    }
                });
            }
            if (!holding) {
                deliver(Integer.MAX_VALUE);
            }
        }

        @Override
        public Registration registerCommitCohort(final DOMDataTreeIdentifier path,
                final DOMDataTreeCommitCohort cohort) {
            final var registration = new CohortRegistration(path.path(), cohort);
            cohorts.add(registration);
            return () -> cohorts.remove(registration);
        }

        /**
         * As the shard does: the listener's first notification is what the datastore holds at the path when the
         * registration is made (a write of all of it), or {@code onInitialData()} when it holds nothing; later
         * ones are the commits after it. Queued behind this member's held notifications, as they are in order.
         */
        @Override
        public Registration registerTreeChangeListener(final DOMDataTreeIdentifier path,
                final DOMDataTreeChangeListener listener) {
            final var registration = new ListenerRegistration(path.path(), listener);
            synchronized (ModelDatastore.this) {
                if (dead) {
                    return () -> { };
                }
                listeners.add(registration);
                final Optional<NormalizedNode> now = read(path.path());
                notifications.addLast(() -> {
                    if (listeners.contains(registration)) {
                        if (now.isPresent()) {
                            registration.listener.onDataTreeChanged(List.of(
                                DataTreeCandidates.fromNormalizedNode(path.path(), now.orElseThrow())));
                        } else {
                            registration.listener.onInitialData();
                        }
                    }
                });
            }
            if (!holding) {
                deliver(Integer.MAX_VALUE);
            }
            return () -> listeners.remove(registration);
        }

        @Override
        public Registration registerLegacyTreeChangeListener(final DOMDataTreeIdentifier path,
                final DOMDataTreeChangeListener listener) {
            return registerTreeChangeListener(path, listener);
        }

        @Override
        public <T extends Extension> T extension(final Class<T> type) {
            return type.isInstance(this) ? type.cast(this) : null;
        }

        @Override
        public DOMDataTreeReadTransaction newReadOnlyTransaction() {
            return new Tx(this);
        }

        @Override
        public DOMDataTreeWriteTransaction newWriteOnlyTransaction() {
            return new Tx(this);
        }

        @Override
        public DOMDataTreeReadWriteTransaction newReadWriteTransaction() {
            return new Tx(this);
        }

        @Override
        public DOMTransactionChain createTransactionChain() {
            throw new UnsupportedOperationException("not modelled");
        }

        @Override
        public DOMTransactionChain createMergingTransactionChain() {
            throw new UnsupportedOperationException("not modelled");
        }
    }

    /** A transaction on the snapshots taken when it was opened. */
    final class Tx implements DOMDataTreeReadWriteTransaction, DOMDataTreeReadTransaction {
        private final Object id = "tx-" + transactionIds.incrementAndGet();
        private final Map<LogicalDatastoreType, DataTreeSnapshot> snapshots = new EnumMap<>(
            LogicalDatastoreType.class);
        private final Map<LogicalDatastoreType, DataTreeModification> modifications = new EnumMap<>(
            LogicalDatastoreType.class);
        private final Member owner;

        Tx(final Member owner) {
            this.owner = owner;
            trees.forEach((type, tree) -> snapshots.put(type, tree.takeSnapshot()));
        }

        private DataTreeModification modification(final LogicalDatastoreType type) {
            return modifications.computeIfAbsent(type, key -> snapshots.get(key).newModification());
        }

        @Override
        public Object getIdentifier() {
            return id;
        }

        @Override
        public FluentFuture<Optional<NormalizedNode>> read(final LogicalDatastoreType store,
                final YangInstanceIdentifier path) {
            final DataTreeModification modification = modifications.get(store);
            return FluentFutures.immediateFluentFuture(modification != null ? modification.readNode(path)
                : snapshots.get(store).readNode(path));
        }

        @Override
        public FluentFuture<Boolean> exists(final LogicalDatastoreType store, final YangInstanceIdentifier path) {
            return read(store, path).transform(Optional::isPresent, Runnable::run);
        }

        @Override
        public void put(final LogicalDatastoreType store, final YangInstanceIdentifier path,
                final NormalizedNode data) {
            modification(store).write(path, data);
        }

        @Override
        public void merge(final LogicalDatastoreType store, final YangInstanceIdentifier path,
                final NormalizedNode data) {
            modification(store).merge(path, data);
        }

        @Override
        public void delete(final LogicalDatastoreType store, final YangInstanceIdentifier path) {
            modification(store).delete(path);
        }

        @Override
        public FluentFuture<?> completionFuture() {
            return FluentFutures.immediateNullFluentFuture();
        }

        @Override
        public FluentFuture<? extends CommitInfo> commit() {
            return commitPipelined(List.of(this)).get(0);
        }

        @Override
        public boolean cancel() {
            return true;
        }

        @Override
        public void close() {
            // nothing held
        }
    }
}
