/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A SYN guard's decisions, without I/O: fed the sampled SYNs as they come and, once per interval, each
 * destination's SYN rate and what each filter slot dropped; answers which signature each slot of the
 * {@code p0f-syn-flood} filter holds. Not thread-safe: one caller at a time.
 *
 * <p>The rules (docs/syn-guard.md explains them to operators):
 * <ul>
 * <li>A destination is flooded while its SYN rate is above the threshold. The rate counts the SYNs that reach
 * the sampler: SYNs a signature already drops are not in it, so a second flood shows even while the first is
 * dropped.</li>
 * <li>Samples to a flooded destination are the attack's; samples while nothing is flooded and no signature is
 * installed are the legitimate mix, that of the last learning period.</li>
 * <li>No mitigation before the learning period has passed since the guard started.</li>
 * <li>While a destination is flooded and free slots remain, the attack's recent samples that no installed
 * signature matches (at least {@link #MIN_ATTACK_SAMPLES}) go to the {@link SignatureSelector}; the legitimate
 * fraction it needs is the flooded destinations' usual rate over their rate now. Pinned signatures take the
 * first slots when a mitigation starts. With fewer than {@link #MIN_LEARNED_SAMPLES} learned samples, the shares
 * are guesses: at most one signature then.</li>
 * <li>A signature whose slot drops fewer SYNs per second than the threshold for the hold time is removed;
 * pinned ones only after every other one is gone, and then by the same rule.</li>
 * </ul>
 */
public final class FloodTracker {
    /** Attack samples needed before signatures are chosen. */
    public static final int MIN_ATTACK_SAMPLES = 10;
    /** How far back attack samples count. */
    public static final long ATTACK_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Below this many learned samples, at most one signature is installed. */
    public static final int MIN_LEARNED_SAMPLES = 50;
    /** A signature must match at least this share of the flood's samples not yet matched. */
    public static final double MIN_FLOOD_SHARE = 0.05;
    /** How old a sample must be, with no flood meanwhile, before it is learned as legitimate. */
    public static final long PROBATION_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Bounds on what is kept, whatever the sampling rate. */
    static final int MAX_LEARNED = 100_000;
    static final int MAX_ATTACK = 10_000;
    /** Weight of the newest interval in a destination's usual rate (exponential smoothing). */
    private static final double RATE_SMOOTHING = 0.2;
    private static final int SLOTS = 4;

    /** A guard's configuration as the tracker needs it. */
    public record Settings(long threshold, long learningNanos, long holdNanos, int maxSignatures,
            double maxLegitimateShare, List<P0fSignature> pinned, Set<P0fSignature> vetoed) {
        public Settings {
            if (maxSignatures < 1 || maxSignatures > SLOTS) {
                throw new IllegalArgumentException("max-signatures " + maxSignatures + ": 1 to " + SLOTS);
            }
            pinned = List.copyOf(pinned);
            vetoed = Set.copyOf(vetoed);
        }
    }

    /** The guard's phase. */
    public enum Phase {
        LEARNING, WATCHING, MITIGATING
    }

    /** A signature in a slot, with what it dropped (summed over the guard's switches). */
    public record Active(int slot, P0fSignature signature, long sinceNanos, boolean pinned, double floodShare,
            double legitimateShare, long dropped, long droppedPerSecond, long lastFloodNanos) {
        public Active {
            requireNonNull(signature);
        }

        Active dropping(final long count, final long perSecond, final long now, final long threshold) {
            return new Active(slot, signature, sinceNanos, pinned, floodShare, legitimateShare, dropped + count,
                perSecond, perSecond >= threshold ? now : lastFloodNanos);
        }
    }

    /** A destination's SYN rate in the last interval. */
    public record Destination(InetAddress address, long synsPerSecond, boolean flooded) {
    }

    private record Timed(long nanos, SynSample sample) {
    }

    private Settings settings;
    private final long startNanos;
    private final Deque<Timed> probation = new ArrayDeque<>();
    private final Deque<Timed> learned = new ArrayDeque<>();
    private final Deque<Timed> attack = new ArrayDeque<>();
    private final Map<InetAddress, Double> usualRate = new HashMap<>();
    private final Active[] slots = new Active[SLOTS];
    private List<Destination> destinations = List.of();
    private Set<InetAddress> flooded = Set.of();
    private Phase phase = Phase.LEARNING;
    private long phaseSinceNanos;
    private String message = "";

    public FloodTracker(final Settings settings, final long startNanos) {
        this.settings = requireNonNull(settings);
        this.startNanos = startNanos;
        phaseSinceNanos = startNanos;
    }

    /** A sampled SYN, seen at {@code now}. It is classified at the next {@link #tick}. */
    public void sample(final long now, final SynSample sample) {
        if (probation.size() < MAX_ATTACK) {
            probation.addLast(new Timed(now, sample));
        }
    }

    /**
     * Samples to a flooded destination are the attack's. The others are learned only once they are
     * {@link #PROBATION_NANOS} old with no flood and no mitigation meanwhile: the first samples of a flood arrive
     * before its rate crosses the threshold and must not become part of the legitimate mix.
     */
    private void classify(final long now) {
        final boolean quiet = flooded.isEmpty() && activeCount() == 0;
        for (var it = probation.iterator(); it.hasNext();) {
            final Timed timed = it.next();
            if (flooded.contains(timed.sample().destination())) {
                attack.addLast(timed);
                it.remove();
            } else if (!quiet) {
                it.remove();
            } else if (now - timed.nanos() >= PROBATION_NANOS) {
                learned.addLast(timed);
                it.remove();
            }
        }
        while (attack.size() > MAX_ATTACK) {
            attack.removeFirst();
        }
        while (!learned.isEmpty() && (learned.size() > MAX_LEARNED
                || learned.getLast().nanos() - learned.getFirst().nanos() > settings.learningNanos())) {
            learned.removeFirst();
        }
    }

    /**
     * One interval's observations: each destination's SYNs per second (those that reached the sampler), and
     * per slot the SYNs it dropped in the interval (an array of 4). Returns whether the slots changed.
     */
    public boolean tick(final long now, final Map<InetAddress, Long> synsPerSecond, final long[] slotDrops,
            final double intervalSeconds) {
        final Active[] before = slots.clone();
        observeRates(synsPerSecond);
        classify(now);
        observeDrops(now, slotDrops, intervalSeconds);
        expire(now);
        final boolean learning = now - startNanos < settings.learningNanos();
        if (flooded.isEmpty()) {
            message = "";
        } else if (learning) {
            message = "flood at " + floodedText() + " while learning: no mitigation before the learning period ends";
        } else {
            mitigate(now);
        }
        final Phase next = activeCount() > 0 ? Phase.MITIGATING : learning ? Phase.LEARNING : Phase.WATCHING;
        if (next != phase) {
            phase = next;
            phaseSinceNanos = now;
        }
        return !sameSlots(before);
    }

    private void observeRates(final Map<InetAddress, Long> synsPerSecond) {
        final Set<InetAddress> now = new HashSet<>();
        final List<Destination> seen = new ArrayList<>();
        for (var entry : synsPerSecond.entrySet()) {
            final long rate = entry.getValue();
            final boolean isFlooded = rate > settings.threshold();
            if (isFlooded) {
                now.add(entry.getKey());
            } else {
                usualRate.merge(entry.getKey(), (double) rate,
                    (old, fresh) -> old + RATE_SMOOTHING * (fresh - old));
            }
            seen.add(new Destination(entry.getKey(), rate, isFlooded));
        }
        // Destinations that sent nothing this interval: their usual rate decays.
        usualRate.replaceAll((address, rate) -> synsPerSecond.containsKey(address) ? rate
            : rate * (1 - RATE_SMOOTHING));
        usualRate.values().removeIf(rate -> rate < 1e-3);
        seen.sort(Comparator.comparingLong(Destination::synsPerSecond).reversed()
            .thenComparing(destination -> destination.address().getHostAddress()));
        destinations = List.copyOf(seen);
        flooded = Set.copyOf(now);
    }

    private void observeDrops(final long now, final long[] slotDrops, final double intervalSeconds) {
        for (int slot = 0; slot < SLOTS; slot++) {
            if (slots[slot] != null) {
                final long count = slot < slotDrops.length ? Math.max(0, slotDrops[slot]) : 0;
                final long perSecond = intervalSeconds > 0 ? Math.round(count / intervalSeconds) : 0;
                slots[slot] = slots[slot].dropping(count, perSecond, now, settings.threshold());
            }
        }
    }

    private void expire(final long now) {
        boolean unpinnedLeft = false;
        for (int slot = 0; slot < SLOTS; slot++) {
            final Active active = slots[slot];
            if (active != null && !active.pinned()) {
                if (now - active.lastFloodNanos() > settings.holdNanos()) {
                    slots[slot] = null;
                } else {
                    unpinnedLeft = true;
                }
            }
        }
        if (!unpinnedLeft && flooded.isEmpty()) {
            final boolean pinnedHolding = Arrays.stream(slots).anyMatch(active -> active != null
                && now - active.lastFloodNanos() <= settings.holdNanos());
            if (!pinnedHolding) {
                Arrays.fill(slots, null);
            }
        }
    }

    private void mitigate(final long now) {
        while (!attack.isEmpty() && now - attack.getFirst().nanos() > ATTACK_WINDOW_NANOS) {
            attack.removeFirst();
        }
        final List<Integer> free = new ArrayList<>();
        for (int slot = 0; slot < SLOTS; slot++) {
            if (slots[slot] == null) {
                free.add(slot);
            }
        }
        // With few learned samples the legitimate shares are guesses: then one chosen signature, the flood's
        // largest, besides the pinned ones (which must not take the one slot the flood needs).
        final long pinnedCount = activeCount() == 0 ? settings.pinned().size()
            : Arrays.stream(slots).filter(active -> active != null && active.pinned()).count();
        final int allowed = learned.size() < MIN_LEARNED_SAMPLES
            ? (int) Math.min(settings.maxSignatures(), pinnedCount + 1) : settings.maxSignatures();
        final int budget = Math.min(free.size(), allowed - activeCount());
        if (budget <= 0) {
            message = "flood at " + floodedText() + " not covered: every slot is taken (max-signatures "
                + settings.maxSignatures() + (allowed < settings.maxSignatures() ? "; one while fewer than "
                + MIN_LEARNED_SAMPLES + " samples are learned" : "") + ")";
            return;
        }
        final List<SignatureSelector.Observed> uncovered = observed(attack.stream()
            .filter(timed -> Arrays.stream(slots).noneMatch(active -> active != null
                && active.signature().matches(timed.sample().fingerprint())))
            .toList());
        final long uncoveredSamples = uncovered.stream().mapToLong(SignatureSelector.Observed::samples).sum();
        if (uncoveredSamples < MIN_ATTACK_SAMPLES) {
            message = "flood at " + floodedText() + ": " + uncoveredSamples + " samples not matched by a signature"
                + " yet (" + MIN_ATTACK_SAMPLES + " needed)";
            return;
        }
        final List<P0fSignature> pinned = activeCount() == 0 ? settings.pinned() : List.of();
        final Set<P0fSignature> excluded = new HashSet<>(settings.vetoed());
        Arrays.stream(slots).filter(active -> active != null).forEach(active -> excluded.add(active.signature()));
        final List<SignatureSelector.Choice> choices = new SignatureSelector(budget,
            settings.maxLegitimateShare(), MIN_FLOOD_SHARE)
            .select(observed(List.copyOf(learned)), uncovered, legitimateFraction(), pinned, excluded);
        if (choices.isEmpty()) {
            message = "flood at " + floodedText() + ": no signature matches it without matching more than "
                + settings.maxLegitimateShare() + " of the learned legitimate SYNs";
            return;
        }
        for (int i = 0; i < choices.size(); i++) {
            final SignatureSelector.Choice choice = choices.get(i);
            slots[free.get(i)] = new Active(free.get(i), choice.signature(), now, choice.pinned(),
                (double) choice.floodSamples() / uncoveredSamples, choice.legitimateShare(), 0, 0, now);
        }
        message = "flood at " + floodedText() + ": " + choices.size() + " signature(s) installed";
    }

    /**
     * New settings while the guard runs (what it learned stays): vetoed signatures leave their slots at once,
     * unless pinned; while a mitigation lasts, new pinned signatures take free slots at once. Returns whether
     * the slots changed.
     */
    public boolean reconfigure(final Settings next, final long now) {
        settings = requireNonNull(next);
        final Active[] before = slots.clone();
        final boolean mitigating = activeCount() > 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            final Active active = slots[slot];
            if (active == null) {
                continue;
            }
            final boolean pinned = next.pinned().contains(active.signature());
            if (!pinned && next.vetoed().contains(active.signature())) {
                slots[slot] = null;
            } else if (pinned != active.pinned()) {
                slots[slot] = new Active(slot, active.signature(), active.sinceNanos(), pinned, active.floodShare(),
                    active.legitimateShare(), active.dropped(), active.droppedPerSecond(), active.lastFloodNanos());
            }
        }
        if (mitigating) {
            for (P0fSignature pin : next.pinned()) {
                if (activeCount() >= next.maxSignatures()) {
                    break;
                }
                if (Arrays.stream(slots).noneMatch(active -> active != null && active.signature().equals(pin))) {
                    final int free = Arrays.asList(slots).indexOf(null);
                    slots[free] = new Active(free, pin, now, true, 0, 0, 0, 0, now);
                }
            }
        }
        if (activeCount() == 0 && phase == Phase.MITIGATING) {
            phase = now - startNanos < settings.learningNanos() ? Phase.LEARNING : Phase.WATCHING;
            phaseSinceNanos = now;
        }
        return !sameSlots(before);
    }

    private boolean sameSlots(final Active[] before) {
        return Arrays.equals(before, slots, Comparator.nullsFirst(
            Comparator.comparing((Active active) -> active.signature().toText())
                .thenComparingInt(Active::slot)));
    }

    /** Legitimate clients' share of the flooded destinations' SYNs now: their usual rate over their rate now. */
    private double legitimateFraction() {
        double usual = 0;
        double current = 0;
        for (Destination destination : destinations) {
            if (destination.flooded()) {
                usual += usualRate.getOrDefault(destination.address(), 0.0);
                current += destination.synsPerSecond();
            }
        }
        return current <= 0 ? 0 : Math.min(1, usual / current);
    }

    private static List<SignatureSelector.Observed> observed(final List<Timed> samples) {
        final Map<P0fSignature, SignatureSelector.Observed> bySignature = new LinkedHashMap<>();
        for (Timed timed : samples) {
            final P0fFingerprint fp = timed.sample().fingerprint();
            bySignature.merge(fp.signature(), new SignatureSelector.Observed(fp.signature(), fp, 1),
                (old, one) -> new SignatureSelector.Observed(old.signature(), old.example(), old.samples() + 1));
        }
        return List.copyOf(bySignature.values());
    }

    private String floodedText() {
        return String.join(", ", flooded.stream().map(InetAddress::getHostAddress).sorted().toList());
    }

    private int activeCount() {
        return (int) Arrays.stream(slots).filter(active -> active != null).count();
    }

    /** Slot i's signature, empty when unused. */
    public Optional<Active> slot(final int slot) {
        return Optional.ofNullable(slots[slot]);
    }

    public List<Active> active() {
        return Arrays.stream(slots).filter(active -> active != null).toList();
    }

    public Phase phase() {
        return phase;
    }

    public long phaseSinceNanos() {
        return phaseSinceNanos;
    }

    public String message() {
        return message;
    }

    public List<Destination> destinations() {
        return destinations;
    }

    public long learnedSamples() {
        return learned.size();
    }

    /** The learned mix's narrowest signatures with their shares, most frequent first. */
    public List<Map.Entry<P0fSignature, Double>> learnedShares() {
        final List<SignatureSelector.Observed> mix = new ArrayList<>(observed(List.copyOf(learned)));
        mix.sort(Comparator.comparingLong(SignatureSelector.Observed::samples).reversed());
        final double total = learned.size();
        return mix.stream().map(o -> Map.entry(o.signature(), o.samples() / total)).toList();
    }
}
