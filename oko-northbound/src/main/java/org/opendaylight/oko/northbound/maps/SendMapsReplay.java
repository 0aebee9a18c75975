/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.maps;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.install.SwitchEvents;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.oko.openflowjava.notification.NodeRefs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.ExperimenterMessageFromDev;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.OkoSendMapsSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a switch's new master missed of its SEND_MAPS events: a master that was killed recorded nothing in its last
 * moments, nobody receives the events a switch sends while no member masters it, and while a member takes a switch
 * over, openflowplugin drops the switch's experimenter messages until the device is fully mastered (its initial
 * statistics are in), well after Oko has loaded the programs. So when a switch becomes mastered here, the last
 * event-id the operational datastore records for each of its programs is read (the baseline: what the previous
 * master recorded), and the switch is asked for the events after it (REPLAY_MAPS, docs/protocol.md 5.7; all it
 * retains when nothing is recorded): when the switch has its programs, then 5, 15 and 30 s later for a program
 * none of whose events has arrived live yet, and when the program's first event arrives live (from then on nothing
 * is dropped, so that answer covers the whole gap). The {@link SendMapsCollector} records each event once. What
 * the switch no longer retains is logged as lost.
 */
public final class SendMapsReplay implements SwitchEvents {
    private static final Logger LOG = LoggerFactory.getLogger(SendMapsReplay.class);

    private record ProgramKey(String node, long progId) {
    }

    /** Seconds after a switch has its programs at which a program with no live event yet is caught up again. */
    private static final List<Integer> FOLLOW_UPS = List.of(5, 15, 30);

    private final DataBroker broker;
    private final SwitchClient client;
    private final SendMapsCollector collector;
    private final LoadedPrograms loaded;
    private final ScheduledExecutorService timer;
    /** Per switch mastered here, the newest event-id recorded per program when it became mastered here. */
    private final Map<String, ListenableFuture<Map<Long, Long>>> baselines = new ConcurrentHashMap<>();
    /** The programs whose events arrived live since their switch became mastered here. */
    private final Set<ProgramKey> live = ConcurrentHashMap.newKeySet();
    /** The programs the switch loaded anew since the baseline (their event ids started over): asked for all. */
    private final Set<ProgramKey> startedOver = ConcurrentHashMap.newKeySet();

    public SendMapsReplay(final DataBroker broker, final SwitchClient client, final SendMapsCollector collector,
            final LoadedPrograms loaded, final ScheduledExecutorService timer) {
        this.broker = requireNonNull(broker);
        this.client = requireNonNull(client);
        this.collector = requireNonNull(collector);
        this.loaded = requireNonNull(loaded);
        this.timer = requireNonNull(timer);
    }

    /** A SEND_MAPS fragment from a switch (experimenter-message-from-dev): recorded, after a catch-up if first. */
    public void onMessage(final ExperimenterMessageFromDev message) {
        if (message.getExperimenterMessageOfChoice() instanceof OkoSendMapsSal sal
                && sal.getOkoSendMapsMessage() != null) {
            final String node = NodeRefs.nodeId(message.getNode());
            if (node != null && baselines.containsKey(node)) {
                final long progId = sal.getOkoSendMapsMessage().getProgId().getValue().toJava();
                if (live.add(new ProgramKey(node, progId))) {
                    catchUp(node, progId);
                }
            }
        }
        collector.onMessage(message);
    }

    /** Asks the switch for the events of each of its programs that nobody recorded; completes when all are in. */
    public ListenableFuture<List<Integer>> catchUp(final String node) {
        final List<ListenableFuture<Integer>> programs = new ArrayList<>();
        for (long progId : loaded.onSwitch(node).keySet()) {
            programs.add(catchUp(node, progId));
        }
        return Futures.successfulAsList(programs);
    }

    private ListenableFuture<Integer> catchUp(final String node, final long progId) {
        final var term = baselines.computeIfAbsent(node, this::readBaselines);
        return Futures.transformAsync(term, baseline -> replay(node, progId,
            startedOver.contains(new ProgramKey(node, progId)) ? null : baseline.get(progId), term),
            MoreExecutors.directExecutor());
    }

    /** Catches up, again, the programs of the switch none of whose events has arrived live yet in this term. */
    private void followUp(final String node, final ListenableFuture<Map<Long, Long>> term) {
        if (baselines.get(node) != term) {
            return;                 // no longer mastered here, or mastered anew
        }
        for (long progId : loaded.onSwitch(node).keySet()) {
            if (!live.contains(new ProgramKey(node, progId))) {
                catchUp(node, progId);
            }
        }
    }

    /** Per program of the switch, the newest event-id among its received maps in the operational datastore. */
    private ListenableFuture<Map<Long, Long>> readBaselines(final String node) {
        try (var tx = broker.newReadOnlyTransaction()) {
            return Futures.catching(Futures.transform(
                tx.read(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(node)),
                entry -> entry.map(SendMapsReplay::newest).orElse(Map.of()), MoreExecutors.directExecutor()),
                Exception.class, cause -> {
                    LOG.warn("{}: cannot read which SEND_MAPS events were recorded; asking for all retained", node,
                        cause);
                    return Map.of();
                }, MoreExecutors.directExecutor());
        }
    }

