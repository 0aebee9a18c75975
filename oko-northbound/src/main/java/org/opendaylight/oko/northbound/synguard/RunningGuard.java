/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.Layout;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchClient.Entry;
import org.opendaylight.oko.northbound.switchio.SwitchClient.MapSection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running SYN guard: feeds its {@link FloodTracker} with the samples its switches send and, at each tick, with
 * the counts its two programs keep (syn-sampler's SYNs per destination, p0f-syn-flood's matches per slot), and
 * makes the switches hold what the tracker decided: the filter's slots (UPDATE_MAP, checked against the switch at
 * every tick, so a switch that reconnected and got the program reloaded gets them back) and the drop flows while
 * it mitigates. Acts only for the switches this controller masters.
 */
final class RunningGuard {
    /** syn-sampler's maps (filter-library/catalog.json). */
    static final int SAMPLER_DESTINATIONS_MAP = 2;
    /** p0f-syn-flood's maps. */
    static final int FILTER_SIGNATURES_MAP = 0;
    static final int FILTER_COUNTERS_MAP = 1;
    static final int SLOTS = 4;
    private static final Logger LOG = LoggerFactory.getLogger(RunningGuard.class);
    /** How long a tick waits for a switch's counts. */
    static final long READ_TIMEOUT_MILLIS = 2_000;
    private static final int KEY_SIZE = 4;
    private static final int COUNTER_SIZE = 8;

    /** What one switch answered at one tick. */
    private record Reading(Map<InetAddress, Long> syns, long[] slotMatches, byte[][] slots) {
    }

    /** A sample as it arrived, handed to the tracker at the next tick. */
    private record Arrived(long nanos, SynSample sample) {
    }

    private volatile GuardConfig config;
    private final SwitchClient client;
    private final GuardStore store;
    private final Predicate<String> owned;
    private final LongSupplier clock;
    private final Executor executor;
    private final ScheduledExecutorService timer;
    private final Layout signatureLayout;
    private final int signatureSize;
    private final FloodTracker tracker;
    private final AtomicBoolean ticking = new AtomicBoolean();
    /**
     * Samples between ticks. Packet-in threads only add here: they never wait for a decision (choosing signatures
     * can take a while), and a full queue drops samples, as the tracker's own bounds would.
     */
    private final BlockingQueue<Arrived> arrived = new ArrayBlockingQueue<>(FloodTracker.MAX_ATTACK);
    /** Per switch, the last counts read (deltas between ticks; a switch seen the first time gives none). */
    private final Map<String, Map<InetAddress, Long>> lastSyns = new HashMap<>();
    private final Map<String, long[]> lastSlotMatches = new HashMap<>();
    private final Map<String, Long> lastReadNanos = new HashMap<>();
    private long lastTickNanos;
    /**
     * Per mastered switch, whether its drop flows are in the configuration. A switch not in it is unknown (the
     * guard just started, or this controller just became its master): the next decision writes or deletes its
     * drop flows, which also removes those a previous run left (a restart).
     */
    private final Map<String, Boolean> dropFlowsWritten = new HashMap<>();
    private volatile boolean closed;

    RunningGuard(final GuardConfig config, final SwitchClient client, final GuardStore store,
            final FilterCatalog catalog, final Predicate<String> owned, final LongSupplier clock,
            final Executor executor, final ScheduledExecutorService timer) {
        this.config = requireNonNull(config);
        this.client = requireNonNull(client);
        this.store = requireNonNull(store);
        this.owned = requireNonNull(owned);
        this.clock = requireNonNull(clock);
        this.executor = requireNonNull(executor);
        this.timer = requireNonNull(timer);
        final FilterCatalog.MapLayout signatures = catalog.filter(GuardStore.FILTER)
            .flatMap(filter -> filter.map("signatures"))
            .orElseThrow(() -> new IllegalStateException("the catalog has no " + GuardStore.FILTER + " signatures"));
        signatureLayout = signatures.value();
        signatureSize = signatures.valueSize();
        tracker = new FloodTracker(config.trackerSettings(), clock.getAsLong());
        lastTickNanos = clock.getAsLong();
    }

