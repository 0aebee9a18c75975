/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.northbound.synguard.FloodTracker.Phase;

/**
 * The guard's decisions on the frames of filter-library/tests/p0f/vectors.json: legitimate clients (Linux, Windows,
 * macOS) and two flood tools, with the rates a switch would count.
 */
class FloodTrackerTest {
    private static final Path VECTORS = Path.of("..", "filter-library", "tests", "p0f", "vectors.json");
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long THRESHOLD = 100;
    private static final int IPV4_DST = 14 + 16;
    private static final long[] NO_DROPS = new long[4];
    private static final Map<String, byte[]> FRAMES = new HashMap<>();

    private final InetAddress server = address("10.0.2.1");
    private final InetAddress otherServer = address("10.0.2.2");

    @BeforeAll
    static void readVectors() throws IOException {
        for (JsonElement e : JsonParser.parseString(Files.readString(VECTORS)).getAsJsonObject()
                .getAsJsonArray("vectors")) {
            FRAMES.put(e.getAsJsonObject().get("name").getAsString(),
                HexFormat.of().parseHex(e.getAsJsonObject().get("frame").getAsString()));
        }
    }

    private static InetAddress address(final String text) {
        try {
            return InetAddress.getByName(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static SynSample syn(final String vector, final InetAddress destination) {
        final byte[] frame = FRAMES.get(vector).clone();
        System.arraycopy(destination.getAddress(), 0, frame, IPV4_DST, 4);
        return SynSample.ofFrame(frame).orElseThrow();
    }

    private static FloodTracker tracker(final List<P0fSignature> pinned, final Set<P0fSignature> vetoed) {
        return new FloodTracker(new FloodTracker.Settings(THRESHOLD, 10 * SECOND, 5 * SECOND, 4, 0.01, pinned,
            vetoed), 0);
    }

    /** One second: 'legit' samples of each client and 'flood' of the tool, all to 'to', at 'rate' SYNs/s. */
    private void second(final FloodTracker tracker, final int second, final int legit, final String tool,
            final int flood, final long rate, final long[] drops) {
        final long now = second * SECOND;
        for (int i = 0; i < legit; i++) {
            tracker.sample(now - SECOND / 2, syn("linux", server));
            tracker.sample(now - SECOND / 2, syn("windows", server));
            tracker.sample(now - SECOND / 2, syn("macos", server));
        }
        for (int i = 0; i < flood; i++) {
            tracker.sample(now - SECOND / 2, syn(tool, server));
        }
        tracker.tick(now, Map.of(server, rate), drops, 1.0);
    }

    private static P0fSignature narrowest(final String vector) {
        return syn(vector, address("10.0.2.1")).fingerprint().signature();
    }

    @Test
    void learnsTheClientsThenDropsOnlyTheFloodAndRemovesItAfterTheHoldTime() {
        final FloodTracker tracker = tracker(List.of(), Set.of());
        for (int s = 1; s < 10; s++) {
            second(tracker, s, 5, null, 0, 15, NO_DROPS);
            assertEquals(Phase.LEARNING, tracker.phase());
        }
        second(tracker, 10, 5, null, 0, 15, NO_DROPS);
        assertEquals(Phase.WATCHING, tracker.phase());
        assertEquals(3, tracker.learnedShares().size());

        // A flood at 10x: its first second's samples are the attack's, not learned.
        second(tracker, 11, 5, "flood tool, window 512", 50, 165, NO_DROPS);
        assertEquals(Phase.MITIGATING, tracker.phase());
        assertEquals(11 * SECOND, tracker.phaseSinceNanos());
        final FloodTracker.Active active = tracker.slot(0).orElseThrow();
        assertEquals(narrowest("flood tool, window 512"), active.signature());
        assertEquals(1, tracker.active().size());
        for (String client : List.of("linux", "windows", "macos")) {
            assertFalse(active.signature().matches(syn(client, server).fingerprint()), client);
        }
        assertEquals(0.0, active.legitimateShare());
        assertTrue(tracker.destinations().get(0).flooded());

        // The switch drops it: the sampler counts the clients only; the slot's drops keep it.
        for (int s = 12; s < 20; s++) {
            second(tracker, s, 5, null, 0, 15, new long[] {150, 0, 0, 0});
        }
        assertEquals(8 * 150, tracker.slot(0).orElseThrow().dropped());
        assertEquals(150, tracker.slot(0).orElseThrow().droppedPerSecond());
        // The flood stops: removed once the hold time (5 s) has passed without a flooding second.
        for (int s = 20; s <= 24; s++) {
            second(tracker, s, 5, null, 0, 15, NO_DROPS);
            assertEquals(Phase.MITIGATING, tracker.phase(), "second " + s);
        }
        second(tracker, 25, 5, null, 0, 15, NO_DROPS);
        assertEquals(Phase.WATCHING, tracker.phase());
        assertTrue(tracker.active().isEmpty());
        assertEquals(3, tracker.learnedShares().size(), "the flood was never learned");
    }

    @Test
    void theFloodsFirstSamplesCountedBelowTheThresholdAreNotLearned() {
        final FloodTracker tracker = tracker(List.of(), Set.of());
        for (int s = 1; s <= 10; s++) {
            second(tracker, s, 5, null, 0, 15, NO_DROPS);
        }
        // The flood starts late in an interval: its rate there stays under the threshold.
        second(tracker, 11, 5, "flood tool, window 512", 20, 80, NO_DROPS);
        assertEquals(Phase.WATCHING, tracker.phase());
        second(tracker, 12, 5, "flood tool, window 512", 50, 165, NO_DROPS);
        assertEquals(narrowest("flood tool, window 512"), tracker.slot(0).orElseThrow().signature());
        assertTrue(tracker.learnedShares().stream()
            .noneMatch(entry -> entry.getKey().equals(narrowest("flood tool, window 512"))));
    }

    @Test
    void aSecondFloodWithAnotherToolTakesTheNextSlot() {
        final FloodTracker tracker = tracker(List.of(), Set.of());
        for (int s = 1; s <= 10; s++) {
            second(tracker, s, 5, null, 0, 15, NO_DROPS);
        }
        second(tracker, 11, 5, "flood tool, window 512", 50, 165, NO_DROPS);
        second(tracker, 12, 5, null, 0, 15, new long[] {150, 0, 0, 0});
        second(tracker, 13, 5, "flood tool, window 1024, ttl 255", 50, 165, new long[] {150, 0, 0, 0});
        assertEquals(narrowest("flood tool, window 512"), tracker.slot(0).orElseThrow().signature());
        assertEquals(narrowest("flood tool, window 1024, ttl 255"), tracker.slot(1).orElseThrow().signature());
    }

    @Test
    void aFloodWhileLearningIsReportedNotMitigated() {
        final FloodTracker tracker = tracker(List.of(), Set.of());
        second(tracker, 1, 5, null, 0, 15, NO_DROPS);
        second(tracker, 2, 5, "flood tool, window 512", 50, 165, NO_DROPS);
        assertEquals(Phase.LEARNING, tracker.phase());
        assertTrue(tracker.active().isEmpty());
        assertTrue(tracker.message().contains("10.0.2.1 while learning"), tracker.message());
    }

    @Test
    void aFloodThatLooksLikeTheClientsIsNotDropped() {
        final FloodTracker tracker = tracker(List.of(), Set.of());
        for (int s = 1; s <= 10; s++) {
            second(tracker, s, 5, null, 0, 15, NO_DROPS);
        }
        second(tracker, 11, 5, "linux", 50, 165, NO_DROPS);
        assertTrue(tracker.active().isEmpty());
        assertEquals(Phase.WATCHING, tracker.phase());
        assertTrue(tracker.message().contains("no signature matches it without"), tracker.message());
    }

    @Test
    void vetoedSignaturesAreNotChosenPinnedOnesComeFirstAndStayWhileTheMitigationLasts() {
        final P0fSignature vetoed = narrowest("flood tool, window 512");
        final P0fSignature pinned = narrowest("flood tool, window 1024, ttl 255");
        final FloodTracker tracker = tracker(List.of(pinned), Set.of(vetoed));
        for (int s = 1; s <= 10; s++) {
            second(tracker, s, 5, null, 0, 15, NO_DROPS);
        }
        second(tracker, 11, 5, "flood tool, window 512", 50, 165, NO_DROPS);
        assertEquals(pinned, tracker.slot(0).orElseThrow().signature());
        assertTrue(tracker.slot(0).orElseThrow().pinned());
        final P0fSignature chosen = tracker.slot(1).orElseThrow().signature();
        assertFalse(chosen.equals(vetoed));
        assertTrue(chosen.matches(syn("flood tool, window 512", server).fingerprint()), chosen.toText());

        // The chosen one expires after the hold time; the pinned one goes with it when it dropped nothing either.
        for (int s = 12; s <= 16; s++) {
            second(tracker, s, 5, null, 0, 15, NO_DROPS);
            assertEquals(2, tracker.active().size(), "second " + s);
        }
        second(tracker, 17, 5, null, 0, 15, NO_DROPS);
        assertTrue(tracker.active().isEmpty());
    }

    @Test
    void anOperatorsVetoAndPinTakeEffectDuringAMitigationWithoutLearningAgain() {
        final FloodTracker tracker = tracker(List.of(), Set.of());
        for (int s = 1; s <= 10; s++) {
            second(tracker, s, 5, null, 0, 15, NO_DROPS);
        }
        second(tracker, 11, 5, "flood tool, window 512", 50, 165, NO_DROPS);
        final P0fSignature chosen = tracker.slot(0).orElseThrow().signature();
        final P0fSignature other = narrowest("flood tool, window 1024, ttl 255");

        assertTrue(tracker.reconfigure(new FloodTracker.Settings(THRESHOLD, 10 * SECOND, 5 * SECOND, 4, 0.01,
            List.of(other), Set.of(chosen)), 11 * SECOND + 1));
        assertEquals(List.of(other), tracker.active().stream().map(FloodTracker.Active::signature).toList());
        assertTrue(tracker.active().get(0).pinned());
        assertEquals(Phase.MITIGATING, tracker.phase());
        assertEquals(3, tracker.learnedShares().size(), "what the guard learned stays");

        // Unpinned and unvetoed again: nothing changes in the slots, the pin flag does.
        assertFalse(tracker.reconfigure(new FloodTracker.Settings(THRESHOLD, 10 * SECOND, 5 * SECOND, 4, 0.01,
            List.of(), Set.of()), 11 * SECOND + 2));
        assertFalse(tracker.active().get(0).pinned());
    }

    @Test
    void withFewLearnedSamplesOneSignatureAtMostIsInstalled() {
        final FloodTracker tracker = tracker(List.of(), Set.of());
        for (int s = 1; s <= 10; s++) {
            second(tracker, s, 1, null, 0, 3, NO_DROPS);
        }
        assertTrue(tracker.learnedSamples() < FloodTracker.MIN_LEARNED_SAMPLES, "learned " + tracker.learnedSamples());
        for (int s = 11; s <= 12; s++) {
            for (int i = 0; i < 40; i++) {
                tracker.sample(s * SECOND - 1, syn("flood tool, window 512", server));
                tracker.sample(s * SECOND - 1, syn("flood tool, window 1024, ttl 255", server));
            }
            tracker.tick(s * SECOND, Map.of(server, 300L), NO_DROPS, 1.0);
        }
        assertEquals(1, tracker.active().size());
        assertTrue(tracker.message().contains("one while fewer than 50 samples are learned"), tracker.message());
    }

    @Test
    void aPinnedSignatureDoesNotTakeTheOneSlotAFloodGetsWithFewLearnedSamples() {
        final P0fSignature pinned = narrowest("flood tool, window 1024, ttl 255");
        final FloodTracker tracker = tracker(List.of(pinned), Set.of());
        for (int s = 1; s <= 10; s++) {
            second(tracker, s, 1, null, 0, 3, NO_DROPS);
        }
        second(tracker, 11, 1, "flood tool, window 512", 50, 165, NO_DROPS);
        assertEquals(List.of(pinned, narrowest("flood tool, window 512")),
            tracker.active().stream().map(FloodTracker.Active::signature).toList());
    }

    @Test
    void onlyTheFloodedDestinationsSamplesAreTheAttacks() {
        final FloodTracker tracker = tracker(List.of(), Set.of());
        for (int s = 1; s <= 10; s++) {
            second(tracker, s, 5, null, 0, 15, NO_DROPS);
        }
        // The other server is flooded by the tool; 10.0.2.1's clients are not part of that flood.
        for (int i = 0; i < 40; i++) {
            tracker.sample(11 * SECOND - 1, syn("flood tool, window 1024, ttl 255", otherServer));
        }
        for (int i = 0; i < 40; i++) {
            tracker.sample(11 * SECOND - 1, syn("linux", server));
        }
        tracker.tick(11 * SECOND, Map.of(server, 40L, otherServer, 400L), NO_DROPS, 1.0);
        assertEquals(1, tracker.active().size());
        assertEquals(narrowest("flood tool, window 1024, ttl 255"), tracker.slot(0).orElseThrow().signature());
        assertEquals(List.of(otherServer, server),
            tracker.destinations().stream().map(FloodTracker.Destination::address).toList());
    }
}
