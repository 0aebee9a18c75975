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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.controller.cluster.ActorSystemProvider;
import org.opendaylight.controller.cluster.datastore.DistributedDataStoreInterface;
import org.opendaylight.mdsal.common.api.DataValidationFailedException;
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
import org.opendaylight.oko.northbound.store.StoreLog.Place;
import org.opendaylight.oko.northbound.store.StoreLog.Version;
import org.opendaylight.oko.northbound.store.StoredConfiguration.Change;
import org.opendaylight.oko.northbound.store.StoredConfiguration.UnitChange;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.SynGuards;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.util.concurrent.FluentFutures;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidate;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidateNode;
import org.opendaylight.yangtools.yang.model.api.EffectiveModelContext;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
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
 * (docs/northbound.md, "Durability"). `make up` therefore runs the configuration datastore without persistence,
 * and this store is what makes the configuration durable. As a commit cohort of each subtree it forces a
 * <em>prepare</em> of every change to its log in the commit's pre-commit step and its <em>commit</em> in the commit
 * step, which the datastore runs before it answers the client: an acknowledged write is on disk, and a change the
 * datastore gave up after the pre-commit (its client got an error) is never read back ({@link StoreLog}). A change
 * that cannot be prepared fails the commit (the client gets the error, nothing is lost silently).
 *
 * <p>Fails closed: the cohorts are registered before anything else and refuse every write until the stored
 * configuration is back in the datastore; when the store cannot start (a damaged snapshot, a datastore that does
 * not answer) or can no longer record commits, they go on refusing, with the reason, until Karaf restarts.
 *
 * <p>The store's directory is {@code oko-store} in Karaf's home, or the system property {@code oko.store.dir}.
 * Where none exists yet, the first start creates it from what the datastore holds (so a persistent datastore of an
 * earlier version is taken over). When the start has finished it writes {@code restored} there (a summary), which
 * `make up` waits for.
 */
