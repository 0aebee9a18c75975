/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opendaylight.oko.northbound.synguard.P0fSignature.WindowKind;

/**
 * Picks the signatures that stop a SYN flood: up to {@code maxSignatures} p0f signatures that together match as
 * much of the flood as they can while each matches at most {@code maxLegitimateShare} of the SYNs legitimate
 * clients sent before the flood (the learned mix).
 *
 * <p>The flood is what the sampled SYNs during the attack have beyond the learned mix: a fingerprint's expected
 * legitimate samples are its learned share times the attack's samples times {@code legitimateFraction} (the SYN
 * rate before the attack over the rate during it; legitimate clients are assumed to keep their rate). Candidates
 * are each flood fingerprint's narrowest signature and two looser ones (any window; any window and any MSS), which
 * catch tools that randomize those fields; a greedy cover takes the candidate that matches the most flood samples
 * not matched yet, until the budget is spent or what is left is under {@code minFloodShare} of the flood.
 * Pinned signatures take their slots first; vetoed ones are never chosen.
 *
 * <p>The cost is bounded whatever the attacker sends: candidates come from the {@link #MAX_CANDIDATE_SOURCES}
 * most frequent flood fingerprints only (a flood that randomizes its window or MSS has many fingerprints with one
 * sample each, and the looser candidates of any of them cover all), each candidate's legitimate share is computed
 * once, and the learned mix is looked up by signature, not scanned, for each flood fingerprint. With F flood and L
 * learned distinct fingerprints a selection matches at most 3 x {@value #MAX_CANDIDATE_SOURCES} x (L + 4 F)
 * signature-fingerprint pairs.
 */
public final class SignatureSelector {
    /** Sampled SYNs of one narrowest signature, with one of its fingerprints to test looser signatures on. */
    public record Observed(P0fSignature signature, P0fFingerprint example, long samples) {
        public Observed {
            requireNonNull(signature);
            requireNonNull(example);
        }
    }

    /** A chosen signature: the flood samples it matches, and the learned legitimate share it would drop. */
    public record Choice(P0fSignature signature, long floodSamples, double legitimateShare, boolean pinned) {
    }

    /** Candidates come from at most this many flood fingerprints, the most frequent. */
    public static final int MAX_CANDIDATE_SOURCES = 64;

    private final int maxSignatures;
    private final double maxLegitimateShare;
    private final double minFloodShare;

    public SignatureSelector(final int maxSignatures, final double maxLegitimateShare, final double minFloodShare) {
        if (maxSignatures < 1 || maxSignatures > 4) {
            throw new IllegalArgumentException("max-signatures " + maxSignatures + ": 1 to 4 (the filter's slots)");
        }
        this.maxSignatures = maxSignatures;
        this.maxLegitimateShare = maxLegitimateShare;
        this.minFloodShare = minFloodShare;
    }

    public List<Choice> select(final Collection<Observed> learned, final Collection<Observed> attack,
            final double legitimateFraction, final List<P0fSignature> pinned, final Set<P0fSignature> vetoed) {
        long learnedTotal = learned.stream().mapToLong(Observed::samples).sum();
        Map<P0fSignature, Long> learnedBySignature = new HashMap<>();
        for (Observed o : learned) {
            learnedBySignature.merge(o.signature(), o.samples(), Long::sum);
        }
        long attackTotal = attack.stream().mapToLong(Observed::samples).sum();
        double fraction = Math.max(0, Math.min(1, legitimateFraction));

        // The flood per narrowest signature: what the attack's samples have beyond the learned mix.
        Map<P0fSignature, Observed> merged = new LinkedHashMap<>();
        for (Observed o : attack) {
            merged.merge(o.signature(), o,
                (a, b) -> new Observed(a.signature(), a.example(), a.samples() + b.samples()));
        }
        List<Observed> flood = new ArrayList<>();
        for (Observed o : merged.values()) {
            double expected = learnedTotal == 0 ? 0
                : attackTotal * fraction * learnedBySignature.getOrDefault(o.signature(), 0L) / learnedTotal;
            long excess = Math.round(o.samples() - expected);
            if (excess > 0) {
                flood.add(new Observed(o.signature(), o.example(), excess));
            }
        }
        long floodTotal = flood.stream().mapToLong(Observed::samples).sum();

        List<Choice> chosen = new ArrayList<>();
        List<Observed> left = new ArrayList<>(flood);
        Map<P0fSignature, Double> shares = new HashMap<>();
        for (P0fSignature sig : pinned) {
            if (chosen.size() == maxSignatures) {
                break;
            }
            chosen.add(new Choice(sig, covered(left, sig), share(learned, learnedTotal, sig), true));
            left.removeIf(o -> sig.matches(o.example()));
        }
        while (chosen.size() < maxSignatures && floodTotal > 0) {
            Choice best = null;
            for (P0fSignature candidate : candidates(left)) {
                if (vetoed.contains(candidate) || chosen.stream().anyMatch(c -> c.signature().equals(candidate))) {
                    continue;
                }
                double legitimate = shares.computeIfAbsent(candidate, sig -> share(learned, learnedTotal, sig));
                long covers = covered(left, candidate);
                if (legitimate <= maxLegitimateShare && (best == null || covers > best.floodSamples()
                    || covers == best.floodSamples() && legitimate < best.legitimateShare())) {
                    best = new Choice(candidate, covers, legitimate, false);
                }
            }
            if (best == null || best.floodSamples() < minFloodShare * floodTotal || best.floodSamples() == 0) {
                break;
            }
            chosen.add(best);
            P0fSignature sig = best.signature();
            left.removeIf(o -> sig.matches(o.example()));
        }
        return List.copyOf(chosen);
    }

    /**
     * Narrowest first, so that among equal covers the narrower signature wins (it is listed first); from the
     * {@link #MAX_CANDIDATE_SOURCES} most frequent fingerprints not covered yet.
     */
    private static Set<P0fSignature> candidates(final List<Observed> flood) {
        Set<P0fSignature> out = new LinkedHashSet<>();
        List<Observed> byCount = flood.stream().sorted(Comparator.comparingLong(Observed::samples).reversed())
            .limit(MAX_CANDIDATE_SOURCES).toList();
        for (Observed o : byCount) {
            out.add(o.signature());
        }
        for (Observed o : byCount) {
            P0fSignature sig = o.signature();
            out.add(new P0fSignature(sig.version(), sig.ittl(), sig.olen(), sig.mss(), WindowKind.ANY, 0,
                sig.wscale(), sig.options(), sig.quirks()));
            out.add(new P0fSignature(sig.version(), sig.ittl(), sig.olen(), 0, WindowKind.ANY, 0, sig.wscale(),
                sig.options(), sig.quirks()));
        }
        return out;
    }

    private static long covered(final List<Observed> flood, final P0fSignature sig) {
        return flood.stream().filter(o -> sig.matches(o.example())).mapToLong(Observed::samples).sum();
    }

    private static double share(final Collection<Observed> learned, final long learnedTotal,
            final P0fSignature sig) {
        if (learnedTotal == 0) {
            return 0;
        }
        return (double) learned.stream().filter(o -> sig.matches(o.example())).mapToLong(Observed::samples).sum()
            / learnedTotal;
    }
}
