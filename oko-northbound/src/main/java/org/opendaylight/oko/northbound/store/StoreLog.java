/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opendaylight.oko.northbound.store.StoredConfiguration.Change;
import org.opendaylight.oko.northbound.store.StoredConfiguration.UnitChange;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a configuration store's log says, record by record, and the order it is written in.
 *
 * <p>Records: a <b>prepare</b> (an id and the changes of a commit in flight, forced in the commit's pre-commit step,
 * before the datastore's answer can be given), its <b>commit</b> (the id, forced in the commit step, which the
 * datastore runs after it has applied the change and before it answers the client), its <b>abort</b>, and a
 * <b>change</b> this member's datastore applied without this member's cohort (written by its change listener: a
 * commit another member led). A record written by an earlier version (a bare change list) is a change. Only
 * committed changes are stored: a prepare without its commit (the datastore refused the write after the
 * pre-commit, or the process stopped before the commit step) is never read back as configuration.
 *
 * <p>One writer per change: the datastore tells this member's listener about every commit, its cohort's own too.
 * A notification of a commit this member's cohort committed (the same data tree nodes, compared by identity, so
 * never confused with another commit of equal data) is not written again. A notification of a commit made before
 * one this cohort has committed but whose notification is still to come (the listener lags behind, e.g. while
 * this member just became the shard's leader) is written without the units that later commit changed: the log
 * then never puts an older value after a newer one, at any point where the process may stop.
 *
 * <p>Thread-safe: every method holds the instance's lock.
 */
final class StoreLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreLog.class);
    private static final byte PREPARE = 'P';
    private static final byte COMMIT = 'C';
    private static final byte ABORT = 'A';
    private static final byte CHANGE = 'L';
    /** More commits than this whose notifications never came is a datastore that does not notify: say so. */
    private static final int UNNOTIFIED_WARNING = 10_000;

    /** A commit in flight: prepared, not yet committed or aborted. */
    static final class Prepared {
        private final long id;
        private final List<UnitChange> changes;
        private boolean decided;

        Prepared(final long id, final List<UnitChange> changes) {
            this.id = id;
            this.changes = List.copyOf(changes);
        }

        long id() {
            return id;
        }
    }

    private final StoreFiles files;
    private final StoredConfiguration stored;
    /** Prepared and undecided, by id, oldest first: carried into the new log at a compaction. */
    private final Map<Long, Prepared> pending = new LinkedHashMap<>();
    /** Committed by this member's cohort, their notifications still to come, oldest first. */
    private final Deque<List<UnitChange>> unnotified = new ArrayDeque<>();
    private long nextId;
    private long notificationsOfOwnCommits;
    private long notificationsWritten;

    private StoreLog(final StoreFiles files, final StoredConfiguration stored, final long nextId) {
        this.files = files;
        this.stored = stored;
        this.nextId = nextId;
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
        final Map<Long, List<Change>> prepared = new LinkedHashMap<>();
        long maxId = 0;
        int unreadable = 0;
        for (byte[] record : records) {
            final Record read;
            try {
                read = decode(record);
            } catch (IOException | IllegalArgumentException | IllegalStateException e) {
                LOG.error("A record of the configuration store cannot be read: skipped", e);
                unreadable++;
                continue;
            }
            maxId = Math.max(maxId, read.id);
            final List<Change> committed = switch (read.kind) {
                case PREPARE -> {
                    prepared.put(read.id, read.changes);
                    yield List.of();
                }
                case ABORT -> {
                    prepared.remove(read.id);
                    yield List.of();
                }
                case COMMIT -> {
                    final List<Change> changes = prepared.remove(read.id);
                    if (changes == null) {
                        LOG.error("The configuration store commits change {}, which it never prepared: skipped",
                            read.id);
                        unreadable++;
                        yield List.of();
                    }
                    yield changes;
                }
                default -> read.changes;
            };
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
        return new Loaded(new StoreLog(files, stored, maxId + 1), files.created(), unreadable, prepared.size());
    }

    /** Forces a prepare of {@code changes} to the log: the commit's pre-commit step. */
    synchronized Prepared prepare(final List<UnitChange> changes) throws IOException {
        final Prepared prepared = new Prepared(nextId++, changes);
        files.append(encode(PREPARE, prepared.id, changes));
        pending.put(prepared.id, prepared);
        return prepared;
    }

    /**
     * Forces the commit of {@code prepared} to the log and takes its changes into the stored configuration: the
     * commit's commit step, after which the datastore answers the client.
     */
    synchronized void commit(final Prepared prepared) throws IOException {
        if (prepared.decided) {
            throw new IllegalStateException("change " + prepared.id + " was committed or aborted already");
        }
        files.append(encode(COMMIT, prepared.id, List.of()));
        prepared.decided = true;
        pending.remove(prepared.id);
        stored.applyAll(StoredConfiguration.plain(prepared.changes));
        unnotified.addLast(prepared.changes);
        if (unnotified.size() == UNNOTIFIED_WARNING) {
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
        files.append(encode(ABORT, prepared.id, List.of()));
    }

    /**
     * The datastore applied {@code changes} (one commit, as this member's listener is told of it): written unless
     * this member's cohort committed it, without the units a later commit of the cohort has written already.
     */
    synchronized void notified(final List<UnitChange> changes) throws IOException {
        if (changes.isEmpty()) {
            return;
        }
        int index = 0;
        for (List<UnitChange> own : unnotified) {
            if (sameCommit(own, changes)) {
                // Commits before it whose notification never came (none in the datastores seen) cannot be waited
                // for any longer: notifications come in commit order.
                for (int i = 0; i <= index; i++) {
                    unnotified.removeFirst();
                }
                if (index > 0) {
                    LOG.warn("{} commits of this member's cohort were not notified to its listener", index);
                }
                notificationsOfOwnCommits++;
                LOG.debug("Notified of this member's own commit of {} units: not written again ({} so far)",
                    changes.size(), notificationsOfOwnCommits);
                return;
            }
            index++;
        }
        final Set<YangInstanceIdentifier> newer = new HashSet<>();
        unnotified.forEach(own -> own.forEach(unit -> newer.add(unit.path())));
        final List<UnitChange> fresh = changes.stream().filter(unit -> !newer.contains(unit.path())).toList();
        if (fresh.isEmpty()) {
            return;
        }
        final List<Change> plain = StoredConfiguration.plain(fresh);
        files.append(encode(CHANGE, 0, fresh));
        stored.applyAll(plain);
        notificationsWritten++;
        LOG.debug("Notified of a commit this member's cohort did not make: {} of its {} units written ({} so far)",
            fresh.size(), changes.size(), notificationsWritten);
        maybeCompact();
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
     * dropped, a take-over), as committed changes.
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
    synchronized void alreadyStored(final List<UnitChange> changes) {
        unnotified.addLast(List.copyOf(changes));
    }

    /** A new snapshot of the stored configuration now, the prepares still in flight carried into the new log. */
    synchronized void compact() throws IOException {
        files.compact(stored.snapshot());
        for (Prepared prepared : pending.values()) {
            files.append(encode(PREPARE, prepared.id, prepared.changes));
        }
    }

    private void maybeCompact() {
        try {
            if (files.wantsCompaction()) {
                compact();
            }
        } catch (IOException e) {
            // The change itself is in the log: the commit goes on, the next change tries again.
            LOG.warn("Could not write a new snapshot of the configuration store", e);
        }
    }

    /** How many notifications were of this member's own commits, and how many were written. */
    synchronized long[] notificationCounts() {
        return new long[] { notificationsOfOwnCommits, notificationsWritten };
    }

    /** Runs {@code action} on the stored configuration, under the log's lock. */
    synchronized <T> T read(final java.util.function.Function<StoredConfiguration, T> action) {
        return action.apply(stored);
    }

    @Override
    public synchronized void close() throws IOException {
        files.close();
    }

    private record Record(byte kind, long id, List<Change> changes) {
    }

    static byte[] encode(final byte kind, final long id, final List<UnitChange> changes) throws IOException {
        final var bytes = new ByteArrayOutputStream();
        bytes.write(kind);
        try (var out = new DataOutputStream(bytes)) {
            if (kind != CHANGE) {
                out.writeLong(id);
            }
            if (kind == PREPARE || kind == CHANGE) {
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
            case PREPARE, COMMIT, ABORT -> {
                try (var in = new DataInputStream(new ByteArrayInputStream(record, 1, record.length - 1))) {
                    final long id = in.readLong();
                    yield new Record(kind, id, kind == PREPARE ? StoredConfiguration.decode(in.readAllBytes())
                        : List.of());
                }
            }
            case CHANGE -> new Record(kind, 0, StoredConfiguration.decode(
                java.util.Arrays.copyOfRange(record, 1, record.length)));
            // A bare change list: what versions before the two-phase records wrote.
            default -> new Record(CHANGE, 0, StoredConfiguration.decode(record));
        };
    }
}
