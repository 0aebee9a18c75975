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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.northbound.synguard.SignatureSelector.Choice;
import org.opendaylight.oko.northbound.synguard.SignatureSelector.Observed;

class SignatureSelectorTest {
    private static final List<Integer> LINUX_LAYOUT = List.of(2, 4, 8, 1, 3);
    private static final List<Integer> WINDOWS_LAYOUT = List.of(2, 1, 3, 1, 1, 4);
    private static final List<Integer> MACOS_LAYOUT = List.of(2, 1, 3, 1, 1, 8, 4, 0);
    private static final int DF_ID_PLUS = 3;

    private static Observed observed(final P0fFingerprint fp, final long samples) {
        return new Observed(fp.signature(), fp, samples);
    }

    private static P0fFingerprint linux() {
        return new P0fFingerprint(4, 57, 0, 1460, 64240, 7, true, LINUX_LAYOUT, DF_ID_PLUS);
    }

    private static P0fFingerprint windows() {
        return new P0fFingerprint(4, 117, 0, 1460, 64240, 8, true, WINDOWS_LAYOUT, DF_ID_PLUS);
    }

    private static P0fFingerprint macos() {
        return new P0fFingerprint(4, 60, 0, 1460, 65535, 6, true, MACOS_LAYOUT, DF_ID_PLUS);
    }

    private static P0fFingerprint tool(final int ttl, final int window) {
        return new P0fFingerprint(4, ttl, 0, 0, window, 0, false, List.of(), 0);
    }

    private static List<Observed> learnedMix() {
        return List.of(observed(linux(), 700), observed(windows(), 200), observed(macos(), 100));
    }

    /** During the attack: the learned mix at its old rate (100 samples) and 'flood' beside it. */
    private static List<Observed> attack(final List<Observed> flood) {
        List<Observed> out = new ArrayList<>(List.of(observed(linux(), 70), observed(windows(), 20),
            observed(macos(), 10)));
        out.addAll(flood);
        return out;
    }

    private final SignatureSelector selector = new SignatureSelector(4, 0.01, 0.05);

    @Test
    void aFloodToolsFingerprintIsChosenNarrowest() {
        List<Choice> chosen = selector.select(learnedMix(), attack(List.of(observed(tool(64, 512), 1000))),
            100.0 / 1100, List.of(), Set.of());
        assertEquals(1, chosen.size());
        assertEquals("4:64:0:*:512,*:::0", chosen.get(0).signature().toText());
        assertEquals(1000, chosen.get(0).floodSamples());
        assertEquals(0.0, chosen.get(0).legitimateShare());
    }

    /**
     * Candidates come from the most frequent fingerprints only: a flood with thousands of fingerprints (window and
     * MSS random) against a learned mix of thousands is still covered by one looser signature, and the legitimate
     * clients' own fingerprints (far fewer samples each) do not become candidates.
     */
    @Test
    void thousandsOfFingerprintsOnBothSidesStillGiveTheLooseSignature() {
        List<Observed> learned = new ArrayList<>(learnedMix());
        for (int i = 0; i < 20_000; i++) {
            learned.add(observed(new P0fFingerprint(4, 57, 0, 536 + i % 900, 1000 + i, 7, true, LINUX_LAYOUT,
                DF_ID_PLUS), 1));
        }
        List<Observed> flood = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            flood.add(observed(new P0fFingerprint(4, 64, 0, 1 + i % 1400, 1 + i, 0, false, List.of(2), 0), 1));
        }
        assertTrue(flood.size() > SignatureSelector.MAX_CANDIDATE_SOURCES);
        List<Choice> chosen = selector.select(learned, attack(flood), 0.1, List.of(), Set.of());
        assertEquals(1, chosen.size());
        assertEquals("4:64:0:*:*,*:mss::0", chosen.get(0).signature().toText());
        assertEquals(5_000, chosen.get(0).floodSamples());
    }

    @Test
    void aToolThatRandomizesItsWindowIsCaughtByOneSignatureWithAnyWindow() {
        List<Observed> flood = new ArrayList<>();
        for (int w = 0; w < 50; w++) {
            flood.add(observed(tool(255, 1000 + 37 * w), 20));
        }
        List<Choice> chosen = selector.select(learnedMix(), attack(flood), 0.1, List.of(), Set.of());
        assertEquals(1, chosen.size());
        assertEquals("4:255:0:*:*,*:::0", chosen.get(0).signature().toText());
        assertEquals(1000, chosen.get(0).floodSamples());
    }

    @Test
    void twoToolsTwoSignatures() {
        List<Choice> chosen = selector.select(learnedMix(),
            attack(List.of(observed(tool(64, 512), 600), observed(tool(255, 1024), 400))), 0.1, List.of(), Set.of());
        assertEquals(List.of("4:64:0:*:512,*:::0", "4:255:0:*:1024,*:::0"),
            chosen.stream().map(c -> c.signature().toText()).toList());
    }

    @Test
    void aFloodThatLooksLikeTheLegitimateMixIsNotBlocked() {
        // A flood with Linux's fingerprint: any signature for it drops 70 % of the legitimate SYNs.
        List<Choice> chosen = selector.select(learnedMix(), attack(List.of(observed(linux(), 1000))), 0.1,
            List.of(), Set.of());
        assertTrue(chosen.isEmpty(), chosen.toString());
    }

    @Test
    void theLearnedMixAloneIsNoFlood() {
        // The rate went up but the mix did not change: nothing stands out.
        List<Observed> same = List.of(observed(linux(), 700), observed(windows(), 200), observed(macos(), 100));
        assertTrue(selector.select(learnedMix(), same, 1.0, List.of(), Set.of()).isEmpty());
    }

    @Test
    void pinnedFirstVetoedNever() {
        P0fSignature pinned = P0fSignature.parse("4:128:0:*:8192,*:::0");
        P0fSignature flood = tool(64, 512).signature();
        List<Choice> chosen = selector.select(learnedMix(), attack(List.of(observed(tool(64, 512), 1000))), 0.1,
            List.of(pinned), Set.of(flood));
        assertEquals(2, chosen.size());
        assertEquals(pinned, chosen.get(0).signature());
        assertTrue(chosen.get(0).pinned());
        assertEquals(0, chosen.get(0).floodSamples());
        assertFalse(chosen.get(1).signature().equals(flood));
        assertTrue(chosen.get(1).signature().matches(tool(64, 512)), chosen.get(1).signature().toText());
    }

    @Test
    void theBudgetIsTheFiltersFourSlots() {
        assertThrows(IllegalArgumentException.class, () -> new SignatureSelector(5, 0.01, 0.05));
        List<Observed> flood = new ArrayList<>();
        for (int ttl : new int[] {30, 60, 100, 200, 250}) {
            flood.add(observed(new P0fFingerprint(4, ttl, 0, 0, 512, 0, false, List.of(1, 1, 1), 0), 200));
        }
        // Initial TTLs 32, 64, 128, 200 (55 hops below 255: its own) and 255; ittl 64 also matches TTL 30
        // (34 hops), so with two slots it comes first with 400 samples.
        List<Choice> chosen = new SignatureSelector(2, 0.01, 0.05).select(learnedMix(), attack(flood), 0.1,
            List.of(), Set.of());
        assertEquals(2, chosen.size());
        assertEquals("4:64:0:*:512,*:nop,nop,nop::0", chosen.get(0).signature().toText());
        assertEquals(400, chosen.get(0).floodSamples());
        assertEquals(200, chosen.get(1).floodSamples());
    }
}
