/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import com.google.common.collect.MapMaker;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.oko.northbound.store.StoredConfiguration.Change;
import org.opendaylight.oko.northbound.store.StoredConfiguration.UnitChange;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a configuration store's log says, record by record, and the order it is written in.
 *
 * <p>Records: a <b>prepare</b> (an id, the Raft term of the shard whose leader's cohort runs it, and the changes of
 * one commit to one root, forced in the commit's pre-commit step), its <b>commit</b> (forced in the commit step,
 * which the datastore runs after it has applied the change and before it answers the client), its <b>abort</b>,
 * and a <b>change</b> this member's datastore applied without this member's cohort (written by its change
 * listener: a commit another member led). A record written by an earlier version (a bare change list) is a change.
 * Only committed changes are stored: a prepare without its commit (the datastore refused the write after the
 * pre-commit, or the process stopped before the commit step) is never read back as configuration.
 *
 * <p>One writer per change: the datastore tells this member's listener about every commit, its cohort's own too.
 * A notification of a commit this member's cohort committed (the same data tree nodes, compared by identity, so
 * never confused with another commit of equal data) is not written again, also when a newer one of the cohort's
 * was notified first (the shard publishes each from a callback of its cohorts' commit steps: two made back to
 * back may be told the other way round). Any other notification is placed by where it stands ({@link Place}: the
 * root's node before and after a commit, compared by identity): it is written without the units that commits
 * recorded since it changed. Where the nodes do not decide, the cohort's commit step running before its
 * notification is sent does: a notification that arrives while commits of the cohort are still to be notified is
 * of an older commit, and is written without the units those newer commits changed. The log then never puts an
 * older value after a newer one, at any point where the process may stop.
 *
 * <p>A member's copy is complete for a root from the moment it leads the root's shard: the first commit its
 * cohort prepares in a Raft term carries the whole root as the datastore holds it before that commit (a new
 * leader has applied every entry of the earlier terms before it takes a transaction: Raft's no-op of the
 * PreLeader). Notifications of commits older than it are then not written at all. The copy's {@link Version} for
 * the root, the highest term in which it committed and the number of its commits in that term, orders the copies
 * of the members: the member that committed in the latest term holds every acknowledged change.
 *
 * <p>Thread-safe: every method holds the instance's lock.
 */
final class StoreLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreLog.class);
    private static final byte PREPARE = 'Q';
    private static final byte COMMIT = 'C';
    private static final byte ABORT = 'A';
    private static final byte CHANGE = 'L';
    private static final byte SNAPSHOT = 'S';
    /** More commits than this whose notifications never came is a datastore that does not notify: say so. */
    private static final int UNNOTIFIED_WARNING = 10_000;

    /**
     * How recent a member's copy of one root is: the cluster's life it is from (one more at every start of the
     * whole cluster, or of a single controller), the highest Raft term of that life in which its cohort committed a
     * change of the root, how many it committed in that term, and how many changes its listener wrote after the
     * last of them. Greater is newer. (Raft terms start again when every member's Raft state is lost; the life
     * keeps the order then.)
     */
    record Version(long life, long term, long commits, long followed) implements Comparable<Version> {
        static final Version NONE = new Version(0, 0, 0, 0);

        @Override
        public int compareTo(final Version other) {
            int order = Long.compare(life, other.life);
            if (order == 0) {
                order = Long.compare(term, other.term);
            }
            if (order == 0) {
                order = Long.compare(commits, other.commits);
            }
            return order != 0 ? order : Long.compare(followed, other.followed);
        }

        /** Whether a commit in {@code inTerm} of {@code inLife} is this copy's first in its term. */
        boolean isBefore(final long inLife, final long inTerm) {
            return inLife > life || inLife == life && inTerm > term;
        }

        Version committed(final long inLife, final long inTerm) {
            return isBefore(inLife, inTerm) ? new Version(inLife, inTerm, 1, 0)
                : new Version(life, term, commits + 1, 0);
        }

        Version andFollowed() {
            return new Version(life, term, commits, followed + 1);
        }

        @Override
        public String toString() {
            return "life " + life + ", term " + term + ", commit " + commits
                + (followed > 0 ? ", +" + followed + " followed" : "");
        }
    }

    /** A commit in flight: prepared, not yet committed or aborted. */
    static final class Prepared {
        private final long id;
        private final YangInstanceIdentifier root;
        private final long life;
        private final long term;
        /** The whole root before the commit, when it is this member's first commit in the term; else null. */
        private final NormalizedNode catchUp;
        private final boolean catchingUp;
        /** The commit's units as the datastore hands them out (what its notification is recognised by). */
        private final List<UnitChange> changes;
        /** What is written: the same, anchored to what the store held when it was prepared. */
        private final List<UnitChange> recorded;
        /** Where the commit stands in the datastore's order of the root, as its cohort was told. */
        private Place place = Place.UNKNOWN;
        private boolean decided;
        /** When it was prepared ({@link #clock}). */
        private long madeNanos;
        /** Given up by a leader's catch-up: never decided by the datastore in time, and covered by that. */
        private boolean superseded;

        Prepared(final long id, final YangInstanceIdentifier root, final long life, final long term,
                final boolean catchingUp, final @Nullable NormalizedNode catchUp, final List<UnitChange> changes,
                final List<UnitChange> recorded) {
            this.id = id;
            this.root = root;
            this.life = life;
            this.term = term;
            this.catchingUp = catchingUp;
            this.catchUp = catchUp;
            this.changes = List.copyOf(changes);
            this.recorded = List.copyOf(recorded);
        }

        long id() {
            return id;
        }
    }

    /**
     * A commit of this member's cohort whose notification is still to come; a catch-up (a copy of the whole root)
     * before it covers every older commit.
     */
    private record Token(List<UnitChange> changes, boolean catchUp, Place place, long madeNanos) {
    }

    /**
     * Where one commit stands in the datastore's order of one root: the root's data tree node before it and after
     * it. The data tree builds a new node for the root at every commit that changes anything under it and never
     * reuses one, so a commit whose node before is (the very object) another's node after comes right after that
     * one, whatever order their notifications are told in. Compared by identity only (a record's equals compares
     * the data, which two commits can leave equal). Null where not known: the root did not exist, or was removed.
     */
    record Place(@Nullable NormalizedNode before, @Nullable NormalizedNode after) {
        static final Place UNKNOWN = new Place(null, null);

        static Place orUnknown(final @Nullable Place place) {
            return place != null ? place : UNKNOWN;
        }
    }

    /**
     * A commit recorded lately (the cohort's, or written from a notification), by where it stands, and the commit
     * recorded that came right after it. The root's nodes are held weakly, the links between commits strongly: a
     * root several commits old is garbage once the datastore and its notifications let go of it (no notification
     * still to come can stand there then), while the order of the commits recorded must outlive it.
     */
    private static final class Link {
        private final WeakReference<NormalizedNode> before;
        private final WeakReference<NormalizedNode> after;
        private final List<UnitChange> changes;
        private final long madeNanos;
        private @Nullable Link next;

        Link(final NormalizedNode before, final NormalizedNode after, final List<UnitChange> changes,
                final long madeNanos) {
            this.before = new WeakReference<>(before);
            this.after = new WeakReference<>(after);
            this.changes = changes;
            this.madeNanos = madeNanos;
        }
    }

    /**
     * Per root, the commits recorded in the last {@link #TOKEN_LIFETIME_NANOS}, linked by where they stand: which
     * came right after which. What orders a notification against commits recorded before it was told, where the
     * order notifications come in does not (a re-based commit of the cohort's, told after a newer one; another
     * member's commit, applied here after this member lost the lead, told before this member's own older one).
     */
    private static final class Succession {
        /** A walk longer than the links held and this many more is a bug, not a chain: it stops. */
        private static final int WALK_MARGIN = 1_000;

        /** By the root's node before the commit, compared by identity, held weakly. */
        private final Map<NormalizedNode, Link> byBefore = new MapMaker().weakKeys().makeMap();
        /** By the root's node after the commit, likewise: where a commit recorded later is linked from. */
        private final Map<NormalizedNode, Link> byAfter = new MapMaker().weakKeys().makeMap();
        private final Deque<Link> made = new ArrayDeque<>();

        void add(final Place place, final List<UnitChange> changes, final long now) {
            final NormalizedNode before = place.before();
            final NormalizedNode after = place.after();
            if (before == null || after == null || byBefore.containsKey(before)) {
                return;
            }
            final Link link = new Link(before, after, changes, now);
            // Recorded in either order: the commit before it may be recorded already, or the one after it.
            final Link previous = byAfter.get(before);
            if (previous != null && previous.next == null) {
                previous.next = link;
            }
            link.next = byBefore.get(after);
            byBefore.put(before, link);
            if (!byAfter.containsKey(after)) {
                byAfter.put(after, link);
            }
            made.addLast(link);
        }

        void purge(final long now) {
            while (!made.isEmpty() && now - made.peekFirst().madeNanos > TOKEN_LIFETIME_NANOS) {
                final Link old = made.removeFirst();
                final NormalizedNode before = old.before.get();
                if (before != null) {
                    byBefore.remove(before, old);
                }
                final NormalizedNode after = old.after.get();
                if (after != null) {
                    byAfter.remove(after, old);
                }
            }
        }

        /** Whether the commit standing at {@code place} is recorded already. */
        boolean holds(final Place place) {
            final Link link = place.before() != null ? byBefore.get(place.before()) : null;
            return link != null && link.after.get() == place.after();
        }

        /** The recorded commits that came after the one that left the root as {@code node}, oldest first. */
        List<Link> after(final @Nullable NormalizedNode node) {
            final List<Link> out = new ArrayList<>();
            final int bound = made.size() + WALK_MARGIN;
            for (Link link = node != null ? byBefore.get(node) : null; link != null && out.size() < bound;
                    link = link.next) {
                out.add(link);
            }
            return out;
        }

        /**
         * Whether the commit that left the root as {@code from} is known to come before the one that begins at
         * {@code to}: the same node, or linked through recorded commits.
         */
        boolean leadsTo(final @Nullable NormalizedNode from, final @Nullable NormalizedNode to) {
            if (from == null || to == null) {
                return false;
            }
            if (from == to) {
                return true;
            }
            for (Link link : after(from)) {
                // Held by the caller, so never cleared if it is the one.
                if (link.after.get() == to) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * How long a token waits for its notification. A notification comes milliseconds after its commit; one that
     * never comes (the listener was told before the commit step ran, when that step took over the datastore's 5 s;
     * a transaction the shard re-based has other nodes) would otherwise stay at the head of the queue for good, and
     * a catch-up there would keep this member from following any other member's commits.
     */
    static final long TOKEN_LIFETIME_NANOS = TimeUnit.SECONDS.toNanos(60);
    /**
     * How long a prepared change may still be committed: the shard aborts a transaction it has not committed
     * within 30 s (its transaction commit timeout), with a margin. Not one that waits for the Raft majority
     * (controller 11.0.2 never expires a transaction in COMMIT_PENDING): a commit step that comes after its prepare
     * was given up records nothing, and the change is written from its notification.
     */
    static final long PREPARE_LIFETIME_NANOS = TimeUnit.SECONDS.toNanos(35);
    /** How long a snapshot that could not be written waits before the next try (unless the log doubles). */
    private static final long RETRY_NANOS = TimeUnit.MINUTES.toNanos(1);
    private LongSupplier clock = System::nanoTime;

    private final StoreFiles files;
    private final StoredConfiguration stored;
    /** Prepared and undecided, by id, oldest first: carried into the new log at a compaction. */
    private final Map<Long, Prepared> pending = new LinkedHashMap<>();
    /** Per root, the cohort's commits whose notifications are still to come, oldest first. */
    private final Map<YangInstanceIdentifier, Deque<Token>> unnotified = new HashMap<>();
    /** Per root, the cohort's commits a newer one of the cohort's was notified before; for their lifetime. */
    private final Map<YangInstanceIdentifier, Deque<Token>> overtaken = new HashMap<>();
    /** Per root, the commits recorded lately, by where they stand. */
    private final Map<YangInstanceIdentifier, Succession> successions = new HashMap<>();
    /**
     * The roots as prepared commits the datastore never applied left them (compared by identity, held weakly): a
     * commit whose cohort saw one of them was re-based.
     */
    private final Map<NormalizedNode, Boolean> neverApplied = new MapMaker().weakKeys().makeMap();
    /** The roots a removal of the whole root never applied was prepared for, until the next commit of the root. */
    private final Set<YangInstanceIdentifier> removalNeverApplied = new HashSet<>();
    /**
     * Per root, the listener registration whose notifications are written ({@link #notifiedTo}); another's are
     * dropped. Replaced by {@link #leaderCatchUp}.
     */
    private final Map<YangInstanceIdentifier, Object> listeners = new HashMap<>();
    private final Map<YangInstanceIdentifier, Version> versions;
    /** The life of the cluster this process is in: set by the start. */
    private long life;
    private long nextId;
    private long notificationsOfOwnCommits;
    private long notificationsWritten;
    /** The thread writing a snapshot, while one is. */
    private Thread compacting;
    /** After a snapshot failed: no new one before retryNanos, unless the log has grown to retryLogBytes. */
    private boolean backedOff;
    private long retryNanos;
    private long retryLogBytes;

    private StoreLog(final StoreFiles files, final StoredConfiguration stored, final long nextId,
            final Map<YangInstanceIdentifier, Version> versions) {
        this.files = files;
        this.stored = stored;
        this.nextId = nextId;
        this.versions = versions;
    }

    /** What {@link #open} read. */
    record Loaded(StoreLog log, boolean created, int unreadable, int uncommitted) {
    }

    /**
     * Opens the files and reads them into {@code stored}: the snapshot, then the committed changes in the order
     * they were committed. Records this version cannot read, or naming a subtree {@code stored} does not keep, are
     * counted in {@code unreadable} and skipped; prepares never committed are counted in {@code uncommitted}.
     */
    static Loaded open(final StoreFiles files, final StoredConfiguration stored) {
        final List<byte[]> records = new ArrayList<>();
        if (files.snapshot() != null) {
            records.add(files.snapshot());
        }
        records.addAll(files.changes());
        final Map<Long, Record> prepared = new LinkedHashMap<>();
        final Map<YangInstanceIdentifier, Version> versions = new HashMap<>();
        long maxId = 0;
        int unreadable = 0;
        for (byte[] bytes : records) {
            final Record read;
            try {
                read = decode(bytes);
            } catch (IOException | IllegalArgumentException | IllegalStateException e) {
                LOG.error("A record of the configuration store cannot be read: skipped", e);
                unreadable++;
                continue;
            }
            maxId = Math.max(maxId, read.id);
            final List<Change> committed;
            switch (read.kind) {
                case PREPARE -> {
                    prepared.put(read.id, read);
                    continue;
                }
                case ABORT -> {
                    prepared.remove(read.id);
                    continue;
                }
                case COMMIT -> {
                    final Record prepare = prepared.remove(read.id);
                    if (prepare == null) {
                        LOG.error("The configuration store commits change {}, which it never prepared: skipped",
                            read.id);
                        unreadable++;
                        continue;
                    }
                    committed = prepare.changes;
                    if (!committed.isEmpty() && stored.covers(committed.get(0).path())) {
                        final YangInstanceIdentifier root = stored.rootOf(committed.get(0).path());
                        versions.put(root, versions.getOrDefault(root, Version.NONE).committed(prepare.life,
                            prepare.term));
                    }
                }
                case SNAPSHOT -> {
                    committed = read.changes;
                    versions.putAll(read.versions);
                }
                default -> {
                    // One more followed change per record and root, as notified() counts them while running:
                    // versions read back compare with versions reported by running members.
                    committed = read.changes;
                    final Set<YangInstanceIdentifier> touched = new HashSet<>();
                    for (Change change : committed) {
                        if (stored.covers(change.path())) {
                            touched.add(stored.rootOf(change.path()));
                        }
                    }
                    touched.forEach(root -> versions.computeIfPresent(root, (key, version) -> version.andFollowed()));
                }
            }
            for (Change change : committed) {
                if (stored.covers(change.path())) {
                    stored.apply(change);
                } else {
                    LOG.error("The configuration store holds {}, which this version does not store: skipped",
                        change.path());
                    unreadable++;
                }
            }
        }
        if (!prepared.isEmpty()) {
            LOG.info("The configuration store holds {} prepared changes the datastore never committed (refused "
                + "after the store's pre-commit, or in flight when the process stopped): not restored",
                prepared.size());
        }
        return new Loaded(new StoreLog(files, stored, maxId + 1, versions), files.created(), unreadable,
            prepared.size());
    }

    /** How recent this copy of {@code root} is. */
    synchronized Version version(final YangInstanceIdentifier root) {
        return versions.getOrDefault(root, Version.NONE);
    }

    /** The latest life of the cluster this copy has seen. */
    synchronized long lastLife() {
        return versions.values().stream().mapToLong(Version::life).max().orElse(0);
    }

    /**
     * Begins life {@code newLife} of the cluster: every root's copy is from it now, as a follower's (no commit of
     * its own yet). Written at the next compaction, which the start makes.
     */
    synchronized void begin(final long newLife) {
        life = newLife;
        for (YangInstanceIdentifier root : stored.roots()) {
            final Version version = version(root);
            if (version.life() < newLife) {
                versions.put(root, new Version(newLife, 0, 0, 0));
            }
        }
    }

    /**
     * Forces a prepare of {@code changes} to {@code root} to the log: the commit's pre-commit step on the member
     * that leads the root's shard in Raft term {@code term}. {@code place} says where the commit stands: its
     * node before is the whole root as the datastore holds it before this commit, kept with the prepare when this
     * is the member's first commit in the term (null: none or unknown, as for {@link Place#UNKNOWN}).
     */
    synchronized Prepared prepare(final YangInstanceIdentifier root, final long term, final @Nullable Place place,
            final List<UnitChange> changes) throws IOException {
        final Place at = Place.orUnknown(place);
        final boolean catchingUp = version(root).isBefore(life, term);
        final Prepared prepared = new Prepared(nextId++, root, life, term, catchingUp,
            catchingUp ? at.before() : null, changes, catchingUp ? changes : stored.anchored(changes));
        prepared.place = at;
        prepared.madeNanos = clock.getAsLong();
        files.append(encode(prepared));
        pending.put(prepared.id, prepared);
        return prepared;
    }

    /**
     * Forces the commit of {@code prepared} to the log and takes its changes into the stored configuration: the
     * commit's commit step, after which the datastore answers the client.
     */
    synchronized void commit(final Prepared prepared) throws IOException {
        if (prepared.superseded) {
            // The datastore applied it after all (review 3): a commit on top of it is no re-based one.
            if (prepared.place.after() != null) {
                neverApplied.remove(prepared.place.after());
            }
            // Its notification, if the datastore did apply it after all, is written as any other member's commit.
            LOG.warn("A commit step came {} s after its change of {} was prepared, after this member's catch-up as "
                + "the shard's leader gave the change up: not recorded as this member's own", TimeUnit.NANOSECONDS
                    .toSeconds(clock.getAsLong() - prepared.madeNanos), prepared.root);
            return;
        }
        if (prepared.decided) {
            throw new IllegalStateException("change " + prepared.id + " was committed or aborted already");
        }
        final Version now = version(prepared.root);
        if (now.life() > prepared.life || now.life() == prepared.life && now.term() > prepared.term) {
            // A commit step that came after this copy caught up in a later term (this member led again, or its
            // first commit of a later term carried the whole root): the change is in that catch-up if it was
            // applied before it, else its notification comes to the listener the copy follows since, and is
            // written from there; written here, it would put its value back over whatever came since.
            files.append(encode(ABORT, prepared.id, List.of()));
            prepared.decided = true;
            pending.remove(prepared.id);
            LOG.warn("A commit step of a change of {} prepared in term {} came after this member's copy caught up "
                + "in term {}: not written as this member's own (the catch-up or its notification records it)",
                prepared.root, prepared.term, now.term());
            return;
        }
        if (reBased(prepared)) {
            // The datastore re-based the transaction after the cohort's pre-commit (one pre-committed before it was
            // aborted; controller 11.0.2 does not ask the cohorts again): what the cohort saw, its entries and its
            // catch-up, holds the aborted transaction's changes. Its notification, with the nodes the datastore
            // applied, records it instead; a leader's catch-up ranks the copy in the term.
            files.append(encode(ABORT, prepared.id, List.of()));
            prepared.decided = true;
            pending.remove(prepared.id);
            neverApplied(prepared);
            LOG.warn("A change of {} was re-based by the datastore after this member's pre-commit (a transaction "
                + "before it was aborted): recorded from its notification, not as prepared", prepared.root);
            return;
        }
        files.append(encode(COMMIT, prepared.id, List.of()));
        prepared.decided = true;
        pending.remove(prepared.id);
        removalNeverApplied.remove(prepared.root);
        final Deque<Token> tokens = unnotified.computeIfAbsent(prepared.root, root -> new ArrayDeque<>());
        final long made = clock.getAsLong();
        if (prepared.catchingUp) {
            stored.apply(new Change(prepared.root, prepared.catchUp));
            // The catch-up is the root as it stood before this commit: it ends where the commit begins.
            tokens.addLast(new Token(List.of(), true, new Place(null, prepared.place.before()), made));
        }
        stored.applyAll(StoredConfiguration.plain(prepared.recorded));
        versions.put(prepared.root, version(prepared.root).committed(prepared.life, prepared.term));
        final Succession succession = succession(prepared.root);
        succession.purge(made);
        if (!succession.holds(prepared.place)) {
            tokens.addLast(new Token(prepared.changes, false, prepared.place, made));
        } else {
            // Its notification came before this step (the datastore's ask of the step timed out) and was written
            // from there: nothing to wait for, and no second entry for one commit in the order of commits.
            LOG.debug("A commit step of {} came after its notification: recorded already", prepared.root);
        }
        succession.add(prepared.place, prepared.changes, made);
        if (tokens.size() == UNNOTIFIED_WARNING) {
            LOG.warn("{} commits of this member's configuration store were never notified to its listener",
                UNNOTIFIED_WARNING);
        }
        maybeCompact();
    }

    /** The datastore gave {@code prepared} up after its pre-commit: it is not configuration. */
    synchronized void abort(final Prepared prepared) throws IOException {
        if (prepared.decided) {
            return;
        }
        prepared.decided = true;
        pending.remove(prepared.id);
        neverApplied(prepared);
        files.append(encode(ABORT, prepared.id, List.of()));
    }

    /**
     * Whether the datastore re-based {@code prepared} before committing it: its cohort saw the root as a commit
     * left it that the datastore never applied (one aborted, or re-based itself), or one whose commit step has not
     * come (commit steps come in commit order: a transaction before this one that had been committed would have
     * had its step first).
     */
    private boolean reBased(final Prepared prepared) {
        final NormalizedNode before = prepared.place.before();
        if (before == null) {
            // The root did not exist as its cohort saw it (review 3): a first commit of a term made on top of an
            // aborted removal of the whole root would force an empty catch-up. Nodes cannot tell; any earlier
            // removal of the root never applied, or undecided at this step (commit order), does.
            final boolean removed = prepared.catchingUp && removalNeverApplied.remove(prepared.root)
                || prepared.catchingUp && pending.values().stream().anyMatch(other -> other != prepared
                    && other.root.equals(prepared.root) && other.id < prepared.id && other.place.before() != null
                    && other.place.after() == null);
            return removed;
        }
        if (neverApplied.containsKey(before)) {
            return true;
        }
        for (Prepared other : pending.values()) {
            if (other != prepared && other.place.after() == before) {
                neverApplied(other);
                return true;
            }
        }
        return false;
    }

    private void neverApplied(final Prepared prepared) {
        final NormalizedNode after = prepared.place.after();
        if (after != null) {
            neverApplied.put(after, Boolean.TRUE);
        } else if (prepared.place.before() != null) {
            removalNeverApplied.add(prepared.root);
        }
    }

    /** Makes {@code listener}'s the notifications of {@code root} that are written (the start's first listener). */
    synchronized void listenWith(final YangInstanceIdentifier root, final Object listener) {
        listeners.put(root, listener);
    }

    /**
     * A notification to {@code listener}: written as {@link #notified(YangInstanceIdentifier, Place, List)} says if
     * {@code listener} is the registration this copy follows, dropped if a {@link #leaderCatchUp} replaced it
     * (whatever it tells is older than that catch-up, which holds it).
     */
    synchronized void notifiedTo(final Object listener, final YangInstanceIdentifier root,
            final @Nullable Place place, final List<UnitChange> changes) throws IOException {
        if (listeners.get(root) != listener) {
            LOG.debug("A notification of {} to a listener this member's copy no longer follows: not written", root);
            return;
        }
        notified(root, place, changes);
    }

    /**
     * Whether this copy of {@code root} needs a {@link #leaderCatchUp} in Raft term {@code term}: its cohort has
     * committed nothing in that term (the first commit of a term carries the whole root itself).
     */
    synchronized boolean needsCatchUp(final YangInstanceIdentifier root, final long term) {
        return version(root).isBefore(life, term) && !inFlight(root, term);
    }

    /**
     * Whether a commit of {@code root} prepared in {@code term} or later is in flight: one the datastore may still
     * commit (prepared less than {@link #PREPARE_LIFETIME_NANOS} ago).
     */
    private boolean inFlight(final YangInstanceIdentifier root, final long term) {
        final long now = clock.getAsLong();
        return pending.values().stream().anyMatch(one -> one.root.equals(root) && one.term >= term
            && now - one.madeNanos < PREPARE_LIFETIME_NANOS);
    }

    /**
     * This member leads {@code root}'s shard in Raft term {@code term}, and {@code data} is the whole root as its
     * datastore held it when {@code listener} was registered after that (a new registration's first notification;
     * null when the root held nothing). A leader holds every change acknowledged in an earlier term, also those it
     * acknowledged without its cohort (a client's replay of a transaction the former leader pre-committed, found
     * committed in the replicated log): forced as a catch-up commit of the term, this copy ranks above any copy of
     * an earlier term at a whole-cluster start, before the cohort commits anything in the term. {@code listener}
     * becomes the registration whose notifications are written: the former one's, all of changes {@code data}
     * holds or of later commits also told to {@code listener}, are dropped from now on; and the cohort's commits
     * still to be notified are all of earlier terms, so in {@code data}: no longer waited for.
     *
     * <p>Not written (false) when the cohort has committed in the term meanwhile (that commit carried the whole
     * root) or has a commit of the term in flight that the datastore may still commit (it will carry the whole
     * root): the caller keeps its former listener.
     */
    synchronized boolean leaderCatchUp(final YangInstanceIdentifier root, final Object listener, final long term,
            final @Nullable NormalizedNode data) throws IOException {
        if (!version(root).isBefore(life, term) || inFlight(root, term)) {
            return false;
        }
        // Prepares of the term the datastore gave up after the store's pre-commit (another cohort refused, a step
        // timed out: controller 11.0.2 tells no cohort that pre-committed) would keep this copy from ever catching
        // up in the term: given up here (the shard aborts a transaction not committed in 30 s), so that a commit
        // step that still came could not put their older catch-up over this one. Prepares of earlier terms
        // belong to a leadership this member lost: the shard failed their transactions without a commit step,
        // and one that was applied is in data. They stay undecided.
        for (Prepared stale : List.copyOf(pending.values())) {
            if (stale.root.equals(root) && stale.term >= term) {
                files.append(encode(ABORT, stale.id, List.of()));
                stale.decided = true;
                stale.superseded = true;
                pending.remove(stale.id);
                neverApplied(stale);
                LOG.info("A change of {} prepared in term {} {} s ago was never committed by the datastore: given up",
                    root, stale.term, TimeUnit.NANOSECONDS.toSeconds(clock.getAsLong() - stale.madeNanos));
            }
        }
        final Prepared catchUp = new Prepared(nextId++, root, life, term, true, data, List.of(), List.of());
        files.append(encode(catchUp));
        files.append(encode(COMMIT, catchUp.id, List.of()));
        stored.apply(new Change(root, data));
        versions.put(root, version(root).committed(life, term));
        unnotified.remove(root);
        overtaken.remove(root);
        successions.remove(root);
        listeners.put(root, listener);
        maybeCompact();
        return true;
    }

    /**
     * The datastore applied {@code changes} to {@code root} (one commit, as this member's listener is told of it,
     * standing at {@code place}, null if not known): written unless this member's cohort committed it, without the
     * units a later commit of the cohort or a later commit recorded already changed, and not at all when a catch-up
     * of the cohort covers it.
     */
    synchronized void notified(final YangInstanceIdentifier root, final @Nullable Place place,
            final List<UnitChange> changes) throws IOException {
        if (changes.isEmpty()) {
            return;
        }
        final Place at = Place.orUnknown(place);
        final Deque<Token> tokens = unnotified.computeIfAbsent(root, key -> new ArrayDeque<>());
        final long now = clock.getAsLong();
        final Succession succession = succession(root);
        succession.purge(now);
        while (!tokens.isEmpty() && now - tokens.peekFirst().madeNanos > TOKEN_LIFETIME_NANOS) {
            final Token stale = tokens.removeFirst();
            LOG.warn("A commit of this member's configuration store to {} was never notified to its listener within "
                + "its lifetime: no longer waited for ({})", root, (stale.catchUp ? "a catch-up" : stale.changes.size()
                + " units") + ", " + TimeUnit.NANOSECONDS.toSeconds(TOKEN_LIFETIME_NANOS) + " s");
        }
        final Deque<Token> passed = overtaken.get(root);
        if (passed != null) {
            // Kept for as long as a token waits in the queue: never told, they go then.
            passed.removeIf(token -> now - token.madeNanos > TOKEN_LIFETIME_NANOS);
        }
        int index = 0;
        for (Token token : tokens) {
            if (!token.catchUp && sameCommit(token.changes, changes)) {
                // Its token goes, and those before it: the queue stays "the cohort's commits newer than any
                // notification that matches none", which the path below relies on. An older commit of the
                // cohort's can still be notified after this one, though: the shard publishes a commit's
                // notification from a callback of its cohorts' commit steps, and does not wait for the previous
                // commit's (controller 11.0.2, ShardDataTree.finishCommit), so two made back to back can be told
                // the other way round. Its token is kept aside, and its notification is recognised there.
                final Iterator<Token> older = tokens.iterator();
                final Deque<Token> aside = overtaken.computeIfAbsent(root, key -> new ArrayDeque<>());
                for (int i = 0; i <= index; i++) {
                    final Token one = older.next();
                    older.remove();
                    if (!one.catchUp && i < index) {
                        aside.addLast(one);
                    }
                }
                notificationsOfOwnCommits++;
                LOG.debug("Notified of this member's own commit of {} units: not written again ({} so far)",
                    changes.size(), notificationsOfOwnCommits);
                return;
            }
            index++;
        }
        final Deque<Token> aside = overtaken.get(root);
        if (aside != null) {
            for (Iterator<Token> it = aside.iterator(); it.hasNext(); ) {
                if (sameCommit(it.next().changes, changes)) {
                    // The cohort's own commit, notified after a newer one of the cohort's: recorded already.
                    it.remove();
                    notificationsOfOwnCommits++;
                    LOG.debug("Notified of this member's own commit after a newer one: not written again");
                    return;
                }
            }
        }
        // Which commits recorded already are newer than this one. By where they stand when that is known: the
        // commits recorded after the one this one follows; and the cohort's commits up to the last one this one is
        // known to follow are older (this member lost the lead, and the new leader's commit, applied here, is told
        // before this member's own older one). Otherwise by the order of notifications: the cohort's commits still
        // to be notified are newer (the cohort's commit step runs before its notification is sent).
        final List<Token> newerTokens = new ArrayList<>(tokens);
        for (int i = newerTokens.size() - 1; i >= 0; i--) {
            if (succession.leadsTo(newerTokens.get(i).place.after(), at.before())) {
                LOG.debug("Notified of a commit of {} that comes after {} of this member's own commits still to be "
                    + "notified (by where it stands): not taken for an older one", root, i + 1);
                newerTokens.subList(0, i + 1).clear();
                break;
            }
        }
        for (Token token : newerTokens) {
            if (token.catchUp) {
                LOG.debug("Notified of a commit older than this member's copy of {}: not written", root);
                succession.add(at, changes, now);
                return;
            }
        }
        // The newer commits, oldest first as far as it is known: those recorded since this one (a commit the
        // datastore re-based, a transaction ahead of it failed after the cohort was asked, is told with other nodes
        // than its cohort saw: not recognised as the cohort's own, it is placed by where it stands), then each of
        // the cohort's commits still to be notified with those recorded since it.
        final List<List<UnitChange>> newerCommits = new ArrayList<>();
        final Set<List<UnitChange>> placed = Collections.newSetFromMap(new IdentityHashMap<>());
        final List<Link> recordedSince = succession.after(at.after());
        if (!recordedSince.isEmpty()) {
            LOG.debug("Notified of a commit of {} older than {} commits recorded already (by where it stands): their "
                + "units are not written back", root, recordedSince.size());
        }
        addNewer(recordedSince, newerCommits, placed);
        for (Token token : newerTokens) {
            if (placed.add(token.changes)) {
                newerCommits.add(token.changes);
                addNewer(succession.after(token.place.after()), newerCommits, placed);
            }
        }
        final Set<YangInstanceIdentifier> newer = new HashSet<>();
        // The entries under the root the newer commits changed, each as the newest of them left it, oldest first.
        final Map<YangInstanceIdentifier, NormalizedNode> newerEntries = new LinkedHashMap<>();
        for (List<UnitChange> commit : newerCommits) {
            for (UnitChange unit : commit) {
                newer.add(unit.path());
                final Change entry = unit.outerChange();
                newerEntries.remove(entry.path());
                newerEntries.put(entry.path(), entry.data());
            }
        }
        succession.add(at, changes, now);
        final List<UnitChange> fresh = stored.anchored(changes.stream().filter(unit -> !newer.contains(unit.path()))
            .toList());
        if (fresh.isEmpty()) {
            return;
        }
        // An entry a newer commit of the cohort changed, inside or around a unit of this older one (a flow changed
        // since, in a node this commit wrote whole; a node deleted since, around a flow this commit wrote), is
        // written again after it, whole, as the newest of those commits left it (the datastore's own data: every
        // change recorded so far is older than that commit, whose notification has not come). Reading the record
        // back ends where the datastore is, whatever the store held before.
        final List<UnitChange> record = new ArrayList<>(fresh);
        newerEntries.forEach((path, data) -> {
            if (fresh.stream().anyMatch(unit -> unit.path().contains(path) || path.contains(unit.path()))) {
                record.add(new UnitChange(path, null, data));
            }
        });
        files.append(encode(CHANGE, 0, record));
        stored.applyAll(StoredConfiguration.plain(record));
        versions.computeIfPresent(root, (key, version) -> version.andFollowed());
        notificationsWritten++;
        LOG.debug("Notified of a commit this member's cohort did not make: {} of its {} units written ({} so far)",
            fresh.size(), changes.size(), notificationsWritten);
        maybeCompact();
    }

    private static void addNewer(final List<Link> links, final List<List<UnitChange>> newerCommits,
            final Set<List<UnitChange>> placed) {
        for (Link link : links) {
            if (placed.add(link.changes)) {
                newerCommits.add(link.changes);
            }
        }
    }

    /** Whether two lists of unit changes are one commit: the same units, the same data tree nodes. */
    private static boolean sameCommit(final List<UnitChange> first, final List<UnitChange> second) {
        if (first.size() != second.size()) {
            return false;
        }
        for (int i = 0; i < first.size(); i++) {
            final UnitChange one = first.get(i);
            final UnitChange other = second.get(i);
            if (!one.path().equals(other.path()) || one.before() != other.before() || one.after() != other.after()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes changes that did not pass through the datastore's commit steps (the start's own: what a restore
     * dropped), as committed changes.
     */
    synchronized void record(final List<Change> changes) throws IOException {
        if (changes.isEmpty()) {
            return;
        }
        files.append(encode(CHANGE, 0, StoredConfiguration.unplain(changes)));
        stored.applyAll(changes);
        maybeCompact();
    }

    /** Reads what is to replace the stored configuration. */
    @FunctionalInterface
    interface Source {
        List<Change> read() throws IOException;
    }

    /**
     * Replaces the stored configuration with what {@code source} reads (the datastore's, at a start that takes
     * it over) and makes that the snapshot. The read runs under the log's lock: a commit step of the cohort waits
     * for the snapshot, so none is lost between the read and the new snapshot.
     */
    synchronized void adopt(final Source source) throws IOException {
        stored.applyAll(source.read());
        compact();
    }

    /**
     * A commit of changes the store holds already (the start's own restore): not written again, only expected
     * from the listener like any of the cohort's commits.
     */
    synchronized void alreadyStored(final YangInstanceIdentifier root, final @Nullable Place place,
            final List<UnitChange> changes) {
        final long now = clock.getAsLong();
        final List<UnitChange> units = List.copyOf(changes);
        unnotified.computeIfAbsent(root, key -> new ArrayDeque<>()).addLast(new Token(units, false,
            Place.orUnknown(place), now));
        succession(root).add(Place.orUnknown(place), units, now);
    }

    private Succession succession(final YangInstanceIdentifier root) {
        return successions.computeIfAbsent(root, key -> new Succession());
    }

    /**
     * A new snapshot of the stored configuration and its versions now, the prepares still in flight carried into
     * the new log; written before it returns (a start's, and tests').
     */
    synchronized void compact() throws IOException {
        awaitCompaction();
        final Compaction compaction = beginCompaction();
        final byte[] payload = encodeSnapshot(compaction.versions, compaction.configuration);
        files.writeSnapshot(compaction.covered, payload);
        files.endCompaction(payload.length);
    }

    /** The part of a compaction taken under the log's lock: what the snapshot holds, and up to which frame. */
    private record Compaction(long covered, Map<YangInstanceIdentifier, Version> versions,
            List<Change> configuration) {
    }

    private Compaction beginCompaction() throws IOException {
        final long covered = files.beginCompaction();
        for (Prepared prepared : pending.values()) {
            files.append(encode(prepared));
        }
        return new Compaction(covered, new LinkedHashMap<>(versions), stored.snapshotChanges());
    }

    /**
     * Starts a compaction when the log has grown enough and none runs. Only the move to a new log happens here,
     * under the log's lock; the snapshot is encoded and written by a thread of its own. Why: this runs in the
     * datastore's commit steps, and controller 11.0.2 answers the client with success when a cohort's commit step
     * takes longer than 5 s, whether or not its record is on disk; a commit step must never wait for a snapshot.
     */
    private void maybeCompact() {
        if (compacting != null) {
            return;
        }
        final Compaction compaction;
        try {
            if (!files.wantsCompaction()
                    || backedOff && clock.getAsLong() - retryNanos < 0 && files.logBytes() < retryLogBytes) {
                return;
            }
            compaction = beginCompaction();
        } catch (IOException e) {
            // The change itself is in the log: the commit goes on, a later change tries again.
            LOG.warn("Could not start a new snapshot of the configuration store", e);
            backOff();
            return;
        }
        final Thread writer = new Thread(() -> writeSnapshot(compaction), "oko-store-snapshot");
        writer.setDaemon(true);
        compacting = writer;
        writer.start();
    }

    private void writeSnapshot(final Compaction compaction) {
        try {
            final byte[] payload = encodeSnapshot(compaction.versions, compaction.configuration);
            files.writeSnapshot(compaction.covered, payload);
            synchronized (this) {
                files.endCompaction(payload.length);
            }
        } catch (IOException e) {
            // Nothing is lost: the log moved aside stays until a snapshot covers it (the next compaction's).
            LOG.warn("Could not write a new snapshot of the configuration store: its log goes on growing until one "
                + "is written (tried again in a minute, or when the log has grown as much again)", e);
            synchronized (this) {
                backOff();
            }
        } finally {
            synchronized (this) {
                compacting = null;
                notifyAll();
            }
        }
    }

    /**
     * After a snapshot that could not be written (a full disk): the next try waits a minute, or until the log has
     * grown by as much again, rather than follow every commit (each try writes the prepares in flight again and
     * builds the whole configuration).
     */
    private void backOff() {
        backedOff = true;
        retryNanos = clock.getAsLong() + RETRY_NANOS;
        try {
            final long now = files.logBytes();
            retryLogBytes = now + Math.max(now, 4L << 20);     // as much again, and at least 4 MiB
        } catch (IOException e) {
            retryLogBytes = Long.MAX_VALUE;
        }
    }

    /** Waits until no snapshot is being written. */
    synchronized void awaitCompaction() throws IOException {
        while (compacting != null) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while a snapshot of the configuration store was written", e);
            }
        }
    }

    /** Sets the clock tokens age by (tests). */
    synchronized void clock(final LongSupplier nanos) {
        clock = nanos;
    }

    /** How many notifications were of this member's own commits, and how many were written. */
    synchronized long[] notificationCounts() {
        return new long[] { notificationsOfOwnCommits, notificationsWritten };
    }

    /** Runs {@code action} on the stored configuration, under the log's lock. */
    synchronized <T> T read(final Function<StoredConfiguration, T> action) {
        return action.apply(stored);
    }

    @Override
    public synchronized void close() throws IOException {
        awaitCompaction();
        files.close();
    }

    private record Record(byte kind, long id, long life, long term, List<Change> changes,
            Map<YangInstanceIdentifier, Version> versions) {
    }

    /** The snapshot: each root's version (its path and four numbers), then the stored configuration. */
    private static byte[] encodeSnapshot(final Map<YangInstanceIdentifier, Version> versions,
            final List<Change> configuration) throws IOException {
        final var bytes = new ByteArrayOutputStream();
        bytes.write(SNAPSHOT);
        try (var out = new DataOutputStream(bytes)) {
            final List<Map.Entry<YangInstanceIdentifier, Version>> entries = List.copyOf(versions.entrySet());
            out.writeInt(entries.size());
            for (var entry : entries) {
                out.writeLong(entry.getValue().life());
                out.writeLong(entry.getValue().term());
                out.writeLong(entry.getValue().commits());
                out.writeLong(entry.getValue().followed());
            }
            final byte[] roots = StoredConfiguration.encode(entries.stream()
                .map(entry -> new Change(entry.getKey(), null)).toList());
            out.writeInt(roots.length);
            out.write(roots);
            out.write(StoredConfiguration.encode(configuration));
        }
        return bytes.toByteArray();
    }

    private static byte[] encode(final Prepared prepared) throws IOException {
        final var bytes = new ByteArrayOutputStream();
        bytes.write(PREPARE);
        try (var out = new DataOutputStream(bytes)) {
            out.writeLong(prepared.id);
            out.writeLong(prepared.life);
            out.writeLong(prepared.term);
            final List<Change> changes = new ArrayList<>();
            if (prepared.catchingUp) {
                changes.add(new Change(prepared.root, prepared.catchUp));
            }
            changes.addAll(StoredConfiguration.plain(prepared.recorded));
            out.write(StoredConfiguration.encode(changes));
        }
        return bytes.toByteArray();
    }

    static byte[] encode(final byte kind, final long id, final List<UnitChange> changes) throws IOException {
        final var bytes = new ByteArrayOutputStream();
        bytes.write(kind);
        try (var out = new DataOutputStream(bytes)) {
            if (kind != CHANGE) {
                out.writeLong(id);
            }
            if (kind == CHANGE) {
                out.write(StoredConfiguration.encode(StoredConfiguration.plain(changes)));
            }
        }
        return bytes.toByteArray();
    }

    private static Record decode(final byte[] record) throws IOException {
        if (record.length == 0) {
            throw new IOException("an empty record");
        }
        final byte kind = record[0];
        return switch (kind) {
            case PREPARE -> {
                try (var in = new DataInputStream(new ByteArrayInputStream(record, 1, record.length - 1))) {
                    final long id = in.readLong();
                    final long life = in.readLong();
                    final long term = in.readLong();
                    yield new Record(kind, id, life, term, StoredConfiguration.decode(in.readAllBytes()),
                        Map.of());
                }
            }
            case SNAPSHOT -> {
                try (var in = new DataInputStream(new ByteArrayInputStream(record, 1, record.length - 1))) {
                    final int count = in.readInt();
                    if (count < 0 || count > 1024) {
                        throw new IOException("a snapshot with " + count + " versions");
                    }
                    final long[][] numbers = new long[count][];
                    for (int i = 0; i < count; i++) {
                        numbers[i] = new long[] { in.readLong(), in.readLong(), in.readLong(), in.readLong() };
                    }
                    final byte[] roots = new byte[in.readInt()];
                    in.readFully(roots);
                    final List<Change> named = StoredConfiguration.decode(roots);
                    if (named.size() != count) {
                        throw new IOException("a snapshot with " + count + " versions names " + named.size()
                            + " roots");
                    }
                    final Map<YangInstanceIdentifier, Version> read = new HashMap<>();
                    for (int i = 0; i < count; i++) {
                        read.put(named.get(i).path(), new Version(numbers[i][0], numbers[i][1], numbers[i][2],
                            numbers[i][3]));
                    }
                    yield new Record(kind, 0, 0, 0, StoredConfiguration.decode(in.readAllBytes()), read);
                }
            }
            case COMMIT, ABORT -> {
                try (var in = new DataInputStream(new ByteArrayInputStream(record, 1, record.length - 1))) {
                    yield new Record(kind, in.readLong(), 0, 0, List.of(), Map.of());
                }
            }
            case CHANGE -> new Record(kind, 0, 0, 0, StoredConfiguration.decode(Arrays.copyOfRange(record, 1,
                record.length)), Map.of());
            // A bare change list: what versions before the two-phase records wrote.
            default -> new Record(CHANGE, 0, 0, 0, StoredConfiguration.decode(record), Map.of());
        };
    }
}
