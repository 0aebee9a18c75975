/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.SettableFuture;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.common.api.OptimisticLockFailedException;
import org.opendaylight.oko.northbound.DatastoreReads;
import org.opendaylight.oko.northbound.program.InvalidProgramException;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.oko.northbound.program.ResolvedProgram;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.InstallStatus;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a switch in line with the configuration: every program configured for it loaded (with its current ELF,
 * parameters and initial entries), every program configuration loaded and no longer wants unloaded. One sync at a
 * time per switch, in the order asked; syncs of different switches run in parallel.
 */
public final class SwitchSync {
    private static final Logger LOG = LoggerFactory.getLogger(SwitchSync.class);
    /** The fingerprint of a program whose status is no longer 'installed': matches no configuration. */
    private static final String STALE = "stale";
    /** How often a mark is tried when other members change the switch's entry at the same moment. */
    private static final int MARK_ATTEMPTS = 5;

    private final DataBroker broker;
    private final ProgramResolver resolver;
    private final ProgramInstaller installer;
    private final LoadedPrograms loaded;
    private final OperationalState state;
    private final OkoSupport support;
    private final ExecutorService pool;
    private final long switchTimeoutMillis;
    private final Map<String, Executor> perSwitch = new ConcurrentHashMap<>();

    public SwitchSync(final DataBroker broker, final ProgramResolver resolver, final ProgramInstaller installer,
            final LoadedPrograms loaded, final OperationalState state, final OkoSupport support,
            final ExecutorService pool, final long switchTimeoutMillis) {
        this.broker = requireNonNull(broker);
        this.resolver = requireNonNull(resolver);
        this.installer = requireNonNull(installer);
        this.loaded = requireNonNull(loaded);
        this.state = requireNonNull(state);
        this.support = requireNonNull(support);
        this.pool = requireNonNull(pool);
        this.switchTimeoutMillis = switchTimeoutMillis;
    }

    /** Schedules a sync of one switch; the future completes when it is done (it never fails). */
    public ListenableFuture<Void> sync(final String node) {
        return onSwitch(node, () -> syncNow(node), "sync with the configuration");
    }

    /**
     * Runs work for one switch after the work asked for it before; the future completes when it is done (it never
     * fails: a failure is logged).
     */
    private ListenableFuture<Void> onSwitch(final String node, final Runnable work, final String what) {
        final Executor sequential = perSwitch.computeIfAbsent(node, n -> MoreExecutors.newSequentialExecutor(pool));
        final SettableFuture<Void> done = SettableFuture.create();
        sequential.execute(() -> {
            try {
                work.run();
            } catch (IllegalStateException e) {
                LOG.error("{}: {} failed", node, what, e);
            } finally {
                done.set(null);
            }
        });
        return done;
    }

    /**
     * A switch this member does not master: when no member does (the switch is not in the operational inventory),
     * what the operational side says of it is brought up to date: not connected, no master, each configured
     * program 'switch-disconnected' (without statistics), the statuses of programs no longer configured gone; a
     * switch neither configured nor connected loses its entry. Nothing is written when the entry says so already.
     *
     * <p>Every member of a cluster may do this for the same switch at the same moment (each sees the inventory
     * change), and a member that has just become a slave does it while the master writes the entry. A read-write
     * transaction reads the entry, then (in a transaction of its own) whether the switch is in the inventory: a
     * master writes the inventory before the entry, so a master that writes the entry after that first read makes
     * this commit fail, and the next attempt sees the switch in the inventory and writes nothing. The read-write
     * transaction touches the oko module's shard only: one that also read the inventory's shard would commit
     * across two shards, and a hundred of those at once (a start with a hundred switch entries) held each other
     * up until the datastore timed them out.
     */
    public ListenableFuture<Void> markIfUnmastered(final String node) {
        return onSwitch(node, () -> {
            for (int attempt = 1; attempt <= MARK_ATTEMPTS; attempt++) {
                if (markOnce(node)) {
                    return;
                }
                LOG.debug("{}: its operational entry changed while it was marked; reading it again", node);
            }
            LOG.warn("{}: its operational entry kept changing under {} attempts to mark it disconnected", node,
                MARK_ATTEMPTS);
        }, "marking it disconnected");
    }

