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
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.opendaylight.controller.cluster.ActorSystemProvider;
import org.opendaylight.mdsal.common.api.DataValidationFailedException;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.common.api.OptimisticLockFailedException;
import org.opendaylight.mdsal.common.api.PostCanCommitStep;
import org.opendaylight.mdsal.common.api.PostPreCommitStep;
import org.opendaylight.mdsal.common.api.ThreePhaseCommitStep;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCandidate;
import org.opendaylight.mdsal.dom.api.DOMDataTreeChangeListener;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCommitCohort;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.oko.northbound.DatastoreReads;
import org.opendaylight.oko.northbound.install.ClusterMember;
import org.opendaylight.oko.northbound.store.StoredConfiguration.Change;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.SynGuards;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.util.concurrent.FluentFutures;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.ContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidate;
import org.opendaylight.yangtools.yang.model.api.EffectiveModelContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configuration Oko's operators write (stored programs, switch entries, the inventory's flows, SYN guards),
 * kept in files of its own and written back into the datastore at every start.
 *
 * <p>Why: the persistent datastore of OpenDaylight 11.0.2 cannot be trusted across a hard stop (KILL, a crash, the
 * OOM killer). An acknowledged write can be missing after the next start, and a later start can fail for good
 * (docs/northbound.md, "Controller restarts"). `make up` therefore runs the configuration datastore without
 * persistence, and this store is what makes the configuration durable: as a commit cohort of each subtree it
 * forces every change to its log in the commit's pre-commit phase, before the datastore applies the change and
 * before the client gets its answer, so an acknowledged write is on disk; a change that cannot be written fails
 * the commit (the client gets the error, nothing is lost silently). At start, the stored subtrees are put into the
 * datastore before the rest of Oko starts (OkoNorthbound takes this component as a reference).
 *
 * <p>The store's directory is {@code oko-store} in Karaf's home, or the system property {@code oko.store.dir}.
 * Where none exists yet, the first start creates it from what the datastore holds (so a persistent datastore of an
 * earlier version is taken over). When the start has finished it writes {@code restored} there (a summary), which
 * `make up` waits for.
 */