    private static Map<Long, Long> newest(final Switch entry) {
        final Map<Long, Long> newest = new HashMap<>();
        for (Program program : entry.nonnullProgram().values()) {
            for (var map : program.nonnullReceivedMap().values()) {
                if (map.getEventId() != null) {
                    final long id = map.getEventId().toJava();
                    newest.merge(program.getProgramId().getValue().toJava(), id,
                        (a, b) -> SendMapsCollector.after(b, a) ? b : a);
                }
            }
        }
        return newest;
    }

    private ListenableFuture<Integer> replay(final String node, final long progId, final Long after,
            final ListenableFuture<Map<Long, Long>> term) {
        final ListenableFuture<Integer> recorded = Futures.transformAsync(client.replayMaps(node, progId, after),
            answer -> {
                if (baselines.get(node) != term) {
                    // Mastership lost (or taken anew) meanwhile: what this member would record is not its to write.
                    return Futures.immediateFuture(0);
                }
                final long next = answer.nextEventId();
                if (after != null && !SendMapsCollector.after(next, after)) {
                    // The program's ids started again (the switch loaded it again since): all it has is new.
                    LOG.info("{}: program {} was loaded again since event {} was recorded (its next event is {}); "
                        + "asking for all the events it retains", node, progId, after, next);
                    startedOver.add(new ProgramKey(node, progId));
                    return replay(node, progId, null, term);
                }
                final int count = collector.replayed(node, progId, answer.fragments());
                final long lost = lost(after, next, answer);
                if (lost > 0) {
                    LOG.warn("{}: program {}: {} SEND_MAPS events after {} are no longer retained by the switch and "
                        + "are lost", node, progId, lost, after == null ? "the first it retains" : "event " + after);
                }
                if (count > 0 || lost > 0) {
                    LOG.info("{}: program {}: {} SEND_MAPS events nobody had recorded were sent again and recorded "
                        + "(after {}; next event {})", node, progId, count, after == null ? "none" : after, next);
                }
                return Futures.immediateFuture(count);
            }, MoreExecutors.directExecutor());
        Futures.addCallback(recorded, new FutureCallback<Integer>() {
            @Override
            public void onSuccess(final Integer result) {
                // logged above
            }

            @Override
            public void onFailure(final Throwable cause) {
                if (cause instanceof SwitchException refused && refused.kind() == SwitchException.Kind.REFUSED) {
                    // A switch of protocol 1.2 or older has no REPLAY_MAPS (OFPBRC_BAD_EXP_TYPE).
                    LOG.info("{}: program {}: the switch does not send SEND_MAPS events again ({}); events sent "
                        + "while no controller listened are lost", node, progId, refused.getMessage());
                } else {
                    LOG.warn("{}: program {}: asking for its SEND_MAPS events again failed", node, progId, cause);
                }
            }
        }, MoreExecutors.directExecutor());
        return recorded;
    }

    /**
     * Events after {@code after} (or after the first one replayed, when all were asked for) that the switch no
     * longer retains: the gaps in the ids it sent again, up to its next event.
     */
    private static long lost(final Long after, final long next, final SwitchClient.Replay answer) {
        long expected = after == null ? -1 : (after + 1) & 0xFFFF_FFFFL;
        long lost = 0;
        for (var fragment : answer.fragments()) {
            if (fragment.getFragment().toJava() != 0) {
                continue;
            }
            final long id = fragment.getEventId().toJava();
            if (expected >= 0) {
                lost += Math.floorMod(id - expected, 1L << 32);
            }
            expected = (id + 1) & 0xFFFF_FFFFL;
        }
        return expected < 0 ? 0 : lost + Math.floorMod(next - expected, 1L << 32);
    }

    @Override
    public void programInstalled(final String node, final long progId) {
        // a replaced program keeps its event ids; a program loaded anew was unloaded first
    }

    @Override
    public void programUnloaded(final String node, final long progId, final boolean force) {
        collector.forgetProgram(node, progId);
    }

    @Override
    public void switchMastered(final String node) {
        live.removeIf(key -> key.node().equals(node));
        startedOver.removeIf(key -> key.node().equals(node));
        baselines.put(node, readBaselines(node));
    }

    @Override
    public void switchReady(final String node) {
        final var term = baselines.computeIfAbsent(node, this::readBaselines);
        catchUp(node);
        for (int delay : FOLLOW_UPS) {
            timer.schedule(() -> followUp(node, term), delay, TimeUnit.SECONDS);
        }
    }

    @Override
    public void switchForgotten(final String node) {
        baselines.remove(node);
        live.removeIf(key -> key.node().equals(node));
        startedOver.removeIf(key -> key.node().equals(node));
        collector.forgetSwitch(node);
    }
}