    GuardConfig config() {
        return config;
    }

    /**
     * New decision settings (threshold, hold time, signatures pinned or vetoed...) for the same installation: what
     * the guard learned stays, and the switches get changed slots at the next tick.
     */
    synchronized void reconfigure(final GuardConfig next) {
        if (!config.sameInstallation(next)) {
            throw new IllegalArgumentException("SYN guard " + config.name() + ": a new installation needs a restart");
        }
        config = next;
        if (tracker.reconfigure(next.trackerSettings(), clock.getAsLong())) {
            LOG.info("SYN guard {}: reconfigured; signatures now {}", next.name(),
                tracker.active().stream().map(a -> a.slot() + "=" + a.signature().toText()).toList());
        }
    }

    /** A packet-in with the guard's cookie. */
    void packetIn(final byte[] payload) {
        final Optional<SynSample> sample = SynSample.ofFrame(payload);
        if (sample.isPresent() && !arrived.offer(new Arrived(clock.getAsLong(), sample.orElseThrow()))) {
            LOG.debug("SYN guard {}: a sample dropped, {} wait for the next tick", config.name(), arrived.size());
        }
    }

    /**
     * Reads the counts of every mastered switch and then decides; a tick while the previous one still waits for a
     * switch is skipped.
     */
    void tick() {
        if (closed || !ticking.compareAndSet(false, true)) {
            return;
        }
        final List<String> nodes = config.nodes().stream().filter(owned).toList();
        final List<ListenableFuture<Optional<Reading>>> readings = new ArrayList<>();
        for (String node : nodes) {
            readings.add(read(node));
        }
        Futures.addCallback(Futures.allAsList(readings), new FutureCallback<List<Optional<Reading>>>() {
            @Override
            @SuppressWarnings("checkstyle:IllegalCatch")
            public void onSuccess(final List<Optional<Reading>> result) {
                try {
                    decide(nodes, result);
                } catch (RuntimeException e) {
                    LOG.warn("SYN guard {}: tick failed", config.name(), e);
                } finally {
                    ticking.set(false);
                }
            }

            @Override
            public void onFailure(final Throwable cause) {
                ticking.set(false);
                LOG.warn("SYN guard {}: tick failed", config.name(), cause);
            }
        }, executor);
    }

    /** One switch's counts; empty when it did not answer (it is left out of this tick). */
    private ListenableFuture<Optional<Reading>> read(final String node) {
        final ListenableFuture<List<MapSection>> sampler = client.dumpMaps(node, config.samplerProgramId(),
            1L << SAMPLER_DESTINATIONS_MAP);
        final ListenableFuture<List<MapSection>> filter = client.dumpMaps(node, config.filterProgramId(),
            1L << FILTER_SIGNATURES_MAP | 1L << FILTER_COUNTERS_MAP);
        final ListenableFuture<Optional<Reading>> both = Futures.whenAllSucceed(sampler, filter).call(
            () -> Optional.of(reading(Futures.getDone(sampler), Futures.getDone(filter))),
            MoreExecutors.directExecutor());
        // A switch that does not answer must not hold the others' decisions for the switch timeout.
        return Futures.catching(Futures.withTimeout(both, READ_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS, timer),
            Exception.class, e -> {
                LOG.debug("SYN guard {}: {} not read: {}", config.name(), node, e.getMessage());
                return Optional.empty();
            }, MoreExecutors.directExecutor());
    }

