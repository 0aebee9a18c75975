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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.OkoSendMapsSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.oko.send.maps.sal.OkoSendMapsMessage;
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
 * masters the switch): fragments are joined into the event, each map of a complete event replaces the program's
 * received-map in the operational datastore, and a maps-received notification goes to subscribers. An event
 * whose fragments do not arrive in order (a notification dropped under load) is discarded, with a log line.
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

    private record EventKey(String node, long progId, long eventId) {
    }

    private static final class Pending {
        private final OkoSendMapsMessage first;
        private final List<SwitchClient.MapSection> sections = new ArrayList<>();
        private int nextFragment;

        Pending(final OkoSendMapsMessage first) {
            this.first = first;
        }
    }

    private final DataBroker broker;
    private final NotificationPublishService publisher;
    private final LoadedPrograms loaded;
    private final Map<EventKey, Pending> pending = new LinkedHashMap<>();
    /** The chain events are written through; null until the first event and after a failure. */
    private TransactionChain chain;
    private boolean closed;

    public SendMapsCollector(final DataBroker broker, final NotificationPublishService publisher,
            final LoadedPrograms loaded) {
        this.broker = requireNonNull(broker);
        this.publisher = requireNonNull(publisher);
        this.loaded = requireNonNull(loaded);
    }

    public synchronized void onMessage(final ExperimenterMessageFromDev message) {
        if (closed || !(message.getExperimenterMessageOfChoice() instanceof OkoSendMapsSal sal)) {
            return;
        }
        final OkoSendMapsMessage fragment = sal.getOkoSendMapsMessage();
        final String node = NodeRefs.nodeId(message.getNode());
        if (node == null || fragment == null) {
            return;
        }
        final long progId = fragment.getProgId().getValue().toJava();
        final EventKey key = new EventKey(node, progId, fragment.getEventId().toJava());
        Pending event = pending.get(key);
        final int number = fragment.getFragment().toJava();
        if (event == null) {
            if (number != 0) {
                LOG.warn("{}: SEND_MAPS of program {} event {} starts at fragment {}: fragments were lost, event"
                    + " discarded", node, progId, key.eventId(), number);
                return;
            }
            event = new Pending(fragment);
            pending.put(key, event);
            if (pending.size() > MAX_PENDING_EVENTS) {
                final var oldest = pending.keySet().iterator().next();
                pending.remove(oldest);
                LOG.warn("{}: SEND_MAPS event {} of program {} never completed; given up", oldest.node(),
                    oldest.eventId(), oldest.progId());
            }
        } else if (number != event.nextFragment) {
            pending.remove(key);
            LOG.warn("{}: SEND_MAPS of program {} event {}: fragment {} after {}; event discarded", node, progId,
                key.eventId(), number, event.nextFragment - 1);
            return;
        }
        event.nextFragment = number + 1;
        for (var section : fragment.nonnullMapSection()) {
            event.sections.add(new SwitchClient.MapSection(section.getMapIndex().getValue().intValue(),
                section.getMapType().getIntValue(), section.getKeySize().intValue(), section.getValueSize().intValue(),
                section.nonnullEntry().stream().map(e -> new SwitchClient.Entry(e.getKey(),
                    e.getValue() == null ? new byte[0] : e.getValue())).toList()));
        }
        if (Boolean.TRUE.equals(fragment.getLastFragment())) {
            pending.remove(key);
            complete(node, progId, event);
        }
    }

    private void complete(final String node, final long progId, final Pending event) {
        final var program = loaded.get(node, progId);
        final var joined = MapContentsMapper.join(event.sections);
        final var receivedAt = OperationalState.now();
        final OkoSendMapsMessage first = event.first;

        final var tx = chain().newWriteOnlyTransaction();
        final List<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.maps.received.Map> maps =
            new ArrayList<>();
        for (MapContentsMapper.JoinedMap map : joined) {
            final var contents = MapContentsMapper.contents(map, program);
            final ReceivedMap received = new ReceivedMapBuilder(contents)
                .setReceivedAt(receivedAt)
                .setCookie(first.getCookie())
                .setTableId(first.getTableId())
                .setEventId(first.getEventId())
                .setComplete(true)
                .build();
            tx.put(LogicalDatastoreType.OPERATIONAL, OperationalState.programPath(node, progId).toBuilder()
                .child(ReceivedMap.class, new ReceivedMapKey(received.getMapIndex())).build(), received);
            maps.add(new MapBuilder(contents).build());
        }
        tx.commit().addCallback(new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                LOG.debug("{}: SEND_MAPS event {} of program {} recorded", node, first.getEventId(), progId);
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("{}: cannot record SEND_MAPS event {} of program {}", node, first.getEventId(), progId,
                    cause);
            }
        }, MoreExecutors.directExecutor());

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
        if (chain != null) {
            chain.close();
            chain = null;
        }
    }
}