@Component(service = {}, immediate = true)
public final class ConfigurationStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigurationStore.class);
    private static final long DATASTORE_TIMEOUT_SECONDS = 120;
    /** How many times a restore commit the datastore fails on its own is tried. */
    private static final int RESTORE_ATTEMPTS = 12;
    /**
     * The free space a pre-commit leaves on the store's disk. The commit step's record (a few dozen bytes) must
     * not fail: the datastore answers the client with success whatever that step says.
     */
    static final long DEFAULT_RESERVE_BYTES = 16L << 20;
    /** What a member's cohort answers while the store starts (how a restorer learns it no longer leads). */
    static final String STARTING_REFUSAL = StartGate.STARTING;
    /** What every refusal of the store's cohorts says, whatever its reason. */
    static final String STORE_REFUSAL = "the Oko configuration store";
    /** The system property that turns the store off ({@value #OFF}; `OKO_STORE=off make up`): benchmarks only. */
    static final String SWITCH_PROPERTY = "oko.store";
    static final String OFF = "off";

    /**
     * The Raft term of the datastore shard that holds a root, as this member's replica of the shard knows it:
     * asked by the cohort of the member that leads the shard, so the term in which the commit is made.
     */
    @FunctionalInterface
    interface ShardTerms {
        long term(YangInstanceIdentifier root) throws IOException;
    }

    /** How long a catch-up listener's first notification is waited for before it is registered again. */
    static final long CATCH_UP_TIMEOUT_MILLIS = 10_000;

    /** Where the store is in its life: only RUNNING takes writes. */
    enum State { STARTING, RUNNING, FAILED }

    private final Path dir;
    private final long reserveBytes;
    private final ClusterStart.Shards shards;
    private final long pollMillis;
    private final StoredConfiguration stored;
    private final StartGate gate;
    private final DOMDataBroker dataBroker;
    private final DOMDataBroker.DataTreeChangeExtension treeListeners;
    private final String memberName;
    private final List<Registration> registrations = new CopyOnWriteArrayList<>();
    /** Per root, the listener whose notifications this member's copy follows. */
    private final Map<YangInstanceIdentifier, Follower> following = new ConcurrentHashMap<>();
    /** Per root, a listener registered to catch up as the shard's new leader, until its first notification. */
    private final Map<YangInstanceIdentifier, Follower> catchingUp = new ConcurrentHashMap<>();
    /** Per root, the term in which a catch-up was last put off for want of disk space (said once a term). */
    private final Map<YangInstanceIdentifier, Long> shortOfReserveSaid = new ConcurrentHashMap<>();
    /** Asks, in a cluster, whether this member has become a shard's leader ({@link #checkLeadership}). */
    private ScheduledExecutorService leadershipWatch;
    /** The start's own thread (the component's activation returns at once); null in tests. */
    private Thread starting;
    private ServiceRegistration<ConfigurationRestored> restoredService;
    private volatile State state = State.STARTING;
    /** Set when the component is deactivated: a start it interrupts did not fail. */
    private volatile boolean closing;
    /** Why the store refuses writes for good (state FAILED). */
    private volatile String failure;
    /** The log, once its files are read; null until then, and when they could not be. */
    private volatile StoreLog log;

    @Activate
    public ConfigurationStore(@Reference final DOMDataBroker broker,
            @Reference final BindingNormalizedNodeSerializer codec, @Reference final ActorSystemProvider actorSystem,
            @Reference(target = "(type=distributed-config)") final DistributedDataStoreInterface configDatastore,
            @Reference final StartGate gate, final BundleContext context) throws IOException {
        this(broker, roots(codec), directory(), ClusterMember.name(actorSystem),
            new DatastoreShards(configDatastore.getActorUtils(), roots(codec)), gate, DEFAULT_RESERVE_BYTES, 200,
            storeOn());
        if (!storeOn()) {
            // Off: the baseline of the durability benchmarks (the datastore as OpenDaylight runs it, nothing kept).
            LOG.warn("The Oko configuration store is OFF ({}={}): configuration writes are not kept, and nothing "
                + "written survives a restart. For benchmarks only.", SWITCH_PROPERTY, OFF);
            state = State.RUNNING;
            gate.open();
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("restored"), Instant.now() + " OFF: nothing is kept (" + SWITCH_PROPERTY
                + "=" + OFF + ", a benchmark baseline)\npid " + ProcessHandle.current().pid() + "\n",
                StandardCharsets.UTF_8);
            restoredService = context.registerService(ConfigurationRestored.class, new ConfigurationRestored() { },
                null);
            return;
        }
        // The start may wait minutes for the other members: not in the activation (see ConfigurationRestored).
        starting = new Thread(() -> {
            start();
            if (state == State.RUNNING) {
                synchronized (this) {
                    if (starting != null) {
                        restoredService = context.registerService(ConfigurationRestored.class,
                            new ConfigurationRestored() { }, null);
                    }
                }
            }
        }, "oko-store-start");
        starting.setDaemon(true);
        starting.start();
    }

    /**
     * Whether another member holds a replica of the stored subtrees' shards (then a shard's leader can be deposed
     * without knowing it, and reads go through a {@link ReadBarrier}); when the layout cannot be read, assumed so.
     */
    private boolean clustered() {
        try {
            return shards.members().stream().anyMatch(other -> !other.equals(memberName));
        } catch (IOException e) {
            LOG.warn("Could not read the members holding the configuration's shards; reads are confirmed as in a "
                + "cluster", e);
            return true;
        }
    }

    private static boolean storeOn() {
        return !OFF.equals(System.getProperty(SWITCH_PROPERTY));
    }

    private static List<YangInstanceIdentifier> roots(final BindingNormalizedNodeSerializer codec) {
        return List.of(
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Programs.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Switches.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Nodes.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(SynGuards.class).build()));
    }

    /**
     * Registers the cohorts, which refuse every write until {@link #start} has finished.
     */
    ConfigurationStore(final DOMDataBroker broker, final List<YangInstanceIdentifier> roots, final Path dir,
            final String member, final ClusterStart.Shards shards, final StartGate gate, final long reserveBytes,
            final long pollMillis) throws IOException {
        this(broker, roots, dir, member, shards, gate, reserveBytes, pollMillis, true);
    }

    private ConfigurationStore(final DOMDataBroker broker, final List<YangInstanceIdentifier> roots, final Path dir,
            final String member, final ClusterStart.Shards shards, final StartGate gate, final long reserveBytes,
            final long pollMillis, final boolean on) throws IOException {
        this.dir = dir;
        this.gate = gate;
        this.reserveBytes = reserveBytes;
        this.shards = shards;
        this.pollMillis = pollMillis;
        dataBroker = broker;
        memberName = member;
        stored = new StoredConfiguration(roots);
        final var cohorts = broker.extension(DOMDataBroker.CommitCohortExtension.class);
        treeListeners = broker.extension(DOMDataBroker.DataTreeChangeExtension.class);
        if (cohorts == null || treeListeners == null) {
            throw new IOException("the datastore takes no commit cohorts or listeners: the Oko configuration store "
                + "cannot work");
        }
        if (!on) {
            return;
        }
        for (YangInstanceIdentifier root : roots) {
            registrations.add(cohorts.registerCommitCohort(DOMDataTreeIdentifier.of(CONFIGURATION, root),
                new Cohort(root)));
        }
    }

    /**
     * Reads the files and puts the configuration back. A start that fails leaves the store FAILED: the cohorts
     * stay and refuse every write with the reason, rather than let the datastore take writes nothing keeps.
     */
    @SuppressWarnings("checkstyle:IllegalCatch")         // whatever stops the start, the store fails closed
    void start() {
        try {
            restore(dataBroker, treeListeners, memberName);
        } catch (IOException | RuntimeException e) {
            fail("it did not start: " + e.getMessage());
            if (closing) {
                // Karaf stops (or restarts: a member the cluster downed) while the start waits: nothing failed.
                LOG.info("The Oko configuration store in {} stopped before its start had finished ({})", dir,
                    e.getMessage());
            } else {
                LOG.error("The Oko configuration store in {} did not start: configuration writes are refused until "
                    + "it does (restart Karaf once the cause is fixed)", dir, e);
            }
        }
    }

    /** Sets the clock the running store's log tells the age of its records by (tests). */
    void clock(final LongSupplier nanos) {
        log.clock(nanos);
    }

    /** How recent this member's copy of the subtree holding {@code path} is (tests). */
    Version copyVersion(final YangInstanceIdentifier path) {
        final StoreLog current = log;
        return current == null ? Version.NONE : current.version(stored.rootOf(path));
    }

    /** The store's state: RUNNING once the configuration is back, FAILED when it refuses writes for good. */
    State state() {
        return state;
    }

    private void fail(final String why) {
        failure = why;
        state = State.FAILED;
        // The gate answers before authentication: the reason itself (paths, exceptions) is not in its answer.
        gate.failed("the Oko configuration store did not start (the reason is in karaf.log, ConfigurationStore, and "
            + "in the error of any configuration write; restart Karaf once the cause is fixed)");
        closeLog();
    }

    private void closeLog() {
        final StoreLog current = log;
        if (current != null) {
            try {
                current.close();
            } catch (IOException e) {
                LOG.warn("Could not close the configuration store", e);
            }
        }
    }

    @SuppressWarnings("checkstyle:IllegalCatch")         // closes the files it opened, whatever stops the read
    private void restore(final DOMDataBroker broker, final DOMDataBroker.DataTreeChangeExtension listeners,
            final String member) throws IOException {
        final StoreFiles files = StoreFiles.open(dir);
        final StoreLog.Loaded loaded;
        try {
            loaded = StoreLog.open(files, stored);
        } catch (RuntimeException e) {
            files.close();
            throw e;
        }
        log = loaded.log();
        final List<String> summary = new ArrayList<>();
        if (loaded.unreadable() > 0) {
            summary.add(loaded.unreadable() + " stored changes NOT read (files kept in " + copyAside("unread-")
                + ")");
        }
        // What this member's files said before anything of the cluster's reached them: the copy kept aside when
        // the configuration the cluster starts with differs.
        final StoredConfiguration before = new StoredConfiguration(stored.roots());
        before.applyAll(stored.allUnits());
        for (YangInstanceIdentifier root : stored.roots()) {
            // A commit cohort is called on the member that leads the datastore's shard only: changes committed
            // while another member leads reach this member's files through this listener.
            final Follower follower = new Follower(root, 0);
            log.listenWith(root, follower);
            following.put(root, follower);
            follower.registration = listeners.registerTreeChangeListener(DOMDataTreeIdentifier.of(CONFIGURATION,
                root), follower);
        }

        final Map<String, Version> versions = new LinkedHashMap<>();
        for (YangInstanceIdentifier root : stored.roots()) {
            versions.put(ClusterStart.name(root), log.version(root));
        }
        final ClusterStart.Outcome outcome = new ClusterStart(broker, shards, member, dir, stored.roots(),
            pollMillis).run(!loaded.created(), versions, root -> restoreRoot(broker, root, summary));

        // The configuration the cluster starts with is in the datastore now: this member's copy becomes it.
        log.begin(outcome.life());
        log.adopt(() -> readRoots(broker));
        final StoredConfiguration after = new StoredConfiguration(stored.roots());
        after.applyAll(log.read(StoredConfiguration::allUnits));
        if (!loaded.created() && !before.sameUnits(after) && !outcome.restored().keySet().containsAll(
                stored.roots().stream().map(ClusterStart::name).toList())) {
            final Path aside = Files.createDirectories(dir.resolve("replaced-" + System.currentTimeMillis()));
            try (StoreFiles copy = StoreFiles.open(aside)) {
                copy.compact(StoredConfiguration.encode(before.allUnits()));
            }
            summary.add("this member's stored configuration differed from the one the cluster started with and "
                + "was replaced (its copy is kept in " + aside + ")");
        }
        if (outcome.restored().isEmpty()) {
            summary.add(0, (outcome.joined() ? "taken from the cluster's datastore" : "taken from the datastore "
                + (outcome.restorers().isEmpty() ? "(no member had a stored copy)" : "(restored by "
                    + String.join(", ", new java.util.TreeSet<>(outcome.restorers().values())) + ")"))
                + " (" + log.read(StoredConfiguration::size) + " entries; life " + outcome.life() + ")");
        } else if (summary.isEmpty()) {
            summary.add("nothing stored");
        }
        state = State.RUNNING;
        final boolean clustered = clustered();
        gate.open(clustered ? new ReadBarrier(dataBroker, stored.roots()) : null);
        if (clustered) {
            watchLeadership();
        }
        final String line = String.join("; ", summary);
        // The second line names this JVM: a member that restarts itself (exit 10, as a downed one does) leaves the
        // file of its former JVM behind, which `make up` must not take for this start's.
        Files.writeString(dir.resolve("restored"), Instant.now() + " " + line + "\npid " + ProcessHandle.current().pid()
            + "\n", StandardCharsets.UTF_8);
        LOG.info("Oko configuration store {}: {}", dir, line);
    }

    /** Copies the store's files into a new directory {@code prefix<time>} beside them; returns it. */
    private Path copyAside(final String prefix) throws IOException {
        final Path aside = Files.createDirectories(dir.resolve(prefix + System.currentTimeMillis()));
        for (String name : List.of(StoreFiles.SNAPSHOT_FILE, StoreFiles.LOG_FILE)) {
            if (Files.exists(dir.resolve(name))) {
                Files.copy(dir.resolve(name), aside.resolve(name));
            }
        }
        return aside;
    }

    /**
     * Puts back the stored entries of {@code root} that the datastore does not hold, in one transaction: this
     * member leads the root's shard, and its cohort lets only these writes through while the store starts. An
     * entry the datastore holds already was written before this member's cohorts took effect (or by a restorer
     * that stopped midway): newer than the stored one, it is kept. An entry the datastore refuses (a program this
     * version's filter library refuses, for one) is written to a file beside the store, with the reason in
     * karaf.log, and dropped from the store; the others are restored.
     */
    private int restoreRoot(final DOMDataBroker broker, final YangInstanceIdentifier root, final List<String> summary)
            throws IOException {
        final String name = ClusterStart.name(root);
        final StoredConfiguration held = new StoredConfiguration(stored.roots());
        read(broker, root).ifPresent(data -> held.apply(new Change(root, data)));
        // By entry under the root: a node the datastore holds is kept as it is there, flows and all.
        final List<Change> missing = log.read(config -> config.units(root)).stream()
            .filter(unit -> held.unit(held.outerPath(unit.path())) == null).toList();
        if (missing.isEmpty()) {
            summary.add(name + ": nothing to restore");
            return 0;
        }
        final String problem = putRetried(broker, missing);
        if (problem == null) {
            summary.add(name + ": " + missing.size() + " restored");
            return missing.size();
        }
        notAboutTheData(problem, name);
        // Entry by entry (an entry with the units inside it: the cohort recognises its own restore by whole entries).
        final Map<YangInstanceIdentifier, List<Change>> entries = new LinkedHashMap<>();
        for (Change unit : missing) {
            entries.computeIfAbsent(held.outerPath(unit.path()), key -> new ArrayList<>()).add(unit);
        }
        final List<Change> refused = new ArrayList<>();
        for (var entry : entries.entrySet()) {
            final String why = putRetried(broker, entry.getValue());
            if (why != null) {
                notAboutTheData(why, name);
                refused.addAll(entry.getValue());
                LOG.error("Could not restore {} from the configuration store: {}", entry.getKey(), why);
            }
        }
        final Path aside = dir.resolve("refused-" + name + "-" + System.currentTimeMillis());
        Files.write(aside, StoredConfiguration.encode(refused));
        log.record(refused.stream().map(unit -> new Change(unit.path(), null)).toList());
        summary.add(name + ": " + (missing.size() - refused.size()) + " restored, " + refused.size()
            + " NOT restored (refused by the datastore, see karaf.log; kept in " + aside + ")");
        return missing.size() - refused.size();
    }

    /**
     * Throws when a restore's write was refused by a configuration store (this member's, or another's that leads
     * the shard now: starting, or failed) rather than for its data: such a refusal says nothing about the entries,
     * and none may be dropped for it. The restore is tried again.
     */
    private static void notAboutTheData(final String problem, final String name) throws IOException {
        if (problem.contains(STARTING_REFUSAL)) {
            throw new ClusterStart.LeadershipLostException("another member leads the shard of " + name);
        }
        if (problem.contains(STORE_REFUSAL)) {
            throw new IOException("the member leading the shard of " + name + " refuses the restore: " + problem);
        }
    }

    private static Path directory() {
        final String configured = System.getProperty("oko.store.dir");
        return configured != null ? Path.of(configured)
            : Path.of(System.getProperty("karaf.home", "."), "oko-store");
    }

    /** What the datastore holds under every stored root, as changes that make the store hold the same. */
    private List<Change> readRoots(final DOMDataBroker broker) throws IOException {
        final List<Change> held = new ArrayList<>();
        for (YangInstanceIdentifier root : stored.roots()) {
            held.add(new Change(root, read(broker, root).orElse(null)));
        }
        return held;
    }

    /**
     * {@link #put}, tried again when the datastore fails the commit on its own (not a verdict on the data): seen at a
     * whole-cluster start, "Store tree ... and candidate base ... differ" in can-commit while another member restored
     * another subtree of the same shard. Without it the store would refuse every write until Karaf restarts, and
     * the other members would wait for its copy. A put is idempotent: one that committed after all is put again
     * harmlessly. {@link #RESTORE_ATTEMPTS} tries, {@code pollMillis} x 25 apart (5 s with Karaf).
     */
    private String putRetried(final DOMDataBroker broker, final List<Change> units) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return put(broker, units);
            } catch (IOException e) {
                if (attempt >= RESTORE_ATTEMPTS || Thread.currentThread().isInterrupted()) {
                    throw e;
                }
                LOG.warn("A restore commit failed (attempt {} of {}), trying again: {}", attempt, RESTORE_ATTEMPTS,
                    e.getMessage());
                try {
                    Thread.sleep(pollMillis * 25);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    interrupted.addSuppressed(e);
                    throw new IOException("interrupted while restoring the configuration", interrupted);
                }
            }
        }
    }

    /**
     * Puts {@code units} in one transaction: null when it committed, why not when the datastore refused it (a
     * cohort's or the schema's verdict on the data); any other failure (no shard leader, a timeout, a member
     * stopping) is thrown: the restore is not over, and nothing is dropped from the store for it.
     */
    private static String put(final DOMDataBroker broker, final List<Change> units) throws IOException {
        final var tx = broker.newWriteOnlyTransaction();
        units.forEach(unit -> tx.put(CONFIGURATION, unit.path(), unit.data()));
        try {
            tx.commit().get(DATASTORE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (isRefusal(cause)) {
                    return cause.getMessage();
                }
            }
            throw new IOException("the datastore did not take the restored entries: " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new IOException("the datastore did not commit within " + DATASTORE_TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while restoring the configuration", e);
        }
    }

    /** A cohort's verdict on the data (mdsal's), or the schema's (yangtools'). */
    private static boolean isRefusal(final Throwable cause) {
        return cause instanceof DataValidationFailedException
            || cause instanceof org.opendaylight.yangtools.yang.data.tree.api.DataValidationFailedException;
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


    @Deactivate
    @Override
    public void close() {
        final Thread start;
        synchronized (this) {
            start = starting;
            starting = null;
            if (restoredService != null) {
                restoredService.unregister();
                restoredService = null;
            }
        }
        closing = true;
        if (start != null && start.isAlive()) {
            start.interrupt();
            try {
                start.join(TimeUnit.SECONDS.toMillis(DATASTORE_TIMEOUT_SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closeRegistrations();
    }

    private synchronized void closeRegistrations() {
        if (leadershipWatch != null) {
            leadershipWatch.shutdownNow();
            leadershipWatch = null;
        }
        registrations.forEach(Registration::close);
        registrations.clear();
        for (Map<YangInstanceIdentifier, Follower> followers : List.of(following, catchingUp)) {
            followers.values().forEach(Follower::close);
            followers.clear();
        }
        closeLog();
        // A Karaf that restarts by itself (a member the cluster downed) must not look restored to `make up`
        // before its next start has put the configuration back.
        try {
            Files.deleteIfExists(dir.resolve("restored"));
        } catch (IOException e) {
            LOG.warn("Could not delete {}", dir.resolve("restored"), e);
        }
    }

    /**
     * Asks every poll interval (200 ms) whether this member has become the leader of a stored subtree's
     * shard in a term its cohort has committed nothing in ({@link StoreLog#leaderCatchUp} says why that matters).
     */
    private synchronized void watchLeadership() {
        if (leadershipWatch != null) {
            return;
        }
        leadershipWatch = Executors.newSingleThreadScheduledExecutor(task -> {
            final Thread thread = new Thread(task, "oko-store-leadership");
            thread.setDaemon(true);
            return thread;
        });
        leadershipWatch.scheduleWithFixedDelay(this::checkLeadership, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * For each stored subtree whose shard this member leads in a term its copy has no commit of: registers a new
     * listener, whose first notification is the subtree as the leader holds it (every change of the earlier
     * terms applied), and takes it as the copy's catch-up in the term ({@link Follower#onDataTreeChanged}). A
     * registration whose first notification has not come in {@link #CATCH_UP_TIMEOUT_MILLIS} is given up and
     * tried again. Not while the disk holding the store is short of its reserve (a catch-up writes the whole
     * subtree): tried again at each poll, said once a term.
     */
    @SuppressWarnings("checkstyle:IllegalCatch")         // the watch goes on whatever one check meets
    void checkLeadership() {
        final StoreLog current = log;
        if (current == null || state != State.RUNNING || closing) {
            return;
        }
        for (YangInstanceIdentifier root : stored.roots()) {
            try {
                final Follower inFlight = catchingUp.get(root);
                if (inFlight != null) {
                    if (System.nanoTime() - inFlight.registeredNanos < TimeUnit.MILLISECONDS.toNanos(
                            CATCH_UP_TIMEOUT_MILLIS) || !inFlight.giveUp()) {
                        continue;
                    }
                    LOG.warn("This member leads the shard of {} in term {}, and the listener registered to take the "
                        + "subtree as it holds it was not told in {} s: registered again", root,
                        inFlight.leaderTerm, CATCH_UP_TIMEOUT_MILLIS / 1000);
                    catchingUp.remove(root, inFlight);
                }
                final OptionalLong term = shards.leadingTerm(root);
                if (term.isEmpty() || !current.needsCatchUp(root, term.getAsLong())) {
                    continue;
                }
                final long free = Files.getFileStore(dir).getUsableSpace();
                if (free < reserveBytes) {
                    final Long said = shortOfReserveSaid.put(root, term.getAsLong());
                    if (said == null || said != term.getAsLong()) {
                        LOG.warn("This member leads the shard of {} in term {}, and its copy cannot catch up: the disk "
                            + "holding {} has {} MiB free, less than the {} MiB the store keeps in reserve", root,
                            term.getAsLong(), dir, free >> 20, reserveBytes >> 20);
                    }
                    continue;
                }
                final Follower follower = new Follower(root, term.getAsLong());
                catchingUp.put(root, follower);
                final Registration registration = treeListeners.registerTreeChangeListener(
                    DOMDataTreeIdentifier.of(CONFIGURATION, root), follower);
                follower.registered(registration);
                if (closing) {
                    follower.close();
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("Could not check whether this member leads the shard of {}", root, e);
            }
        }
    }

    /**
     * Keeps this member's files in line with changes committed while another member leads the shard (its cohort
     * is the one called). A commit this member's cohort stored already is not written again ({@link StoreLog}).
     * One registered when this member became the shard's leader ({@code leaderTerm} > 0) first takes the subtree
     * as its first notification tells it as the copy's catch-up in that term, and then replaces the former one.
     */
    private final class Follower implements DOMDataTreeChangeListener {
        private final YangInstanceIdentifier root;
        private final long leaderTerm;
        private final long registeredNanos = System.nanoTime();
        /** Whether the first notification has come (always, for the start's listener). */
        private boolean told;
        /** Whether its catch-up was taken: it is followed from then on. */
        private boolean caughtUp;
        private boolean closed;
        private Registration registration;

        Follower(final YangInstanceIdentifier root, final long leaderTerm) {
            this.root = root;
            this.leaderTerm = leaderTerm;
            told = leaderTerm == 0;
        }

        /** The registration, once the broker returns it (the first notification may have come before). */
        synchronized void registered(final Registration made) {
            registration = made;
            if (closed) {
                made.close();
            }
        }

        synchronized void close() {
            closed = true;
            if (registration != null) {
                registration.close();
            }
        }

        /** Closes a catch-up listener whose first notification did not come in time, unless it was taken. */
        synchronized boolean giveUp() {
            if (caughtUp) {
                return false;
            }
            close();
            return true;
        }

        @Override
        public void onDataTreeChanged(final List<DataTreeCandidate> candidates) {
            final StoreLog current = log;
            if (current == null || state == State.FAILED || closing) {
                return;
            }
            List<DataTreeCandidate> later = candidates;
            if (!firstTold()) {
                final DataTreeCandidate first = candidates.get(0);
                if (!first.getRootPath().equals(root) || !catchUp(current, first.getRootNode().dataAfter())) {
                    return;
                }
                later = candidates.subList(1, candidates.size());
            }
            try {
                for (DataTreeCandidate candidate : later) {
                    current.notifiedTo(this, root, candidate.getRootPath().equals(root)
                        ? placeOf(candidate.getRootNode()) : Place.UNKNOWN,
                        StoredConfiguration.unitChanges(candidate.getRootPath(), candidate.getRootNode()));
                }
            } catch (IOException e) {
                fail("it could not record a change of " + root + " committed through another member ("
                    + e.getMessage() + ")");
                LOG.error("Could not store a change of {} committed through another member: configuration writes "
                    + "are refused until Karaf restarts", root, e);
            }
        }

        @Override
        public void onInitialData() {
            // The start's listener: the start took the configuration over already.
            final StoreLog current = log;
            if (current != null && state != State.FAILED && !closing && !firstTold()) {
                catchUp(current, null);
            }
        }

        private synchronized boolean firstTold() {
            final boolean was = told;
            told = true;
            return was;
        }

        /**
         * Takes {@code data} as the catch-up; if it is taken this listener replaces the former, else it goes (the
         * watch registers another at a later poll if the copy still needs one). A catch-up that cannot be
         * written fails no write: it is tried again.
         */
        @SuppressWarnings("checkstyle:IllegalCatch")     // whatever stops it, this listener goes, the copy stays
        private boolean catchUp(final StoreLog current, final @Nullable NormalizedNode data) {
            Follower former = null;
            boolean took = false;
            try {
                synchronized (this) {
                    if (!closed) {
                        // One swap at a time: the log's followed listener and this map say the same.
                        synchronized (following) {
                            took = current.leaderCatchUp(root, this, leaderTerm, data);
                            if (took) {
                                caughtUp = true;
                                former = following.put(root, this);
                            }
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("This member leads the shard of {} in term {}, and could not write its copy's catch-up: "
                    + "tried again", root, leaderTerm, e);
            } finally {
                catchingUp.remove(root, this);
            }
            if (!took) {
                close();
                return false;
            }
            if (former != null) {
                former.close();
            }
            LOG.info("This member leads the shard of {} in term {}: its copy took the subtree as the leader holds "
                + "it, and ranks as the newest from now on", root, leaderTerm);
            return true;
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
            final List<UnitChange> changes = new ArrayList<>();
            Place place = Place.UNKNOWN;
            for (DOMDataTreeCandidate candidate : candidates) {
                changes.addAll(StoredConfiguration.unitChanges(candidate.getRootPath().path(),
                    candidate.getRootNode()));
                if (candidate.getRootPath().path().equals(root)) {
                    place = placeOf(candidate.getRootNode());
                }
            }
            if (changes.isEmpty()) {
                return PostCanCommitStep.NOOP_SUCCESSFUL_FUTURE;
            }
            final State now = state;
            if (now == State.FAILED) {
                return refuse(STORE_REFUSAL + " refuses configuration writes: " + failure
                    + " (see karaf.log)");
            }
            final StoreLog current = log;
            if (now == State.STARTING) {
                if (current == null || !current.read(config -> isRestore(config, changes))) {
                    return refuse(STARTING_REFUSAL + " (a start): try again in a few seconds");
                }
                // The restore's own write: the store holds it already.
                return FluentFutures.immediateFluentFuture(new Step(current, changes, 0, place, true));
            }
            final long term;
            try {
                term = shards.term(root);
            } catch (IOException e) {
                LOG.warn("Could not read the Raft term of the shard holding {}: the write is refused", root, e);
                return refuse(STORE_REFUSAL + " could not read the datastore shard's term ("
                    + e.getMessage() + "): try again");
            }
            return FluentFutures.immediateFluentFuture(new Step(current, changes, term, place, false));
        }

        private FluentFuture<PostCanCommitStep> refuse(final String message) {
            return FluentFutures.immediateFailedFluentFuture(new DataValidationFailedException(
                YangInstanceIdentifier.class, root, message));
        }

        /** One commit's steps: prepare forced in the pre-commit, commit forced in the commit step. */
        private final class Step implements PostCanCommitStep, PostPreCommitStep {
            private final StoreLog storeLog;
            private final List<UnitChange> changes;
            private final long term;
            private final Place place;
            private final boolean held;
            private StoreLog.Prepared prepared;

            Step(final StoreLog storeLog, final List<UnitChange> changes, final long term, final Place place,
                    final boolean held) {
                this.storeLog = storeLog;
                this.changes = changes;
                this.term = term;
                this.place = place;
                this.held = held;
            }

            @Override
            public ListenableFuture<? extends PostPreCommitStep> preCommit() {
                if (held) {
                    return Futures.immediateFuture(this);
                }
                try {
                    final long free = Files.getFileStore(dir).getUsableSpace();
                    if (free < reserveBytes) {
                        throw new IOException("the disk holding " + dir + " has " + (free >> 20) + " MiB free, "
                            + "less than the " + (reserveBytes >> 20) + " MiB the store keeps in reserve");
                    }
                    prepared = storeLog.prepare(root, term, place, changes);
                } catch (IOException e) {
                    LOG.error("Could not store a change of {}: the write is refused", root, e);
                    return Futures.immediateFailedFuture(new IOException(
                        "the Oko configuration store could not write the change: " + e.getMessage(), e));
                }
                return Futures.immediateFuture(this);
            }

            @Override
            public ListenableFuture<?> commit() {
                if (held) {
                    storeLog.alreadyStored(root, place, changes);
                    return PostPreCommitStep.NOOP_COMMIT_FUTURE;
                }
                try {
                    storeLog.commit(prepared);
                } catch (IOException | IllegalStateException e) {
                    // The datastore answers its client with success whatever this step says: the store cannot
                    // promise the next write, so it takes none.
                    fail("it could not record the commit of an acknowledged change of " + root + " ("
                        + e.getMessage() + ")");
                    LOG.error("Could not record the commit of a change of {}: configuration writes are refused "
                        + "until Karaf restarts", root, e);
                }
                return PostPreCommitStep.NOOP_COMMIT_FUTURE;
            }

            @Override
            public ListenableFuture<?> abort() {
                if (prepared != null) {
                    try {
                        storeLog.abort(prepared);
                    } catch (IOException e) {
                        // Without its commit, the prepare is never read back: the abort only tidies the log.
                        LOG.warn("Could not record the abort of a change of {}", root, e);
                    }
                }
                return ThreePhaseCommitStep.NOOP_ABORT_FUTURE;
            }
        }
    }

    /**
     * Where a commit stands in the datastore's order of {@code root} ({@link Place}): the root's node before and
     * after it, as the candidate of a cohort or listener registered at the root holds them.
     */
    private static Place placeOf(final DataTreeCandidateNode node) {
        return new Place(node.dataBefore(), node.dataAfter());
    }

    /** While the store starts: whether a commit only puts back what the store holds (the restore's own). */
    private static boolean isRestore(final StoredConfiguration config, final List<UnitChange> changes) {
        return changes.stream().allMatch(change -> change.after() != null
            && Objects.equals(config.subtree(change.path()), change.after()));
    }
}