@Component(service = ConfigurationStore.class, immediate = true)
public final class ConfigurationStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigurationStore.class);
    private static final long DATASTORE_TIMEOUT_SECONDS = 120;
    /** How long the start waits for the datastore to call the cohorts just registered. */
    private static final long REGISTRATION_WAIT_MILLIS = 10_000;

    private final StoreFiles files;
    private final StoredConfiguration stored;
    private final List<Registration> registrations = new ArrayList<>();
    /**
     * Commits the cohorts have been asked about, or the listeners told of: the proof that the registrations took
     * effect (in a cluster, only the shard leader's cohorts are asked).
     */
    private final AtomicLong asked = new AtomicLong();
    /** While the stored configuration is put back: writes other than that are refused. */
    private volatile boolean restoring;

    @Activate
    public ConfigurationStore(@Reference final DOMDataBroker broker,
            @Reference final BindingNormalizedNodeSerializer codec, @Reference final ActorSystemProvider actorSystem)
            throws IOException {
        this(broker, List.of(
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Programs.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Switches.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Nodes.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(SynGuards.class).build())), directory(),
            ClusterMember.name(actorSystem));
    }

    @SuppressWarnings("checkstyle:IllegalCatch")         // closes what it opened, whatever stops the start
    ConfigurationStore(final DOMDataBroker broker, final List<YangInstanceIdentifier> roots, final Path dir,
            final String member) throws IOException {
        stored = new StoredConfiguration(roots);
        files = StoreFiles.open(dir);
        final var cohorts = broker.extension(DOMDataBroker.CommitCohortExtension.class);
        final var listeners = broker.extension(DOMDataBroker.DataTreeChangeExtension.class);
        if (cohorts == null || listeners == null) {
            files.close();
            throw new IOException("the datastore takes no commit cohorts or listeners: the Oko configuration store "
                + "cannot work");
        }
        final List<String> summary = new ArrayList<>();
        try {
            final boolean created = files.created();
            if (!created) {
                load(dir, summary);
            }
            // Whether the datastore holds the configuration already: in a cluster whose other members kept it
            // while this one was down, it is newer than anything in this member's files.
            final Optional<Marker> marker = claim(broker, member);
            if (marker.isEmpty() && !created) {
                restoring = true;
            }
            for (YangInstanceIdentifier root : roots) {
                registrations.add(cohorts.registerCommitCohort(DOMDataTreeIdentifier.of(CONFIGURATION, root),
                    new Cohort(root)));
                // A commit cohort is called on the member that leads the datastore's shard only: changes
                // committed while another member leads reach this member's files through this listener.
                registrations.add(listeners.registerTreeChangeListener(DOMDataTreeIdentifier.of(CONFIGURATION, root),
                    new Follower(root)));
            }
            if (marker.isPresent()) {
                adopt(broker, dir, awaitRestored(broker, marker.orElseThrow()), created, summary);
            } else if (created) {
                takeOver(broker, summary);
            } else {
                restore(broker, dir, summary);
            }
            if (marker.isEmpty()) {
                mark(broker, member, Marker.RESTORED, String.join("; ", summary));
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        } finally {
            restoring = false;
        }
        final String line = String.join("; ", summary);
        Files.writeString(dir.resolve("restored"), Instant.now() + " " + line + "\n", StandardCharsets.UTF_8);
        LOG.info("Oko configuration store {}: {}", dir, line);
    }

    /** The operational /oko:configuration-store: who put the configuration back into the datastore. */
    record Marker(String restoredBy, String state, String summary) {
        static final String RESTORING = "restoring";
        static final String RESTORED = "restored";
    }

    private static final QName MARKER = QName.create(Programs.QNAME, "configuration-store").intern();
    private static final QName RESTORED_BY = QName.create(MARKER, "restored-by").intern();
    private static final QName RESTORED_AT = QName.create(MARKER, "restored-at").intern();
    private static final QName STATE = QName.create(MARKER, "state").intern();
    private static final QName SUMMARY = QName.create(MARKER, "summary").intern();
    private static final YangInstanceIdentifier MARKER_PATH = YangInstanceIdentifier.of(MARKER);
    private static final int CLAIM_ATTEMPTS = 10;

    /**
     * Claims the restore: empty when this member is to put its stored configuration back (the datastore started
     * empty: a single controller, or a whole cluster starting), else the marker of the member that did or does.
     * Members starting together race for the marker in a read-write transaction; one wins, the others read it.
     * A marker this member left while restoring (it stopped before it finished) is claimed again.
     */
    private static Optional<Marker> claim(final DOMDataBroker broker, final String member) throws IOException {
        for (int attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
            final var tx = broker.newReadWriteTransaction();
            final Optional<Marker> marker = readMarker(tx.read(LogicalDatastoreType.OPERATIONAL, MARKER_PATH));
            if (marker.isPresent() && !(marker.orElseThrow().restoredBy().equals(member)
                    && Marker.RESTORING.equals(marker.orElseThrow().state()))) {
                tx.cancel();
                return marker;
            }
            tx.put(LogicalDatastoreType.OPERATIONAL, MARKER_PATH, marker(member, Marker.RESTORING, ""));
            try {
                tx.commit().get(DATASTORE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                return Optional.empty();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof OptimisticLockFailedException)) {
                    throw new IOException("could not write " + MARKER_PATH + ": " + e.getCause(), e);
                }
                LOG.debug("Another member claimed the restore at the same moment: reading its claim", e);
            } catch (TimeoutException e) {
                throw new IOException("the datastore did not commit within " + DATASTORE_TIMEOUT_SECONDS + " s", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while claiming the restore", e);
            }
        }
        throw new IOException("could not claim or read " + MARKER_PATH + " in " + CLAIM_ATTEMPTS + " attempts");
    }

    /** Waits until the member that claimed the restore has finished it (or gives up on it, saying so). */
    private static Marker awaitRestored(final DOMDataBroker broker, final Marker claimed) throws IOException {
        final long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(DATASTORE_TIMEOUT_SECONDS);
        Marker marker = claimed;
        while (Marker.RESTORING.equals(marker.state())) {
            if (System.currentTimeMillis() > deadline) {
                LOG.warn("{} has not finished putting the stored configuration back after {} s: taking the "
                    + "datastore as it is", marker.restoredBy(), DATASTORE_TIMEOUT_SECONDS);
                return marker;
            }
            sleep(500);
            try (var tx = broker.newReadOnlyTransaction()) {
                marker = readMarker(tx.read(LogicalDatastoreType.OPERATIONAL, MARKER_PATH)).orElse(marker);
            }
        }
        return marker;
    }

    private static Optional<Marker> readMarker(final FluentFuture<Optional<NormalizedNode>> read)
            throws IOException {
        final Optional<NormalizedNode> node;
        try {
            node = DatastoreReads.await(read, TimeUnit.SECONDS.toMillis(DATASTORE_TIMEOUT_SECONDS),
                MARKER_PATH.toString());
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e);
        }
        return node.filter(ContainerNode.class::isInstance).map(ContainerNode.class::cast).map(container ->
            new Marker(leaf(container, RESTORED_BY), leaf(container, STATE), leaf(container, SUMMARY)));
    }

    private static String leaf(final ContainerNode container, final QName name) {
        final var child = container.childByArg(new NodeIdentifier(name));
        return child == null ? "" : String.valueOf(child.body());
    }

    private static ContainerNode marker(final String member, final String state, final String summary) {
        return ImmutableNodes.newContainerBuilder()
            .withNodeIdentifier(new NodeIdentifier(MARKER))
            .withChild(ImmutableNodes.leafNode(RESTORED_BY, member))
            .withChild(ImmutableNodes.leafNode(RESTORED_AT, Instant.now().toString()))
            .withChild(ImmutableNodes.leafNode(STATE, state))
            .withChild(ImmutableNodes.leafNode(SUMMARY, summary))
            .build();
    }

    private static void mark(final DOMDataBroker broker, final String member, final String state,
            final String summary) throws IOException {
        final var tx = broker.newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.OPERATIONAL, MARKER_PATH, marker(member, state, summary));
        try {
            tx.commit().get(DATASTORE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("could not write " + MARKER_PATH, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing " + MARKER_PATH, e);
        }
    }

    /**
     * The datastore holds the configuration another member restored (or the cluster kept while this member was
     * down): it replaces what this member's files say. Files that said something else are copied aside first.
     */
    private void adopt(final DOMDataBroker broker, final Path dir, final Marker marker, final boolean created,
            final List<String> summary) throws IOException {
        final StoredConfiguration before = new StoredConfiguration(stored.roots());
        before.applyAll(stored.allUnits());
        synchronized (this) {
            for (YangInstanceIdentifier root : stored.roots()) {
                stored.apply(new Change(root, read(broker, root).orElse(null)));
            }
            if (!created && !before.sameUnits(stored)) {
                final Path aside = Files.createDirectories(dir.resolve("replaced-" + System.currentTimeMillis()));
                for (String name : List.of(StoreFiles.SNAPSHOT_FILE, StoreFiles.LOG_FILE)) {
                    if (Files.exists(dir.resolve(name))) {
                        Files.copy(dir.resolve(name), aside.resolve(name));
                    }
                }
                summary.add("this member's stored configuration differed from the cluster's and was replaced "
                    + "(the files are kept in " + aside + ")");
            }
            files.compact(stored.snapshot());
        }
        summary.add(0, "taken from the cluster's datastore (" + stored.size() + " entries; restored by "
            + marker.restoredBy() + ")");
    }

    private static Path directory() {
        final String configured = System.getProperty("oko.store.dir");
        return configured != null ? Path.of(configured)
            : Path.of(System.getProperty("karaf.home", "."), "oko-store");
    }

    /**
     * A new store: whatever the datastore holds becomes its first snapshot (the configuration an earlier version
     * kept in a persistent datastore, taken over once).
     */
    private void takeOver(final DOMDataBroker broker, final List<String> summary) throws IOException {
        for (YangInstanceIdentifier root : stored.roots()) {
            stored.apply(new Change(root, read(broker, root).orElse(null)));
        }
        files.compact(stored.snapshot());
        summary.add("created from what the datastore held (" + stored.size() + " entries)");
    }

    /**
     * Reads the snapshot and the log. A record this version cannot read (damaged, or naming a subtree it does not
     * store) is skipped, after the files are copied aside: the start goes on with everything else.
     */
    private void load(final Path dir, final List<String> summary) throws IOException {
        final List<byte[]> records = new ArrayList<>();
        if (files.snapshot() != null) {
            records.add(files.snapshot());
        }
        records.addAll(files.changes());
        int skipped = 0;
        for (byte[] record : records) {
            final List<Change> changes;
            try {
                changes = StoredConfiguration.decode(record);
            } catch (IOException | IllegalArgumentException | IllegalStateException e) {
                LOG.error("A record of the configuration store cannot be read: skipped", e);
                skipped++;
                continue;
            }
            for (Change change : changes) {
                if (stored.covers(change.path())) {
                    stored.apply(change);
                } else {
                    LOG.error("The configuration store holds {}, which this version does not store: skipped",
                        change.path());
                    skipped++;
                }
            }
        }
        if (skipped > 0) {
            final Path aside = Files.createDirectories(dir.resolve("unread-" + System.currentTimeMillis()));
            for (String name : List.of(StoreFiles.SNAPSHOT_FILE, StoreFiles.LOG_FILE)) {
                if (Files.exists(dir.resolve(name))) {
                    Files.copy(dir.resolve(name), aside.resolve(name));
                }
            }
            summary.add(skipped + " stored changes NOT read (files kept in " + aside + ")");
        }
    }

    /**
     * Puts every stored entry back into the datastore, a transaction per root, entry by entry: the cohorts log it
     * like any write, so the store keeps matching the datastore. An entry the datastore refuses (a program this
     * version's filter library refuses, for one) is written to a file beside the store, with the reason in
     * karaf.log, and dropped from the store; the others are restored.
     */
    private void restore(final DOMDataBroker broker, final Path dir, final List<String> summary) throws IOException {
        boolean confirmed = false;
        final long deadline = System.currentTimeMillis() + REGISTRATION_WAIT_MILLIS;
        for (YangInstanceIdentifier root : stored.roots()) {
            final List<Change> units = stored.units(root);
            if (units.isEmpty()) {
                continue;
            }
            final String name = root.getLastPathArgument().getNodeType().getLocalName();
            final long before = asked.get();
            if (put(broker, units) == null) {
                // Until the datastore has asked the cohorts about a commit, their registration may not have taken
                // effect: a write then would not be stored. The same puts again until it has.
                while (!confirmed && asked.get() == before && System.currentTimeMillis() < deadline) {
                    sleep(100);
                    put(broker, units);
                }
                confirmed |= asked.get() != before;
                summary.add(name + ": " + units.size() + " restored");
                continue;
            }
            final List<Change> refused = new ArrayList<>();
            for (Change unit : units) {
                final String problem = put(broker, List.of(unit));
                if (problem != null) {
                    refused.add(unit);
                    LOG.error("Could not restore {} from the configuration store: {}", unit.path(), problem);
                }
            }
            final Path aside = dir.resolve("refused-" + name + "-" + System.currentTimeMillis());
            Files.write(aside, StoredConfiguration.encode(refused));
            synchronized (this) {
                final List<Change> removal = refused.stream().map(unit -> new Change(unit.path(), null)).toList();
                files.append(StoredConfiguration.encode(removal));
                stored.applyAll(removal);
            }
            summary.add(name + ": " + (units.size() - refused.size()) + " restored, " + refused.size()
                + " NOT restored (refused by the datastore, see karaf.log; kept in " + aside + ")");
        }
        if (summary.isEmpty()) {
            summary.add("nothing stored");
        }
        if (!confirmed && stored.size() > 0) {
            LOG.warn("The datastore did not call the configuration store's cohorts within {} ms of their "
                + "registration", REGISTRATION_WAIT_MILLIS);
        }
    }

    /** Puts {@code units} in one transaction; null when it committed, else why not. */
    private static String put(final DOMDataBroker broker, final List<Change> units) throws IOException {
        final var tx = broker.newWriteOnlyTransaction();
        units.forEach(unit -> tx.put(CONFIGURATION, unit.path(), unit.data()));
        try {
            tx.commit().get(DATASTORE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
        } catch (TimeoutException e) {
            throw new IOException("the datastore did not commit within " + DATASTORE_TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while restoring the configuration", e);
        }
    }

    private static void sleep(final long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while restoring the configuration", e);
        }
    }

    private static Optional<NormalizedNode> read(final DOMDataBroker broker, final YangInstanceIdentifier path)
            throws IOException {
        try (var tx = broker.newReadOnlyTransaction()) {
            return DatastoreReads.await(tx.read(CONFIGURATION, path), TimeUnit.SECONDS.toMillis(
                DATASTORE_TIMEOUT_SECONDS), path.toString());
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** While restoring: whether a commit only puts back what the store holds (the restore's own). */
    private synchronized boolean isRestore(final List<Change> changes) {
        return changes.stream().allMatch(change -> Objects.equals(stored.unit(change.path()), change.data()));
    }

    /** Stores the changes the stored model does not hold yet. */
    private synchronized void writeNew(final List<Change> changes) throws IOException {
        final List<Change> fresh = changes.stream().filter(change -> !stored.holds(change)).toList();
        if (!fresh.isEmpty()) {
            write(fresh);
        }
    }

    /** Forces {@code changes} to the log (the durability point), then takes them into the stored model. */
    private synchronized void write(final List<Change> changes) throws IOException {
        files.append(StoredConfiguration.encode(changes));
        stored.applyAll(changes);
        if (files.wantsCompaction()) {
            try {
                files.compact(stored.snapshot());
            } catch (IOException e) {
                // The change itself is in the log: the commit goes on, the next change tries again.
                LOG.warn("Could not write a new snapshot of the configuration store", e);
            }
        }
    }

    @Deactivate
    @Override
    public synchronized void close() {
        registrations.forEach(Registration::close);
        registrations.clear();
        try {
            files.close();
        } catch (IOException e) {
            LOG.warn("Could not close the configuration store", e);
        }
    }

    /**
     * Keeps this member's files in line with changes committed while another member leads the shard (its cohort
     * is the one called). A change this member's cohort stored already is not written again.
     */
    private final class Follower implements DOMDataTreeChangeListener {
        private final YangInstanceIdentifier root;

        Follower(final YangInstanceIdentifier root) {
            this.root = root;
        }

        @Override
        public void onDataTreeChanged(final List<DataTreeCandidate> candidates) {
            // The datastore has told this member about a commit: what restore() waits for.
            asked.incrementAndGet();
            final List<Change> changes = new ArrayList<>();
            for (DataTreeCandidate candidate : candidates) {
                changes.addAll(StoredConfiguration.changes(candidate.getRootPath(), candidate.getRootNode()));
            }
            try {
                writeNew(changes);
            } catch (IOException e) {
                LOG.error("Could not store a change of {} committed through another member: this member's "
                    + "files miss it until it restarts with the cluster running", root, e);
            }
        }

        @Override
        public void onInitialData() {
            // The start took the configuration over already.
        }
    }

    /** The store's commit cohort for one root. */
    private final class Cohort implements DOMDataTreeCommitCohort {
        private final YangInstanceIdentifier root;

        Cohort(final YangInstanceIdentifier root) {
            this.root = root;
        }

        @Override
        public FluentFuture<PostCanCommitStep> canCommit(final Object txId, final EffectiveModelContext ctx,
                final Collection<DOMDataTreeCandidate> candidates) {
            asked.incrementAndGet();
            final List<Change> changes = new ArrayList<>();
            final List<Change> undo = new ArrayList<>();
            for (DOMDataTreeCandidate candidate : candidates) {
                final YangInstanceIdentifier path = candidate.getRootPath().path();
                changes.addAll(StoredConfiguration.changes(path, candidate.getRootNode()));
                undo.addAll(StoredConfiguration.undo(path, candidate.getRootNode()));
            }
            if (changes.isEmpty()) {
                return PostCanCommitStep.NOOP_SUCCESSFUL_FUTURE;
            }
            if (restoring && !isRestore(changes)) {
                return FluentFutures.immediateFailedFluentFuture(new DataValidationFailedException(
                    YangInstanceIdentifier.class, root, "Oko is putting the stored configuration back into the "
                        + "datastore (a start): try again in a few seconds"));
            }
            return FluentFutures.immediateFluentFuture(new PostCanCommitStep() {
                @Override
                public ListenableFuture<? extends PostPreCommitStep> preCommit() {
                    try {
                        write(changes);
                    } catch (IOException e) {
                        LOG.error("Could not store a change of {}: the write is refused", root, e);
                        return Futures.immediateFailedFuture(new IOException(
                            "the Oko configuration store could not write the change: " + e.getMessage(), e));
                    }
                    return Futures.immediateFuture(new PostPreCommitStep() {
                        @Override
                        public ListenableFuture<?> commit() {
                            return PostPreCommitStep.NOOP_COMMIT_FUTURE;
                        }

                        @Override
                        public ListenableFuture<?> abort() {
                            return undo(undo);
                        }
                    });
                }

                @Override
                public ListenableFuture<?> abort() {
                    return ThreePhaseCommitStep.NOOP_ABORT_FUTURE;
                }
            });
        }

        /** A commit that failed after its pre-commit: the units it changed go back to what they were. */
        private ListenableFuture<?> undo(final List<Change> undo) {
            try {
                write(undo);
            } catch (IOException e) {
                LOG.error("Could not undo an aborted change of {} in the configuration store", root, e);
            }
            return ThreePhaseCommitStep.NOOP_ABORT_FUTURE;
        }
    }
}
