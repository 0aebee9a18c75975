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
import java.util.List;
import java.util.Optional;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.install.SwitchEvents;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a switch's new master missed of its SEND_MAPS events: while a cluster member takes a switch over,
 * openflowplugin drops the switch's experimenter messages (until the device is fully mastered), and a master that
 * was killed recorded nothing in its last moments. So when a switch mastered here has its programs (a connection
 * or a takeover), each program's events after the last one the operational datastore records are asked for again
 * (REPLAY_MAPS, docs/protocol.md 5.7; all retained events when none is recorded) and handed to the
 * {@link SendMapsCollector}, which records those it has not recorded yet. What the switch no longer retains is
 * logged as lost.
 */
public final class SendMapsReplay implements SwitchEvents {
    private static final Logger LOG = LoggerFactory.getLogger(SendMapsReplay.class);

    private final DataBroker broker;
    private final SwitchClient client;
    private final SendMapsCollector collector;
    private final LoadedPrograms loaded;

    public SendMapsReplay(final DataBroker broker, final SwitchClient client, final SendMapsCollector collector,
            final LoadedPrograms loaded) {
        this.broker = requireNonNull(broker);
        this.client = requireNonNull(client);
        this.collector = requireNonNull(collector);
        this.loaded = requireNonNull(loaded);
    }

    /** Asks the switch for the events of each of its programs that nobody recorded; completes when all are in. */
    public ListenableFuture<List<Integer>> catchUp(final String node) {
        final List<ListenableFuture<Integer>> programs = new ArrayList<>();
        for (long progId : loaded.onSwitch(node).keySet()) {
            programs.add(Futures.transformAsync(lastRecorded(node, progId),
                last -> replay(node, progId, last.orElse(null)), MoreExecutors.directExecutor()));
        }
        return Futures.successfulAsList(programs);
    }

    /** The newest event id among the program's received maps in the operational datastore. */
    private ListenableFuture<Optional<Long>> lastRecorded(final String node, final long progId) {
        try (var tx = broker.newReadOnlyTransaction()) {
            return Futures.transform(tx.read(LogicalDatastoreType.OPERATIONAL, OperationalState.programPath(node,
                progId)), program -> program.map(SendMapsReplay::newest).orElse(Optional.empty()),
                MoreExecutors.directExecutor());
        }
    }

    private static Optional<Long> newest(final Program program) {
        Long newest = null;
        for (var map : program.nonnullReceivedMap().values()) {
            if (map.getEventId() != null) {
                final long id = map.getEventId().toJava();
                if (newest == null || SendMapsCollector.after(id, newest)) {
                    newest = id;
                }
            }
        }
        return Optional.ofNullable(newest);
    }

    private ListenableFuture<Integer> replay(final String node, final long progId, final Long after) {
        final ListenableFuture<Integer> recorded = Futures.transformAsync(client.replayMaps(node, progId, after),
            answer -> {
                final long next = answer.nextEventId();
                if (after != null && !SendMapsCollector.after(next, after)) {
                    // The program's ids started again (the switch loaded it again since): all it has is new.
                    LOG.info("{}: program {} was loaded again since event {} was recorded (its next event is {}); "
                        + "asking for all the events it retains", node, progId, after, next);
                    return replay(node, progId, null);
                }
                final int count = collector.replayed(node, progId, answer.fragments());
                final long lost = lost(after, next, answer);
                if (lost > 0) {
                    LOG.warn("{}: program {}: {} SEND_MAPS events after event {} are no longer retained by the "
                        + "switch and are lost", node, progId, lost, after);
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

    /** Events after {@code after} that the switch no longer retains (none can be known when nothing was). */
    private static long lost(final Long after, final long next, final SwitchClient.Replay answer) {
        if (after == null) {
            return 0;
        }
        final long firstWanted = (after + 1) & 0xFFFF_FFFFL;
        final long firstThere = answer.fragments().isEmpty() ? next
            : answer.fragments().get(0).getEventId().toJava();
        return Math.floorMod(firstThere - firstWanted, 1L << 32);
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
    public void switchReady(final String node) {
        catchUp(node);
    }

    @Override
    public void switchForgotten(final String node) {
        collector.forgetSwitch(node);
    }
}
