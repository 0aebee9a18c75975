/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.maps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.common.util.concurrent.Futures;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.api.NotificationPublishService;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.install.Outcome;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.ExperimenterMessageFromDev;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.ExperimenterMessageFromDevBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeRef;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapIndex;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.entries.EntryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.sections.MapSectionBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.OkoSendMapsSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.oko.send.maps.sal.OkoSendMapsMessageBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapsReceived;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.ReceivedMap;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.ReceivedMapKey;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * SEND_MAPS events from a switch on mdsal's in-memory data broker (commits on their own executor, as in the
 * controller): what the operational datastore holds after a burst, and which notifications went out.
 */
class SendMapsCollectorTest extends AbstractConcurrentDataBrokerTest {
    private static final String NODE = "openflow:153";
    private static final long PROG_ID = 7;
    /** Events sent back to back, as a switch whose rule fires in a burst of packets would. */
    private static final int BURST = 2_000;

    private final List<MapsReceived> notifications = new CopyOnWriteArrayList<>();
    private SendMapsCollector collector;

    @BeforeEach
    void setUp() throws Exception {
        setup();
        new OperationalState(getDataBroker()).programStatus(NODE, PROG_ID, "counter", null, Outcome.installed())
            .get(10, TimeUnit.SECONDS);
        collector = new SendMapsCollector(getDataBroker(), publisher(), new LoadedPrograms());
    }

    @AfterEach
    void tearDown() {
        collector.close();
    }

    @Test
    void burstOfEventsLeavesTheLastOneInTheDatastore() throws Exception {
        for (int event = 0; event < BURST; event++) {
            collector.onMessage(fragment(event, 0, true, counterEntry(event)));
        }
        final ReceivedMap stored = awaitEvent(BURST - 1);
        assertEquals(1, stored.nonnullEntry().size());
        final var entry = stored.nonnullEntry().get(0);
        assertEquals("0a000001", entry.getKey());
        assertEquals(String.format("%02x%02x000000000000", (BURST - 1) & 0xff, (BURST - 1) >> 8),
            entry.getValue());
        assertEquals(BURST, notifications.size());
    }

    @Test
    void eventInTwoFragmentsIsStoredWhole() throws Exception {
        collector.onMessage(fragment(5, 0, false, counterEntry(1)));
        collector.onMessage(fragment(5, 1, true, counterEntry(2)));
        final ReceivedMap stored = awaitEvent(5);
        assertEquals(2, stored.nonnullEntry().size());
        assertEquals(1, notifications.size());
    }

    @Test
    void eventWithAMissingFragmentIsDiscarded() throws Exception {
        collector.onMessage(fragment(5, 0, false, counterEntry(1)));
        collector.onMessage(fragment(5, 2, true, counterEntry(2)));
        collector.onMessage(fragment(6, 0, true, counterEntry(3)));
        awaitEvent(6);
        assertEquals(List.of(Uint32.valueOf(6)), notifications.stream().map(MapsReceived::getEventId).toList());
    }

    private ReceivedMap awaitEvent(final long eventId) throws Exception {
        final var path = OperationalState.programPath(NODE, PROG_ID).toBuilder()
            .child(ReceivedMap.class, new ReceivedMapKey(new MapIndex(Uint8.ZERO))).build();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        ReceivedMap stored = null;
        while (System.nanoTime() < deadline) {
            try (var tx = getDataBroker().newReadOnlyTransaction()) {
                stored = tx.read(LogicalDatastoreType.OPERATIONAL, path).get(10, TimeUnit.SECONDS).orElse(null);
            }
            if (stored != null && stored.getEventId().toJava() == eventId) {
                return stored;
            }
            Thread.sleep(20);
        }
        return fail("received-map never showed event " + eventId + "; last stored: "
            + (stored == null ? "none" : stored.getEventId()));
    }

    /** One hash-map entry: key 10.0.0.1, value a little-endian u64 counter. */
    private static EntryBuilder counterEntry(final int count) {
        return new EntryBuilder()
            .setKey(new byte[] { 10, 0, 0, 1 })
            .setValue(new byte[] { (byte) count, (byte) (count >> 8), 0, 0, 0, 0, 0, 0 });
    }

    private static ExperimenterMessageFromDev fragment(final long eventId, final int number, final boolean last,
            final EntryBuilder entry) {
        final var section = new MapSectionBuilder()
            .setMapIndex(new MapIndex(Uint8.ZERO))
            .setMapType(MapType.Hash)
            .setKeySize(Uint16.valueOf(4))
            .setValueSize(Uint16.valueOf(8))
            .setEntry(List.of(entry.build()))
            .build();
        final var message = new OkoSendMapsMessageBuilder()
            .setProgId(new ProgramId(Uint32.valueOf(PROG_ID)))
            .setEventId(Uint32.valueOf(eventId))
            .setCookie(Uint64.valueOf(0x42))
            .setTableId(Uint8.ZERO)
            .setFragment(Uint16.valueOf(number))
            .setLastFragment(last)
            .setMapSection(List.of(section))
            .build();
        return new ExperimenterMessageFromDevBuilder()
            .setNode(new NodeRef(DataObjectIdentifier.builder(Nodes.class)
                .child(Node.class, new NodeKey(new NodeId(NODE))).build()))
            .setExperimenterMessageOfChoice(new OkoSendMapsSalBuilder().setOkoSendMapsMessage(message).build())
            .build();
    }

    private NotificationPublishService publisher() {
        return (NotificationPublishService) Proxy.newProxyInstance(NotificationPublishService.class.getClassLoader(),
            new Class<?>[] { NotificationPublishService.class }, (proxy, method, args) -> {
                if (method.getName().equals("offerNotification")) {
                    notifications.add((MapsReceived) args[0]);
                    return Futures.immediateFuture(null);
                }
                throw new UnsupportedOperationException(method.getName());
            });
    }
}