    private Reading reading(final List<MapSection> sampler, final List<MapSection> filter) {
        final Map<InetAddress, Long> syns = new HashMap<>();
        for (MapSection section : sampler) {
            if (section.mapIndex() == SAMPLER_DESTINATIONS_MAP) {
                for (Entry entry : section.entries()) {
                    syns.put(SynSample.ofCounterKey(entry.key()), littleEndian(entry.value(), 0));
                }
            }
        }
        final long[] matches = new long[SLOTS];
        final byte[][] slots = new byte[SLOTS][];
        for (MapSection section : filter) {
            for (Entry entry : section.entries()) {
                final int index = (int) littleEndian(entry.key(), 0) & 0xff;
                if (section.mapIndex() == FILTER_COUNTERS_MAP && index < SLOTS) {
                    matches[index] = littleEndian(entry.value(), 0);
                } else if (section.mapIndex() == FILTER_SIGNATURES_MAP && index < SLOTS) {
                    slots[index] = entry.value();
                }
            }
        }
        return new Reading(syns, matches, slots);
    }

    private synchronized void decide(final List<String> nodes, final List<Optional<Reading>> readings) {
        if (closed) {
            return;
        }
        final long now = clock.getAsLong();
        final double seconds = Math.max(1e-3, (now - lastTickNanos) / (double) TimeUnit.SECONDS.toNanos(1));
        lastTickNanos = now;
        for (Arrived sample = arrived.poll(); sample != null; sample = arrived.poll()) {
            tracker.sample(sample.nanos(), sample.sample());
        }
        final Map<InetAddress, Long> synsPerSecond = new HashMap<>();
        final double[] slotDrops = new double[SLOTS];
        for (int i = 0; i < nodes.size(); i++) {
            final String node = nodes.get(i);
            final Optional<Reading> reading = readings.get(i);
            if (reading.isEmpty()) {
                continue;
            }
            final Map<InetAddress, Long> before = lastSyns.put(node, reading.orElseThrow().syns());
            // Since this switch's last reading, which a switch that did not answer makes longer than a tick.
            final Long readBefore = lastReadNanos.put(node, now);
            final double nodeSeconds = readBefore == null ? seconds
                : Math.max(1e-3, (now - readBefore) / (double) TimeUnit.SECONDS.toNanos(1));
            if (before != null) {
                reading.orElseThrow().syns().forEach((address, count) -> {
                    final long delta = delta(before.get(address), count);
                    if (delta > 0) {
                        synsPerSecond.merge(address, Math.round(delta / nodeSeconds), Long::sum);
                    }
                });
            }
            final long[] matchesBefore = lastSlotMatches.put(node, reading.orElseThrow().slotMatches());
            if (matchesBefore != null) {
                // Scaled to this tick's interval, as the rates are: a switch read after a missed tick must not
                // count two intervals' drops in one (which would hold a signature longer than the hold time).
                for (int slot = 0; slot < SLOTS; slot++) {
                    slotDrops[slot] += delta(matchesBefore[slot], reading.orElseThrow().slotMatches()[slot])
                        * seconds / nodeSeconds;
                }
            }
        }
        final long[] drops = new long[SLOTS];
        for (int slot = 0; slot < SLOTS; slot++) {
            drops[slot] = Math.round(slotDrops[slot]);
        }
        final List<P0fSignature> before = activeSignatures();
        if (tracker.tick(now, synsPerSecond, drops, seconds)) {
            final List<P0fSignature> after = activeSignatures();
            final List<String> added = after.stream().filter(sig -> !before.contains(sig)).map(P0fSignature::toText)
                .toList();
            final List<String> removed = before.stream().filter(sig -> !after.contains(sig))
                .map(P0fSignature::toText).toList();
            if (!added.isEmpty()) {
                LOG.info("SYN guard {}: installed {} ({})", config.name(), added, tracker.message());
            }
            if (!removed.isEmpty()) {
                LOG.info("SYN guard {}: removed {}: they dropped fewer than {} SYN/s for {} s", config.name(),
                    removed, config.threshold(), config.holdSeconds());
            }
        }
        final byte[][] wanted = wantedSlots();
        for (int i = 0; i < nodes.size(); i++) {
            if (readings.get(i).isPresent() && !Arrays.deepEquals(wanted, readings.get(i).orElseThrow().slots())) {
                writeSlots(nodes.get(i), wanted);
            }
        }
        syncDropFlows(!tracker.active().isEmpty());
        store.writeState(config.name(), tracker);
    }

