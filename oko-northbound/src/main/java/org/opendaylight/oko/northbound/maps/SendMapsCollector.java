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
import com.google.common.util.concurrent.MoreExecutors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.NotificationPublishService;
import org.opendaylight.mdsal.binding.api.TransactionChain;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.openflowjava.notification.NodeRefs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.ExperimenterMessageFromDev;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.SendMaps;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.OkoSendMapsSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapsReceived;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapsReceivedBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.maps.received.MapBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.ReceivedMap;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.ReceivedMapBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.ReceivedMapKey;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Empty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SEND_MAPS events from switches (openflowplugin's experimenter-message-from-dev, on the controller instance that
 * masters the switch, and the events a switch sends again with REPLAY_MAPS, {@link SendMapsReplay}): fragments are
 * joined into the event, each map of a complete event replaces the program's received-map in the operational
 * datastore, and a maps-received notification goes to subscribers once the datastore has it. An event whose
 * fragments do not arrive in order (a notification dropped under load) is discarded, with a log line.
 *
 * <p>Each event is recorded once: the ids recorded lately per switch and program are remembered, and an event that
 * comes again (sent live and then replayed) is dropped. A map of an event older than the one whose contents the
 * datastore holds for that map (a replayed event that the new master missed while newer ones arrived live) is
 * published but does not overwrite the newer contents. Event ids compare in serial number arithmetic
 * (docs/protocol.md 5.7), so the wrap at 2^32 is no step back.
 *
 * <p>Events are written through one transaction chain, in arrival order: a switch can send events faster than
 * separate transactions commit, and separate transactions writing the same received-map fail each other's
 * optimistic lock (a burst of 2,000 events lost most of its writes that way). A chain that fails (the program was
 * removed under it, say) is logged and replaced by a new one for the next event, which carries whole maps again.
 */