    /** One attempt: false when another write to the entry came first (the transaction's view is out of date). */
    private boolean markOnce(final String node) {
        final var tx = broker.newReadWriteTransaction();
        final String what = "the operational state of " + node;
        final Optional<Switch> reported = DatastoreReads.await(tx.read(LogicalDatastoreType.OPERATIONAL,
            OperationalState.switchPath(node)), switchTimeoutMillis, what);
        final boolean mastered;
        try (var inventory = broker.newReadOnlyTransaction()) {
            mastered = DatastoreReads.await(inventory.exists(LogicalDatastoreType.OPERATIONAL,
                OperationalState.inventoryPath(node)), switchTimeoutMillis, "the inventory");
        }
        final Config config = mastered ? null : readConfig(node);
        final Optional<Switch> wanted = mastered ? reported
            : OperationalState.unmastered(node, reported, config.configured(), config.wanted());
        if (wanted.equals(reported)) {
            tx.cancel();
            return true;
        }
        if (wanted.isPresent()) {
            tx.put(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(node), wanted.orElseThrow());
        } else {
            tx.delete(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(node));
        }
        try {
            tx.commit().get(switchTimeoutMillis, TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof OptimisticLockFailedException) {
                return false;
            }
            throw new IllegalStateException("could not write " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the datastore did not write " + what + " in time", e);
        }
    }

    /** A program no longer configured for the switch has no status to keep. */
    private void removeUnwantedStatuses(final String node, final Config config) {
        for (long progId : reportedStatuses(node).keySet()) {
            if (!config.wanted().containsKey(progId)) {
                state.removeProgram(node, progId);
            }
        }
    }

    /** Nodes whose configuration names one of these programs (one read of /switches). */
    public Set<String> switchesUsing(final Set<String> programNames) {
        try (var tx = broker.newReadOnlyTransaction()) {
            final Set<String> nodes = new LinkedHashSet<>();
            DatastoreReads.await(tx.read(LogicalDatastoreType.CONFIGURATION,
                    DataObjectIdentifier.builder(Switches.class).build()), switchTimeoutMillis, "the configuration")
                .ifPresent(switches -> switches.nonnullSwitch().values().forEach(sw -> {
                    if (sw.nonnullProgram().values().stream().anyMatch(p -> p.getProgram() != null
                            && programNames.contains(p.getProgram().getValue()))) {
                        nodes.add(sw.getNode().getValue());
                    }
                }));
            return nodes;
        }
    }

    private void syncNow(final String node) {
        // Nothing Oko goes to a switch before it has answered whether it speaks Oko.
        support.awaitProbe(node, switchTimeoutMillis * 2);
        final Config config = readConfig(node);
        if (support.unsupported(node)) {
            // Nothing Oko is sent to a switch without Oko; each program says why it is not there.
            final Outcome unsupported = new Outcome(InstallStatus.Unsupported, support.unsupportedMessage(node));
            config.wanted().forEach((progId, name) -> state.programStatus(node, progId, name, null, unsupported));
            removeUnwantedStatuses(node, config);
            return;
        }
        Map<Long, InstallStatus> reported = null;
        for (var entry : config.wanted().entrySet()) {
            final long progId = entry.getKey();
            final String name = entry.getValue();
            final Program program = config.programs().get(name);
            if (program == null) {
                state.programStatus(node, progId, name, null, new Outcome(InstallStatus.Failed,
                    "program '" + name + "' is not configured under /programs"));
                markStale(node, progId);
                continue;
            }
            final ResolvedProgram resolved;
            try {
                resolved = resolver.resolve(name, program.getSource(), program);
            } catch (InvalidProgramException e) {
                state.programStatus(node, progId, name, null, new Outcome(InstallStatus.Failed, e.getMessage()));
                markStale(node, progId);
                continue;
            }
            final Optional<LoadedPrograms.Loaded> current = loaded.get(node, progId);
            // Unchanged: the same program (by name, as its status says) with the same ELF and map writes.
            if (current.isPresent() && current.orElseThrow().origin() == LoadedPrograms.Origin.CONFIG
                    && current.orElseThrow().program().name().equals(name)
                    && current.orElseThrow().fingerprint().equals(ProgramInstaller.fingerprint(resolved))) {
                // The entry may have been deleted and written again since the last sync: the commit then said
                // 'pending', and the switch still runs the very program.
                if (reported == null) {
                    reported = reportedStatuses(node);
                }
                if (reported.get(progId) != InstallStatus.Installed) {
                    state.programStatus(node, progId, name, resolved.image().sha256(), Outcome.installed());
                }
                continue;
            }
            if (current.isEmpty() && adopt(node, progId, name, resolved)) {
                continue;
            }
            await(installer.install(node, progId, resolved, LoadedPrograms.Origin.CONFIG, true, true), node);
        }
        for (var entry : loaded.onSwitch(node).entrySet()) {
            final long progId = entry.getKey();
            if (entry.getValue().origin() != LoadedPrograms.Origin.CONFIG || config.wanted().containsKey(progId)) {
                continue;
            }
            try {
                await(installer.uninstall(node, progId, false), node);
            } catch (IllegalStateException e) {
                state.programStatus(node, progId, entry.getValue().program().name(),
                    entry.getValue().program().image().sha256(), new Outcome(InstallStatus.Failed,
                        "no longer configured, but the switch keeps it: " + e.getMessage()));
                markStale(node, progId);
            }
        }
    }

    /**
     * Takes over a program the switch runs already, instead of loading it again (which would start its counters
     * afresh and write its parameters and initial entries over what the program made of them): when this member
     * has just become the switch's master (nothing is known loaded), the switch's answer to this connection's probe
     * lists the program with the ELF's SHA-256 the configuration has, and with the install mark (protocol 1.4) that
     * the controller which installed it sent after its last map write: the fingerprint of the very ELF and map
     * writes the configuration asks for now. The switch clears the mark whenever the program is loaded again, so an
     * install cut short between LOAD_PROG and its last UPDATE_MAP (the master died, the connection dropped) has
     * none and is loaded again. The switch's own record is the proof, not what a previous master wrote into the
     * operational datastore (which a whole-cluster restart empties, and which kept an older fingerprint while an
     * install was under way). A switch that restarted lists no program and gets it loaded; a switch older than 1.4
     * reports no mark and gets its programs loaded again (replace, keeping maps).
     */
    private boolean adopt(final String node, final long progId, final String name, final ResolvedProgram resolved) {
        final SwitchClient.ProgramStatistics running = support.running(node).get(progId);
        if (running == null || running.elfSha256() == null
                || !running.elfSha256().equalsIgnoreCase(resolved.image().sha256())) {
            return false;
        }
        final String fingerprint = ProgramInstaller.fingerprint(resolved);
        if (running.installMark() == null || !running.installMark().equalsIgnoreCase(fingerprint)) {
            LOG.info("{}: program {} '{}' runs with the configured ELF but {}: loading it again", node, progId, name,
                running.installMark() == null ? "the switch keeps no install mark (protocol older than 1.4)"
                    : "its install mark is not that of the configured map writes (an install cut short, or other "
                        + "settings)");
            return false;
        }
        loaded.put(node, progId, new LoadedPrograms.Loaded(resolved, LoadedPrograms.Origin.CONFIG, fingerprint));
        final var reported = reportedProgram(node, progId);
        if (reported.isEmpty() || reported.orElseThrow().getStatus() != InstallStatus.Installed
                || !fingerprint.equals(reported.orElseThrow().getSettingsFingerprint())) {
            state.programStatus(node, progId, name, resolved.image().sha256(), Outcome.installed(), fingerprint);
        }
        LOG.info("{}: program {} '{}' runs already with the configured ELF and map writes: taken over, not loaded "
            + "again", node, progId, name);
        return true;
    }

    private Optional<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program>
            reportedProgram(final String node, final long progId) {
        try (var tx = broker.newReadOnlyTransaction()) {
            return DatastoreReads.await(tx.read(LogicalDatastoreType.OPERATIONAL,
                OperationalState.programPath(node, progId)), switchTimeoutMillis, "the operational state of " + node);
        }
    }

    /**
     * The program the switch runs under this id no longer has the status 'installed' (its configuration went or
     * became invalid, or the switch kept it when it was to go): when it is configured again, even unchanged, it
     * is loaded again (replace, keep maps), and that load sets its status.
     */
    private void markStale(final String node, final long progId) {
        loaded.get(node, progId).ifPresent(current -> loaded.put(node, progId,
            new LoadedPrograms.Loaded(current.program(), current.origin(), STALE)));
    }

    private <T> T await(final ListenableFuture<T> future, final String node) {
        try {
            return future.get(switchTimeoutMillis * 4, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            final Throwable cause = e.getCause();
            throw new IllegalStateException(cause instanceof SwitchException ? cause.getMessage()
                : String.valueOf(cause), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException(node + " did not answer in time", e);
        }
    }

    /** Program ids wanted on a switch (with program names) and the configured programs. */
    /** A switch's configuration (whether it has an entry, the programs it names) and the stored programs. */
    record Config(boolean configured, Map<Long, String> wanted, Map<String, Program> programs) {
    }

    private Config readConfig(final String node) {
        try (var tx = broker.newReadOnlyTransaction()) {
            final String what = "the configuration of " + node;
            final Optional<Switch> sw = DatastoreReads.await(tx.read(LogicalDatastoreType.CONFIGURATION,
                OperationalState.switchPath(node)), switchTimeoutMillis, what);
            final Optional<Programs> programs = DatastoreReads.await(tx.read(LogicalDatastoreType.CONFIGURATION,
                DataObjectIdentifier.builder(Programs.class).build()), switchTimeoutMillis, what);
            final Map<Long, String> wanted = new TreeMap<>();
            sw.ifPresent(s -> s.nonnullProgram().values().forEach(p -> wanted.put(p.getProgramId().getValue()
                .toJava(), p.getProgram() == null ? "" : p.getProgram().getValue())));
            final Map<String, Program> byName = new HashMap<>();
            programs.ifPresent(p -> p.nonnullProgram().values().forEach(program -> byName.put(
                program.getName().getValue(), program)));
            return new Config(sw.isPresent(), wanted, byName);
        }
    }

    /** The statuses the operational side lists for a switch's programs. */
    private Map<Long, InstallStatus> reportedStatuses(final String node) {
        try (var tx = broker.newReadOnlyTransaction()) {
            final Map<Long, InstallStatus> reported = new HashMap<>();
            DatastoreReads.await(tx.read(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(node)),
                switchTimeoutMillis, "the operational state of " + node)
                .ifPresent(sw -> sw.nonnullProgram().values().forEach(p -> reported.put(
                    p.getProgramId().getValue().toJava(), p.getStatus())));
            return reported;
        }
    }

}
