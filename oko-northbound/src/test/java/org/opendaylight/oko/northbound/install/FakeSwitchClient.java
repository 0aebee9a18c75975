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
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;

/**
 * A switch for unit tests of the northbound's logic: records the messages it is sent, in order, as text, and
 * answers each with success, a refusal in the switch's words, or a future the test completes.
 */
public final class FakeSwitchClient implements SwitchClient {
    public final List<String> sent = new CopyOnWriteArrayList<>();
    /** Refusals by message kind ("load", "update", "unload", ...): the switch's error text. */
    public final Map<String, String> refusals = new ConcurrentHashMap<>();
    /** When set, LOAD_PROG is answered only when the test completes this future. */
    volatile SettableFuture<Void> loadGate;

    @Override
    public ListenableFuture<Void> loadProgram(final String node, final long progId, final byte[] elf,
            final boolean replace, final boolean keepMaps) {
        final ListenableFuture<Void> answer = answer("load", node + " load " + progId + (replace ? " replace" : "")
            + (keepMaps ? " keep-maps" : ""));
        final SettableFuture<Void> gate = loadGate;
        return gate == null ? answer : Futures.transformAsync(gate, ignored -> answer, Runnable::run);
    }

    @Override
    public ListenableFuture<Void> unloadProgram(final String node, final long progId, final boolean force) {
        return answer("unload", node + " unload " + progId + (force ? " force" : ""));
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
            ? Futures.immediateFuture(statistics)
            : Futures.immediateFailedFuture(new SwitchException(refusal, SwitchException.Kind.REFUSED));
        final SettableFuture<Void> gate = statsGate;
        return gate == null ? answer : Futures.transformAsync(gate, ignored -> answer, Runnable::run);
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