    /**
     * Makes every switch this controller masters have the drop flows while the guard mitigates and none
     * otherwise; only the switches whose flows differ (or are not known) are written.
     */
    private void syncDropFlows(final boolean mitigating) {
        final List<String> mastered = config.nodes().stream().filter(owned).toList();
        // A switch mastered elsewhere now is unknown again: when it comes back, it is written.
        dropFlowsWritten.keySet().retainAll(mastered);
        final List<String> stale = mastered.stream()
            .filter(node -> !Boolean.valueOf(mitigating).equals(dropFlowsWritten.get(node))).toList();
        if (stale.isEmpty()) {
            return;
        }
        stale.forEach(node -> dropFlowsWritten.put(node, mitigating));
        final var commit = mitigating ? store.writeDropFlows(config, stale) : store.deleteDropFlows(config, stale);
        Futures.addCallback(commit, new FutureCallback<Object>() {
            @Override
            public void onSuccess(final Object result) {
                // They are as recorded.
            }

            @Override
            public void onFailure(final Throwable cause) {
                // Not known any more: the next decision writes them again (GuardStore logged why).
                synchronized (RunningGuard.this) {
                    stale.forEach(dropFlowsWritten::remove);
                }
            }
        }, MoreExecutors.directExecutor());
    }

    private List<P0fSignature> activeSignatures() {
        return tracker.active().stream().map(FloodTracker.Active::signature).toList();
    }

    /** A counter's increase; a counter that went down was reset (the program reloaded): it counts from zero. */
    private static long delta(final Long before, final long now) {
        if (before == null) {
            return now;
        }
        return Long.compareUnsigned(now, before) >= 0 ? now - before : now;
    }

    private byte[][] wantedSlots() {
        final byte[][] wanted = new byte[SLOTS][];
        for (int slot = 0; slot < SLOTS; slot++) {
            wanted[slot] = new byte[signatureSize];
            final Optional<FloodTracker.Active> active = tracker.slot(slot);
            if (active.isPresent()) {
                final byte[] value = wanted[slot];
                active.orElseThrow().signature().toParameters()
                    .forEach((field, text) -> signatureLayout.encode(field, text, value));
            }
        }
        return wanted;
    }

    private void writeSlots(final String node, final byte[][] wanted) {
        final List<Entry> entries = new ArrayList<>();
        for (int slot = 0; slot < SLOTS; slot++) {
            entries.add(new Entry(ByteBuffer.allocate(KEY_SIZE).order(ByteOrder.LITTLE_ENDIAN).putInt(slot).array(),
                wanted[slot]));
        }
        Futures.addCallback(client.updateMap(node, config.filterProgramId(), FILTER_SIGNATURES_MAP, KEY_SIZE,
            signatureSize, entries), new FutureCallback<Void>() {
                @Override
                public void onSuccess(final Void result) {
                    LOG.debug("SYN guard {}: {} has the signatures", config.name(), node);
                }

                @Override
                public void onFailure(final Throwable cause) {
                    // Checked again at the next tick.
                    LOG.warn("SYN guard {}: {} refused the signatures: {}", config.name(), node, cause.getMessage());
                }
            }, MoreExecutors.directExecutor());
    }

    private static long littleEndian(final byte[] bytes, final int from) {
        final ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        return bytes.length - from >= COUNTER_SIZE ? buffer.getLong(from)
            : bytes.length - from >= KEY_SIZE ? Integer.toUnsignedLong(buffer.getInt(from)) : 0;
    }

    /**
     * Stops deciding, after a decision under way (which may write drop flows): what the guard configured stays
     * until the caller removes it.
     */
    synchronized void close() {
        closed = true;
    }
}
