/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.SettableFuture;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;

/**
 * A switch for unit tests of the northbound's logic: records the messages it is sent, in order, as text, and
 * answers each with success, a refusal in the switch's words, or a future the test completes. It also keeps what a
 * real switch keeps of them (docs/protocol.md 4.4): per program the SHA-256 of the ELF loaded and its install mark,
 * cleared by every load that goes through; with {@link #stateful} PROG_STATS reports that.
 */
public final class FakeSwitchClient implements SwitchClient {
    public final List<String> sent = new CopyOnWriteArrayList<>();
    /** Refusals by message kind ("load", "update", "unload", ...): the switch's error text. */
    public final Map<String, String> refusals = new ConcurrentHashMap<>();
    /** When set, LOAD_PROG is answered only when the test completes this future. */
    volatile SettableFuture<Void> loadGate;
    /** MARK_INSTALLED messages, as text ("openflow:1 mark 30 " and the mark in hex): kept apart from {@link #sent}. */
    public final List<String> marks = new CopyOnWriteArrayList<>();
    /** PROG_STATS answers from the programs the messages left on the switch, not from {@link #statistics}. */
    volatile boolean stateful;
    /** node, program id: the SHA-256 of the ELF loaded and the install mark (hex; all zeros when none). */
    private final Map<String, Map<Long, String[]>> running = new ConcurrentHashMap<>();

    @Override
    public ListenableFuture<Void> loadProgram(final String node, final long progId, final byte[] elf,
            final boolean replace, final boolean keepMaps) {
        final ListenableFuture<Void> answer = answer("load", node + " load " + progId + (replace ? " replace" : "")
            + (keepMaps ? " keep-maps" : ""));
        if (!refusals.containsKey("load")) {
            programs(node).put(progId, new String[] {sha256(elf), "00".repeat(32)});
        }
        final SettableFuture<Void> gate = loadGate;
        return gate == null ? answer : Futures.transformAsync(gate, ignored -> answer, Runnable::run);
    }

    @Override
    public ListenableFuture<Void> unloadProgram(final String node, final long progId, final boolean force) {
        if (!refusals.containsKey("unload")) {
            programs(node).remove(progId);
        }
        return answer("unload", node + " unload " + progId + (force ? " force" : ""));
    }

    @Override
    public ListenableFuture<Void> markInstalled(final String node, final long progId, final byte[] installMark) {
        final String mark = HexFormat.of().formatHex(installMark);
        marks.add(node + " mark " + progId + " " + mark);
        final String refusal = refusals.get("mark");
        final String[] program = programs(node).get(progId);
        if (refusal == null && program != null) {
            program[1] = mark;
            return Futures.immediateVoidFuture();
        }
        return Futures.immediateFailedFuture(new SwitchException(refusal != null ? refusal
            : "program " + progId + " is not loaded", SwitchException.Kind.REFUSED));
    }

    /** The programs a node runs, by id, as the messages left them. */
    Map<Long, String[]> programs(final String node) {
        return running.computeIfAbsent(node, n -> new ConcurrentHashMap<>());
    }

    private static String sha256(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public ListenableFuture<Void> updateMap(final String node, final long progId, final int mapIndex,
            final int keySize, final int valueSize, final List<Entry> entries) {
        final StringBuilder text = new StringBuilder(node + " update " + progId + " map " + mapIndex);
        for (Entry entry : entries) {
            text.append(' ').append(HexFormat.of().formatHex(entry.key())).append('=')
                .append(HexFormat.of().formatHex(entry.value()));
        }
        return answer("update", text.toString());
    }

    @Override
    public ListenableFuture<Void> deleteMapEntries(final String node, final long progId, final int mapIndex,
            final int keySize, final boolean all, final List<byte[]> keys) {
        final StringBuilder text = new StringBuilder(node + " delete " + progId + " map " + mapIndex);
        if (all) {
            text.append(" all");
        }
        for (byte[] key : keys) {
            text.append(' ').append(HexFormat.of().formatHex(key));
        }
        return answer("delete", text.toString());
    }

    /** What DUMP_MAPS answers: the map sections, whatever the mask asked. */
    public volatile List<MapSection> dumps = List.of();

    @Override
    public ListenableFuture<List<MapSection>> dumpMaps(final String node, final long progId, final long mapMask) {
        sent.add(node + " dump " + progId + (mapMask == 0 ? "" : " mask 0x" + Long.toHexString(mapMask)));
        final String refusal = refusals.get("dump");
        return refusal == null ? Futures.immediateFuture(dumps)
            : Futures.immediateFailedFuture(new SwitchException(refusal, SwitchException.Kind.REFUSED));
    }

    @Override
    public ListenableFuture<Replay> replayMaps(final String node, final long progId, final Long afterEventId) {
        sent.add(node + " replay " + progId + (afterEventId == null ? " all" : " after " + afterEventId));
        final String refusal = refusals.get("replay");
        return refusal == null ? Futures.immediateFuture(replays.apply(progId, afterEventId))
            : Futures.immediateFailedFuture(new SwitchException(refusal, SwitchException.Kind.REFUSED));
    }

    /** What REPLAY_MAPS answers, given the program and the event asked after (null: all); none retained. */
    public volatile java.util.function.BiFunction<Long, Long, Replay> replays = (progId, after) -> new Replay(0,
        List.of());

    /** What PROG_STATS returns; a "stats" refusal fails it instead (a switch without Oko: "BADEXPERIMENTER"). */
    volatile List<ProgramStatistics> statistics = List.of();

    /** When set, PROG_STATS is answered only when the test completes this future. */
    volatile SettableFuture<Void> statsGate;

    @Override
    public ListenableFuture<List<ProgramStatistics>> programStatistics(final String node, final long progId) {
        sent.add(node + " stats " + progId);
        final String refusal = refusals.get("stats");
        final ListenableFuture<List<ProgramStatistics>> answer = refusal == null
            ? Futures.immediateFuture(stateful ? runningStatistics(node, progId) : statistics)
            : Futures.immediateFailedFuture(new SwitchException(refusal, SwitchException.Kind.REFUSED));
        final SettableFuture<Void> gate = statsGate;
        return gate == null ? answer : Futures.transformAsync(gate, ignored -> answer, Runnable::run);
    }

    private List<ProgramStatistics> runningStatistics(final String node, final long progId) {
        return new TreeMap<>(programs(node)).entrySet().stream()
            .filter(e -> progId == 0 || e.getKey() == progId)
            .map(e -> new ProgramStatistics(e.getKey(), true, 0, 0, 0, 0, 0, 0, 0, 1, 0, List.of(), e.getValue()[0],
                e.getValue()[1]))
            .toList();
    }

    @Override
    public ListenableFuture<Void> addFlow(final String node, final DataObjectIdentifier<Flow> path, final Flow flow) {
        return answer("flow", node + " flow " + flow.getId().getValue());
    }

    private ListenableFuture<Void> answer(final String kind, final String message) {
        sent.add(message);
        final String refusal = refusals.get(kind);
        return refusal == null ? Futures.immediateVoidFuture()
            : Futures.immediateFailedFuture(new SwitchException(refusal, SwitchException.Kind.REFUSED));
    }
}
