/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.maps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.common.util.concurrent.Futures;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.api.NotificationPublishService;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.install.FakeSwitchClient;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.install.Outcome;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
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
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.oko.send.maps.sal.OkoSendMapsMessage;
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
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @BeforeEach
    void setUp() throws Exception {
        setup();
        new OperationalState(getDataBroker()).programStatus(NODE, PROG_ID, "counter", null, Outcome.installed())
            .get(10, TimeUnit.SECONDS);
        collector = new SendMapsCollector(getDataBroker(), publisher(), new LoadedPrograms());
    }

    @AfterEach
    void tearDown() {
        timer.shutdownNow();
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
        awaitNotifications(BURST);
    }

    @Test
    void eventInTwoFragmentsIsStoredWhole() throws Exception {
        collector.onMessage(fragment(5, 0, false, counterEntry(1)));
        collector.onMessage(fragment(5, 1, true, counterEntry(2)));
        final ReceivedMap stored = awaitEvent(5);
        assertEquals(2, stored.nonnullEntry().size());
        awaitNotifications(1);
    }

    @Test
    void eventWithAMissingFragmentIsDiscarded() throws Exception {
        collector.onMessage(fragment(5, 0, false, counterEntry(1)));
        collector.onMessage(fragment(5, 2, true, counterEntry(2)));
        collector.onMessage(fragment(6, 0, true, counterEntry(3)));
        awaitEvent(6);
        awaitNotifications(1);
        assertEquals(List.of(Uint32.valueOf(6)), eventIds());
    }

    @Test
    void eventSentLiveAndAgainIsRecordedOnceAndOlderOnesDoNotOverwriteTheMaps() throws Exception {
        collector.onMessage(fragment(10, 0, true, counterEntry(10)));
        awaitEvent(10);
        // A new master's REPLAY_MAPS answer: 9 (missed, older than 10), 10 (arrived live already), 11 (new).
        assertEquals(2, collector.replayed(NODE, PROG_ID, List.of(message(9, 0, true, counterEntry(9)),
            message(10, 0, true, counterEntry(10)), message(11, 0, false, counterEntry(11)),
            message(11, 1, true, counterEntry(12)))));
        awaitEvent(11);
        awaitNotifications(3);
        // Each once; the datastore holds 11, not the older 9 published after it.
        assertEquals(List.of(9L, 10L, 11L), eventIds().stream().map(Uint32::toJava).sorted().toList());
        assertEquals(11, awaitEvent(11).getEventId().toJava());
        // 11 came live too, late: not again.
        collector.onMessage(fragment(11, 0, true, counterEntry(11)));
        collector.onMessage(fragment(12, 0, true, counterEntry(13)));
        awaitEvent(12);
        awaitNotifications(4);
        assertEquals(4, notifications.size());
    }

    @Test
    void eventIdsWrapWithoutGoingBack() throws Exception {
        collector.onMessage(fragment(0xFFFF_FFFFL, 0, true, counterEntry(1)));
        collector.onMessage(fragment(0, 0, true, counterEntry(2)));
        awaitEvent(0);
        awaitNotifications(2);
        assertEquals(0, collector.replayed(NODE, PROG_ID, List.of(message(0xFFFF_FFFFL, 0, true, counterEntry(1)),
            message(0, 0, true, counterEntry(2)))));
        assertTrue(SendMapsCollector.after(0, 0xFFFF_FFFFL));
        assertFalse(SendMapsCollector.after(0xFFFF_FFFFL, 0));
        assertFalse(SendMapsCollector.after(5, 5));
        assertTrue(SendMapsCollector.after(0x8000_0004L, 5));
        assertFalse(SendMapsCollector.after(0x8000_0005L, 5));
    }

    @Test
    void programUnloadedStartsItsEventIdsAgain() throws Exception {
        collector.onMessage(fragment(0, 0, true, counterEntry(1)));
        awaitNotifications(1);
        collector.onMessage(fragment(0, 0, true, counterEntry(1)));
        collector.forgetProgram(NODE, PROG_ID);
        collector.onMessage(fragment(0, 0, true, counterEntry(2)));
        awaitNotifications(2);
        assertEquals(List.of(0L, 0L), eventIds().stream().map(Uint32::toJava).toList());
        final ReceivedMap stored = awaitEvent(0);
        assertEquals("0200000000000000", stored.nonnullEntry().get(0).getValue());
    }

    @Test
    void newMasterAsksForTheEventsAfterTheLastRecordedAndRecordsThem() throws Exception {
        collector.onMessage(fragment(41, 0, true, counterEntry(41)));
        awaitEvent(41);
        awaitNotifications(1);
        final var client = new FakeSwitchClient();
        final var onSwitch = new LoadedPrograms();
        onSwitch.put(NODE, PROG_ID, new LoadedPrograms.Loaded(null, LoadedPrograms.Origin.CONFIG, "x"));
        final var replay = new SendMapsReplay(getDataBroker(), client, collector, onSwitch, timer);

        // Failover: the switch retains 42-44, which the previous master never recorded; 44 then arrives live too
        // (sent while openflowplugin finished taking the switch over).
        client.replays = (progId, after) -> after != null && after == 41 ? new SwitchClient.Replay(45, List.of(
            message(42, 0, true, counterEntry(42)), message(43, 0, true, counterEntry(43)),
            message(44, 0, true, counterEntry(44)))) : fail("asked after " + after);
        assertEquals(List.of(List.of(3)), List.of(replay.catchUp(NODE).get(10, TimeUnit.SECONDS)));
        assertEquals(List.of(NODE + " replay " + PROG_ID + " after 41"), client.sent);
        collector.onMessage(fragment(44, 0, true, counterEntry(44)));
        awaitEvent(44);
        awaitNotifications(4);
        assertEquals(List.of(41L, 42L, 43L, 44L), eventIds().stream().map(Uint32::toJava).sorted().toList());

        // The switch restarted (a new connection, its program loaded again): event ids start at 0, so the events
        // after 44 do not exist; the master asks for every retained event instead.
        replay.switchForgotten(NODE);
        client.sent.clear();
        client.replays = (progId, after) -> after == null ? new SwitchClient.Replay(2, List.of(
            message(0, 0, true, counterEntry(1)), message(1, 0, true, counterEntry(2))))
            : new SwitchClient.Replay(2, List.of());
        replay.catchUp(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(List.of(NODE + " replay " + PROG_ID + " after 44", NODE + " replay " + PROG_ID + " all"),
            client.sent);
        awaitEvent(1);
        awaitNotifications(6);
        // Later catch-ups of this mastership ask for all too (event 44 of the old numbering means nothing now).
        replay.catchUp(NODE).get(10, TimeUnit.SECONDS);
        assertEquals(NODE + " replay " + PROG_ID + " all", client.sent.get(client.sent.size() - 1));
        assertEquals(6, notifications.size());
    }

    @Test
    void firstLiveEventAfterATakeoverFetchesWhatOpenflowpluginDroppedBeforeIt() throws Exception {
        collector.onMessage(fragment(41, 0, true, counterEntry(41)));
        awaitEvent(41);
        awaitNotifications(1);
        final var client = new FakeSwitchClient();
        final var replay = new SendMapsReplay(getDataBroker(), client, collector, new LoadedPrograms(), timer);
        // Taken over: the baseline (41) is read before anything arrives. 42-44 were dropped while openflowplugin
        // finished the takeover; 45 is the first to arrive live.
        replay.switchMastered(NODE);
        client.replays = (progId, after) -> after != null && after == 41 ? new SwitchClient.Replay(46, List.of(
            message(42, 0, true, counterEntry(42)), message(43, 0, true, counterEntry(43)),
            message(44, 0, true, counterEntry(44)), message(45, 0, true, counterEntry(45))))
            : fail("asked after " + after);
        replay.onMessage(fragment(45, 0, true, counterEntry(45)));
        replay.onMessage(fragment(46, 0, true, counterEntry(46)));
        awaitNotifications(6);
        assertEquals(List.of(41L, 42L, 43L, 44L, 45L, 46L),
            eventIds().stream().map(Uint32::toJava).sorted().toList());
        assertEquals(List.of(NODE + " replay " + PROG_ID + " after 41"), client.sent);
        assertEquals(46, awaitEvent(46).getEventId().toJava());
    }

    @Test
    void anOlderEventStillWritesAMapNoNewerEventCarried() throws Exception {
        // Two rules of one program send different maps: event 10 map 0 live, then event 9 (map 1) replayed.
        collector.onMessage(fragment(10, 0, true, counterEntry(10)));
        awaitEvent(10);
        assertEquals(1, collector.replayed(NODE, PROG_ID, List.of(message(9, 0, true, counterEntry(9), 1))));
        assertEquals(9, awaitEvent(9, 1).getEventId().toJava());
        awaitNotifications(2);
        assertEquals(10, awaitEvent(10).getEventId().toJava());
    }

    @Test
    void aReplayAnsweredAfterMastershipWasLostRecordsNothing() throws Exception {
        final var client = new FakeSwitchClient();
        final var onSwitch = new LoadedPrograms();
        onSwitch.put(NODE, PROG_ID, new LoadedPrograms.Loaded(null, LoadedPrograms.Origin.CONFIG, "x"));
        final var replay = new SendMapsReplay(getDataBroker(), client, collector, onSwitch, timer);
        replay.switchMastered(NODE);
        client.replays = (progId, after) -> {
            replay.switchForgotten(NODE);          // another member took the switch over meanwhile
            return new SwitchClient.Replay(3, List.of(message(2, 0, true, counterEntry(2))));
        };
        assertEquals(List.of(0), replay.catchUp(NODE).get(10, TimeUnit.SECONDS));
        Thread.sleep(200);
        assertEquals(List.of(), notifications);
    }

    private List<Uint32> eventIds() {
        return notifications.stream().map(MapsReceived::getEventId).toList();
    }

    private void awaitNotifications(final int count) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (notifications.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(count, notifications.size(), "notifications published");
    }

    private ReceivedMap awaitEvent(final long eventId) throws Exception {
        return awaitEvent(eventId, 0);
    }

    private ReceivedMap awaitEvent(final long eventId, final int mapIndex) throws Exception {
        final var path = OperationalState.programPath(NODE, PROG_ID).toBuilder()
            .child(ReceivedMap.class, new ReceivedMapKey(new MapIndex(Uint8.valueOf(mapIndex)))).build();
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
        return new ExperimenterMessageFromDevBuilder()
            .setNode(new NodeRef(DataObjectIdentifier.builder(Nodes.class)
                .child(Node.class, new NodeKey(new NodeId(NODE))).build()))
            .setExperimenterMessageOfChoice(new OkoSendMapsSalBuilder()
                .setOkoSendMapsMessage(message(eventId, number, last, entry)).build())
            .build();
    }

    private static OkoSendMapsMessage message(final long eventId, final int number, final boolean last,
            final EntryBuilder entry) {
        return message(eventId, number, last, entry, 0);
    }

    private static OkoSendMapsMessage message(final long eventId, final int number, final boolean last,
            final EntryBuilder entry, final int mapIndex) {
        final var section = new MapSectionBuilder()
            .setMapIndex(new MapIndex(Uint8.valueOf(mapIndex)))
            .setMapType(MapType.Hash)
            .setKeySize(Uint16.valueOf(4))
            .setValueSize(Uint16.valueOf(8))
            .setEntry(List.of(entry.build()))
            .build();
        return new OkoSendMapsMessageBuilder()
            .setProgId(new ProgramId(Uint32.valueOf(PROG_ID)))
            .setEventId(Uint32.valueOf(eventId))
            .setCookie(Uint64.valueOf(0x42))
            .setTableId(Uint8.ZERO)
            .setFragment(Uint16.valueOf(number))
            .setLastFragment(last)
            .setMapSection(List.of(section))
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
