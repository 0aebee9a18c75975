/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.stats;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OkoSupport;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.program.ProgramImage;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchClient.ProgramStatistics;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapIndex;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.Statistics;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.StatisticsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.statistics.MapBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every program's statistics (PROG_STATS) from each switch this controller instance masters, at a fixed
 * period, and writes them under the program's operational entry. Only switches that answered the Oko probe, only
 * programs this instance loaded; one request per switch at a time (a slow switch is skipped until it answers).
 */
public final class StatisticsPoller implements AutoCloseable {
    /** openflowplugin's statistics manager polls every 3 s by default (basic-timer-delay); so does Oko. */
    public static final long DEFAULT_INTERVAL_MILLIS = 3_000;
    private static final Logger LOG = LoggerFactory.getLogger(StatisticsPoller.class);

    private final SwitchClient client;
    private final OperationalState state;
    private final LoadedPrograms loaded;
    private final OkoSupport support;
    private final Supplier<Set<String>> owned;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final Executor executor;
    private final ScheduledFuture<?> task;

    /**
     * Starts polling every {@code intervalMillis} (0: never). Answers are written from {@code executor} (not the
     * switch connection's I/O thread).
     */
    public StatisticsPoller(final SwitchClient client, final OperationalState state, final LoadedPrograms loaded,
            final OkoSupport support, final Supplier<Set<String>> owned, final ScheduledExecutorService timer,
            final Executor executor, final long intervalMillis) {
        this.executor = requireNonNull(executor);
        this.client = requireNonNull(client);
        this.state = requireNonNull(state);
        this.loaded = requireNonNull(loaded);
        this.support = requireNonNull(support);
        this.owned = requireNonNull(owned);
        task = intervalMillis <= 0 ? null
            : timer.scheduleWithFixedDelay(this::pollOnce, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        LOG.info("Oko program statistics: {}", intervalMillis <= 0 ? "not polled (statistics-interval-ms 0)"
            : "polled every " + intervalMillis + " ms");
    }

    /** One round: a request to each mastered Oko switch that has programs and no request outstanding. */
    @SuppressWarnings("checkstyle:IllegalCatch")
    public void pollOnce() {
        for (String node : owned.get()) {
            try {
                poll(node);
            } catch (RuntimeException e) {
                // One switch's trouble must not end the polling of all (the executor would stop the task).
                inFlight.remove(node);
                LOG.warn("{}: program statistics not requested", node, e);
            }
        }
    }

    private void poll(final String node) {
        final Map<Long, LoadedPrograms.Loaded> programs = loaded.onSwitch(node);
        if (programs.isEmpty() || !support.supported(node) || !inFlight.add(node)) {
            return;
        }
        Futures.addCallback(client.programStatistics(node, 0), new FutureCallback<List<ProgramStatistics>>() {
            @Override
            public void onSuccess(final List<ProgramStatistics> result) {
                inFlight.remove(node);
                write(node, programs, result);
            }

            @Override
            public void onFailure(final Throwable cause) {
                inFlight.remove(node);
                LOG.debug("{}: program statistics not read: {}", node, cause.getMessage());
            }
        }, executor);
    }

    /**
     * Writes a switch's statistics in one transaction, each program's only if the program the request was sent
     * for is still the one loaded (not unloaded or replaced meanwhile: a replaced program's counters start again
     * at zero).
     */
    @SuppressWarnings("checkstyle:IllegalCatch")
    private void write(final String node, final Map<Long, LoadedPrograms.Loaded> programs,
            final List<ProgramStatistics> result) {
        final Map<Long, Statistics> current = new HashMap<>();
        for (ProgramStatistics stats : result) {
            final LoadedPrograms.Loaded program = programs.get(stats.progId());
            if (program != null && loaded.get(node, stats.progId()).orElse(null) == program) {
                current.put(stats.progId(), toStatistics(stats, program.program().image()));
            }
        }
        try {
            state.statistics(node, current);
        } catch (RuntimeException e) {
            LOG.warn("{}: program statistics not recorded", node, e);
        }
    }

    /** The operational form of one program's statistics; map names from the program the controller loaded. */
    public static Statistics toStatistics(final ProgramStatistics stats, final ProgramImage image) {
        final var maps = BindingMap.<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch
            .program.statistics.MapKey, org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch
            .program.statistics.Map>orderedBuilder();
        final Map<Integer, String> names = new HashMap<>();
        if (image != null) {
            image.maps().forEach(description -> names.put(description.index(), description.name()));
        }
        for (int index = 0; index < stats.maps().size(); index++) {
            final var map = stats.maps().get(index);
            final String name = names.get(index);
            maps.add(new MapBuilder()
                .setMapIndex(new MapIndex(Uint8.valueOf(index)))
                .setMapName(name == null ? null : new MapName(name))
                .setMapType(MapType.forValue(map.mapType()))
                .setUsed(Uint32.valueOf(map.used()))
                .setMaxEntries(Uint32.valueOf(map.maxEntries()))
                .setEvictions(Uint64.fromLongBits(map.evictions()))
                .setRefusedFull(Uint64.fromLongBits(map.refusedFull()))
                .build());
        }
        return new StatisticsBuilder()
            .setReadAt(OperationalState.now())
            .setRuns(Uint64.fromLongBits(stats.runs()))
            .setMatches(Uint64.fromLongBits(stats.matches()))
            .setErrors(Uint64.fromLongBits(stats.errors()))
            .setTimedRuns(Uint64.fromLongBits(stats.timedRuns()))
            .setTimedNs(Uint64.fromLongBits(stats.timedNs()))
            .setAverageNsPerRun(averageNsPerRun(stats.timedNs(), stats.timedRuns()))
            .setRules(Uint32.valueOf(stats.rules()))
            .setDatapathFlows(Uint32.valueOf(stats.datapathFlows()))
            .setInstructions(Uint32.valueOf(stats.instructions()))
            .setJit(stats.jit())
            .setMemoryBytes(Uint64.fromLongBits(stats.memory()))
            .setMap(maps.build())
            .build();
    }

    /**
     * timed_ns / timed_runs with one decimal, rounded as the switch's oko/show prints it (printf "%.1f" of the
     * double quotient: the exact binary value, half to even), so the two show the same number.
     */
    static Decimal64 averageNsPerRun(final long timedNs, final long timedRuns) {
        // decimal64 with one fraction digit holds up to 9.2e17; a longer average is not a real one.
        final double average = Math.min(timedRuns == 0 ? 0 : unsigned(timedNs) / unsigned(timedRuns), 9.2e17);
        return Decimal64.valueOf(new BigDecimal(average).setScale(1, RoundingMode.HALF_EVEN).toPlainString());
    }

    private static double unsigned(final long value) {
        return value >= 0 ? value : Uint64.fromLongBits(value).toJava().doubleValue();
    }

    @Override
    public void close() {
        if (task != null) {
            task.cancel(false);
        }
    }
}