public final class SendMapsCollector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SendMapsCollector.class);
    /** Partly received events kept per switch; older ones are given up. */
    private static final int MAX_PENDING_EVENTS = 64;
    /** Event ids remembered per switch and program against duplicates: more than a switch retains (256). */
    private static final int RECENT_EVENTS = 1024;
    private static final long EVENT_ID_MODULUS = 1L << 32;

    private record EventKey(String node, long progId, long eventId) {
    }

    private record StreamKey(String node, long progId) {
    }

    /** What was recorded of one program's events on one switch. */
    private static final class Stream {
        private final Set<Long> recent = new LinkedHashSet<>();
        /** Per map index, the event whose contents its received-map holds (rules may send different maps). */
        private final Map<Integer, Long> newest = new HashMap<>();
    }

    private static final class Pending {
        private final SendMaps first;
        private final List<SwitchClient.MapSection> sections = new ArrayList<>();
        private int nextFragment;

        Pending(final SendMaps first) {
            this.first = first;
        }
    }

    private final DataBroker broker;
    private final NotificationPublishService publisher;
    private final LoadedPrograms loaded;
    private final Map<EventKey, Pending> pending = new LinkedHashMap<>();
    private final Map<StreamKey, Stream> streams = new HashMap<>();
    /** The chain events are written through; null until the first event and after a failure. */
    private TransactionChain chain;
    private boolean closed;

    public SendMapsCollector(final DataBroker broker, final NotificationPublishService publisher,
            final LoadedPrograms loaded) {
        this.broker = requireNonNull(broker);
        this.publisher = requireNonNull(publisher);
        this.loaded = requireNonNull(loaded);
    }

    /** True if event {@code eventId} comes after event {@code other}: 1 to 2^31 - 1 later, modulo 2^32. */
    public static boolean after(final long eventId, final long other) {
        final long difference = Math.floorMod(eventId - other, EVENT_ID_MODULUS);
        return difference != 0 && difference < EVENT_ID_MODULUS / 2;
    }

    public synchronized void onMessage(final ExperimenterMessageFromDev message) {
        if (closed || !(message.getExperimenterMessageOfChoice() instanceof OkoSendMapsSal sal)) {
            return;
        }
        final SendMaps fragment = sal.getOkoSendMapsMessage();
        final String node = NodeRefs.nodeId(message.getNode());
        if (node == null || fragment == null) {
            return;
        }
        final Pending event = join(pending, node, fragment);
        if (event != null) {
            record(node, fragment.getProgId().getValue().toJava(), event);
        }
    }

    /**
     * The fragments a switch sent again for one program (REPLAY_MAPS), in event order: each event not recorded yet
     * is recorded. Returns how many were.
     */
    public synchronized int replayed(final String node, final long progId, final List<? extends SendMaps> fragments) {
        if (closed) {
            return 0;
        }
        // Joined apart from the live events: a live fragment of the same event must not interleave with these.
        final Map<EventKey, Pending> joining = new LinkedHashMap<>();
        int recorded = 0;
        for (SendMaps fragment : fragments) {
            if (fragment.getProgId().getValue().toJava() != progId) {
                LOG.warn("{}: REPLAY_MAPS of program {} returned an event of program {}; ignored", node, progId,
                    fragment.getProgId().getValue());
                continue;
            }
            final Pending event = join(joining, node, fragment);
            if (event != null && record(node, progId, event)) {
                recorded++;
            }
        }
        return recorded;
    }

    /** The switch is no longer mastered here: what was recorded of it is forgotten (its next master reads on). */
    public synchronized void forgetSwitch(final String node) {
        streams.keySet().removeIf(key -> key.node().equals(node));
        pending.keySet().removeIf(key -> key.node().equals(node));
    }

    /** The program was unloaded from the switch: loaded again, its event ids start at 0 again. */
    public synchronized void forgetProgram(final String node, final long progId) {
        streams.remove(new StreamKey(node, progId));
    }

    /** Adds a fragment to its event in {@code into}; returns the event when the fragment completed it. */
    private static Pending join(final Map<EventKey, Pending> into, final String node, final SendMaps fragment) {
        final long progId = fragment.getProgId().getValue().toJava();
        final EventKey key = new EventKey(node, progId, fragment.getEventId().toJava());
        Pending event = into.get(key);
        final int number = fragment.getFragment().toJava();
        if (event == null) {
            if (number != 0) {
                LOG.warn("{}: SEND_MAPS of program {} event {} starts at fragment {}: fragments were lost, event"
                    + " discarded", node, progId, key.eventId(), number);
                return null;
            }
            event = new Pending(fragment);
            into.put(key, event);
            if (into.size() > MAX_PENDING_EVENTS) {
                final var oldest = into.keySet().iterator().next();
                into.remove(oldest);
                LOG.warn("{}: SEND_MAPS event {} of program {} never completed; given up", oldest.node(),
                    oldest.eventId(), oldest.progId());
            }
        } else if (number != event.nextFragment) {
            into.remove(key);
            LOG.warn("{}: SEND_MAPS of program {} event {}: fragment {} after {}; event discarded", node, progId,
                key.eventId(), number, event.nextFragment - 1);
            return null;
        }
        event.nextFragment = number + 1;
        for (var section : fragment.nonnullMapSection()) {
            event.sections.add(new SwitchClient.MapSection(section.getMapIndex().getValue().intValue(),
                section.getMapType().getIntValue(), section.getKeySize().intValue(), section.getValueSize().intValue(),
                section.nonnullEntry().stream().map(e -> new SwitchClient.Entry(e.getKey(),
                    e.getValue() == null ? new byte[0] : e.getValue())).toList()));
        }
        if (Boolean.TRUE.equals(fragment.getLastFragment())) {
            into.remove(key);
            return event;
        }
        return null;
    }

    /** Records a complete event unless it was recorded before; returns whether it was recorded now. */
    private boolean record(final String node, final long progId, final Pending event) {
        final SendMaps first = event.first;
        final long eventId = first.getEventId().toJava();
        final Stream stream = streams.computeIfAbsent(new StreamKey(node, progId), key -> new Stream());
        if (!stream.recent.add(eventId)) {
            LOG.debug("{}: SEND_MAPS event {} of program {} was recorded already", node, eventId, progId);
            return false;
        }
        if (stream.recent.size() > RECENT_EVENTS) {
            final var oldest = stream.recent.iterator();
            oldest.next();
            oldest.remove();
        }

        final var program = loaded.get(node, progId);
        final var joined = MapContentsMapper.join(event.sections);
        final var receivedAt = OperationalState.now();
        final List<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.maps.received.Map> maps =
            new ArrayList<>();
        final List<ReceivedMap> newer = new ArrayList<>();
        for (MapContentsMapper.JoinedMap map : joined) {
            final var contents = MapContentsMapper.contents(map, program);
            maps.add(new MapBuilder(contents).build());
            final Long held = stream.newest.get(map.mapIndex());
            if (held == null || after(eventId, held)) {
                // Newer than what the datastore holds for this map (a replayed older event is published only).
                stream.newest.put(map.mapIndex(), eventId);
                newer.add(new ReceivedMapBuilder(contents)
                    .setReceivedAt(receivedAt)
                    .setCookie(first.getCookie())
                    .setTableId(first.getTableId())
                    .setEventId(first.getEventId())
                    .setComplete(true)
                    .build());
            }
        }
        final var notification = new MapsReceivedBuilder()
            .setNode(new NodeId(node))
            .setProgramId(new ProgramId(first.getProgId().getValue()))
            .setProgram(program.map(p -> new ProgramName(p.program().name())).orElse(null))
            .setCookie(first.getCookie())
            .setTableId(first.getTableId())
            .setEventId(first.getEventId())
            .setSuppressed(first.getSuppressed())
            .setMap(BindingMap.ordered(maps))
            .build();
        if (newer.isEmpty()) {
            publish(node, progId, notification);
            return true;
        }

        final var tx = chain().newWriteOnlyTransaction();
        for (ReceivedMap map : newer) {
            tx.put(LogicalDatastoreType.OPERATIONAL, OperationalState.programPath(node, progId).toBuilder()
                .child(ReceivedMap.class, new ReceivedMapKey(map.getMapIndex())).build(), map);
        }
        // Published once the datastore has it: a master killed before its write lands does not leave subscribers
        // with an event that its successor, reading the datastore, asks the switch for again. An event whose write
        // fails is not published, and may be recorded when the switch sends it again.
        tx.commit().addCallback(new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                LOG.debug("{}: SEND_MAPS event {} of program {} recorded", node, eventId, progId);
                publish(node, progId, notification);
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("{}: cannot record SEND_MAPS event {} of program {}", node, eventId, progId, cause);
                notRecorded(node, progId, eventId);
            }
        }, MoreExecutors.directExecutor());
        return true;
    }

    private synchronized void notRecorded(final String node, final long progId, final long eventId) {
        final Stream stream = streams.get(new StreamKey(node, progId));
        if (stream != null) {
            stream.recent.remove(eventId);
        }
    }

    private void publish(final String node, final long progId, final MapsReceived notification) {
        if (publisher.offerNotification(notification) == NotificationPublishService.REJECTED) {
            LOG.warn("{}: maps-received notification of program {} dropped: subscribers are too slow", node,
                progId);
        }
    }

    private TransactionChain chain() {
        if (chain == null) {
            final TransactionChain created = broker.createMergingTransactionChain();
            created.addCallback(new FutureCallback<Empty>() {
                @Override
                public void onSuccess(final Empty result) {
                    // closed
                }

                @Override
                public void onFailure(final Throwable cause) {
                    chainFailed(created, cause);
                }
            });
            chain = created;
        }
        return chain;
    }

    private synchronized void chainFailed(final TransactionChain failed, final Throwable cause) {
        LOG.warn("SEND_MAPS transaction chain failed; the next event starts a new one", cause);
        if (chain == failed) {
            chain = null;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        pending.clear();
        streams.clear();
        if (chain != null) {
            chain.close();
            chain = null;
        }
    }
}
