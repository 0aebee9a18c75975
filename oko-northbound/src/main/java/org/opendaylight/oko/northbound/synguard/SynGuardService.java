/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.DataTreeModification;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.SynGuard;
import org.opendaylight.yang.gen.v1.urn.opendaylight.packet.service.rev130709.PacketReceived;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the SYN guards configured under /oko-syn-guard:syn-guards: installs what each needs when it is created,
 * removes it when it is deleted, hands each the packet-ins with its cookie, and ticks every guard once per
 * {@link #TICK_MILLIS}. A change of how a guard decides (threshold, hold time, pinned or vetoed signatures...)
 * reaches the running guard; a change of what it installs (switches, destinations, sampling rate, table,
 * priority, program ids) removes it and installs it again, and it learns again.
 */
public final class SynGuardService implements AutoCloseable {
    /** How often guards read their switches' counts and decide. */
    public static final long TICK_MILLIS = 1_000;
    private static final Logger LOG = LoggerFactory.getLogger(SynGuardService.class);
    private static final long WRITE_TIMEOUT_SECONDS = 30;

    private final SwitchClient client;
    private final GuardStore store;
    private final FilterCatalog catalog;
    private final Predicate<String> owned;
    private final LongSupplier clock;
    private final Executor executor;
    private final ScheduledExecutorService timer;
    private final Map<String, RunningGuard> guards = new ConcurrentHashMap<>();
    private final Map<Long, RunningGuard> byCookie = new ConcurrentHashMap<>();
    private final ScheduledFuture<?> ticks;

    public SynGuardService(final DataBroker broker, final SwitchClient client, final FilterCatalog catalog,
            final Predicate<String> owned, final ScheduledExecutorService timer, final Executor executor) {
        this(broker, client, catalog, owned, timer, executor, System::nanoTime);
    }

    SynGuardService(final DataBroker broker, final SwitchClient client, final FilterCatalog catalog,
            final Predicate<String> owned, final ScheduledExecutorService timer, final Executor executor,
            final LongSupplier clock) {
        this.client = requireNonNull(client);
        this.catalog = requireNonNull(catalog);
        this.owned = requireNonNull(owned);
        this.executor = requireNonNull(executor);
        this.clock = requireNonNull(clock);
        this.timer = requireNonNull(timer);
        store = new GuardStore(broker, clock);
        ticks = timer.scheduleWithFixedDelay(this::tickAll, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Configuration changes of guards, in order (one thread). */
    @SuppressWarnings("checkstyle:IllegalCatch")
    public void changed(final List<DataTreeModification<SynGuard>> changes) {
        for (DataTreeModification<SynGuard> change : changes) {
            final var root = change.getRootNode();
            final SynGuard before = root.dataBefore();
            final SynGuard after = root.dataAfter();
            try {
                if (before != null && after != null && reconfigured(after)) {
                    continue;
                }
                if (before != null) {
                    stop(before);
                }
                if (after != null) {
                    start(after);
                }
            } catch (RuntimeException e) {
                // The next change must still be seen (an executor thread that dies says nothing in karaf.log).
                LOG.error("SYN guard {}: change not applied", (after != null ? after : before).getName().getValue(),
                    e);
            }
        }
    }

    /**
     * A change that needs nothing new on the switches goes to the running guard, which keeps what it learned; its
     * installation is written again, unchanged.
     */
    private boolean reconfigured(final SynGuard guard) {
        final RunningGuard running = guards.get(guard.getName().getValue());
        if (running == null) {
            return false;
        }
        final GuardConfig config;
        try {
            config = GuardConfig.of(guard);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (!running.config().sameInstallation(config)) {
            return false;
        }
        running.reconfigure(config);
        // Written again (the same puts): what was removed by hand, a switch program entry or a flow, comes back.
        store.install(config);
        return true;
    }

    private void start(final SynGuard guard) {
        final String name = guard.getName().getValue();
        final GuardConfig config;
        try {
            config = GuardConfig.of(guard);
        } catch (IllegalArgumentException e) {
            LOG.warn("SYN guard {} not started: {}", name, e.getMessage());
            store.writeFailed(name, e.getMessage());
            return;
        }
        final String conflict = conflict(config);
        if (conflict != null) {
            LOG.warn("SYN guard {} not started: {}", name, conflict);
            store.writeFailed(name, conflict);
            return;
        }
        try {
            store.install(config).get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("SYN guard {} not started: its programs and flows were not written", name, e);
            store.writeFailed(name, "its programs and flows were not written: " + e.getMessage());
            return;
        }
        final RunningGuard running = new RunningGuard(config, client, store, catalog, owned, clock, executor,
            timer);
        guards.put(name, running);
        byCookie.put(GuardFlows.cookie(name), running);
        store.writeState(name, new FloodTracker(config.trackerSettings(), clock.getAsLong()));
        LOG.info("SYN guard {} started on {}: {} destination(s), sampling {} SYN/s, threshold {} SYN/s, learning {} s",
            name, config.nodes(), config.destinations().size(), config.samplingRate(), config.threshold(),
            config.learningSeconds());
    }

    /** Another running guard that uses the same program ids or flow priorities on a shared switch. */
    private String conflict(final GuardConfig config) {
        for (RunningGuard other : guards.values()) {
            final var problem = GuardConflicts.between(config, other.config());
            if (problem.isPresent()) {
                return problem.orElseThrow();
            }
        }
        return null;
    }

    private void stop(final SynGuard guard) {
        final String name = guard.getName().getValue();
        final RunningGuard running = guards.remove(name);
        if (running == null) {
            // Not running (it failed, or its installation was not confirmed in time): what it may have written goes.
            try {
                store.uninstall(GuardConfig.of(guard));
            } catch (IllegalArgumentException e) {
                store.deleteState(name);
            }
            return;
        }
        byCookie.remove(GuardFlows.cookie(name));
        running.close();
        try {
            store.uninstall(running.config()).get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("SYN guard {}: its programs and flows were not all removed", name, e);
        }
        LOG.info("SYN guard {} stopped", name);
    }

    /** A packet-in from any switch: the guard's whose cookie it carries. */
    public void packetIn(final PacketReceived packet) {
        if (packet.getFlowCookie() == null || packet.getPayload() == null) {
            return;
        }
        final RunningGuard guard = byCookie.get(packet.getFlowCookie().getValue().longValue());
        if (guard != null) {
            guard.packetIn(packet.getPayload());
        }
    }

    @SuppressWarnings("checkstyle:IllegalCatch")
    private void tickAll() {
        for (RunningGuard guard : guards.values()) {
            try {
                guard.tick();
            } catch (RuntimeException e) {
                // One guard's trouble must not stop the ticks of all (the timer would cancel the task).
                LOG.warn("SYN guard {}: tick failed", guard.config().name(), e);
            }
        }
    }

    /** Stops every guard; what they configured stays (the next start finds and keeps it). */
    @Override
    public void close() {
        ticks.cancel(false);
        guards.values().forEach(RunningGuard::close);
        guards.clear();
        byCookie.clear();
    }
}
