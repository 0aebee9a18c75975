/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.switchio;

import com.google.common.util.concurrent.ListenableFuture;
import java.util.List;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.SendMaps;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;

/**
 * The Oko messages to one switch, as the northbound needs them. A future fails with {@link SwitchException} when
 * the switch refuses (its Oko error text in the message) or does not answer in time.
 */
public interface SwitchClient {
    /** One map entry: key and value bytes (value empty for sketches' UPDATE_MAP of bloom maps). */
    record Entry(byte[] key, byte[] value) {
    }

    /** One map's contents from a DUMP_MAPS reply; a map split over replies comes as several sections. */
    record MapSection(int mapIndex, int mapType, int keySize, int valueSize, List<Entry> entries) {
    }

    /** One map's statistics from a PROG_STATS reply (docs/protocol.md 4.3). */
    record MapStatistics(int mapType, long used, long maxEntries, long evictions, long refusedFull) {
    }

    /**
     * One program's statistics from a PROG_STATS reply; counters are unsigned 64-bit values. {@code elfSha256}: the
     * SHA-256 of the ELF object the program was loaded from, hexadecimal; null from a version 1.1 switch.
     * {@code installMark}: the last MARK_INSTALLED since the program was loaded, hexadecimal (all zeros: none since);
     * null from a switch older than version 1.4.
     */
    record ProgramStatistics(long progId, boolean jit, long runs, long matches, long errors, long timedRuns,
            long timedNs, long rules, long datapathFlows, long instructions, long memory, List<MapStatistics> maps,
            String elfSha256, String installMark) {
        public ProgramStatistics(final long progId, final boolean jit, final long runs, final long matches,
                final long errors, final long timedRuns, final long timedNs, final long rules,
                final long datapathFlows, final long instructions, final long memory,
                final List<MapStatistics> maps) {
            this(progId, jit, runs, matches, errors, timedRuns, timedNs, rules, datapathFlows, instructions, memory,
                maps, null, null);
        }

        public ProgramStatistics(final long progId, final boolean jit, final long runs, final long matches,
                final long errors, final long timedRuns, final long timedNs, final long rules,
                final long datapathFlows, final long instructions, final long memory,
                final List<MapStatistics> maps, final String elfSha256) {
            this(progId, jit, runs, matches, errors, timedRuns, timedNs, rules, datapathFlows, instructions, memory,
                maps, elfSha256, null);
        }
    }

    ListenableFuture<Void> loadProgram(String node, long progId, byte[] elf, boolean replace, boolean keepMaps);

    ListenableFuture<Void> unloadProgram(String node, long progId, boolean force);

    /**
     * MARK_INSTALLED (docs/protocol.md 4.4): the install of the program is complete, with the settings the 32-byte
     * {@code installMark} names; the switch keeps it until the program is loaded again. A switch older than protocol
     * 1.4 fails it with {@link SwitchException.Kind#REFUSED} (BADEXPTYPE).
     */
    ListenableFuture<Void> markInstalled(String node, long progId, byte[] installMark);

    ListenableFuture<Void> updateMap(String node, long progId, int mapIndex, int keySize, int valueSize,
        List<Entry> entries);

    ListenableFuture<Void> deleteMapEntries(String node, long progId, int mapIndex, int keySize, boolean all,
        List<byte[]> keys);

    /** The sections of every reply, in order. */
    ListenableFuture<List<MapSection>> dumpMaps(String node, long progId, long mapMask);

    /**
     * PROG_STATS: the statistics of one program, or of every program when {@code progId} is 0. A switch without
     * Oko fails it with {@link SwitchException.Kind#REFUSED} and its error name (BADEXPERIMENTER).
     */
    ListenableFuture<List<ProgramStatistics>> programStatistics(String node, long progId);

    /**
     * REPLAY_MAPS (docs/protocol.md 5.7): the SEND_MAPS events the switch retained for a program, those after event
     * {@code afterEventId} or, when it is null, all of them, as their fragments in event order; and the id the
     * program's next event will get.
     */
    ListenableFuture<Replay> replayMaps(String node, long progId, Long afterEventId);

    /** A REPLAY_MAPS answer: fragments (SEND_MAPS layout) in event order, and the program's next event id. */
    record Replay(long nextEventId, List<SendMaps> fragments) {
        public Replay {
            fragments = List.copyOf(fragments);
        }
    }

    /**
     * Adds one configured flow (the config inventory's flow at {@code path}) through openflowplugin's add-flow,
     * as the forwarding rules manager does; the future fails with the switch's error when it refuses the flow.
     */
    ListenableFuture<Void> addFlow(String node, DataObjectIdentifier<Flow> path, Flow flow);
}
