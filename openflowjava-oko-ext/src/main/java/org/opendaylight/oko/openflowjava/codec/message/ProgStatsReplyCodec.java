/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.ELF_SHA256_LENGTH;
import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_PROG_STATS;
import static org.opendaylight.oko.openflowjava.OkoConstants.INSTALL_MARK_LENGTH;
import static org.opendaylight.oko.openflowjava.OkoConstants.MAP_STATS_RECORD_LENGTH;
import static org.opendaylight.oko.openflowjava.OkoConstants.MAX_MAPS;
import static org.opendaylight.oko.openflowjava.OkoConstants.PROG_STATS_JIT;
import static org.opendaylight.oko.openflowjava.OkoConstants.PROG_STATS_RECORD_LENGTH;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoProgStatsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoProgStatsReplyCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.oko.prog.stats.reply._case.OkoProgStatsReplyBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.prog.stats.reply.ProgStats;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.prog.stats.reply.ProgStatsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.prog.stats.reply.prog.stats.MapStats;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.prog.stats.reply.prog.stats.MapStatsBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * PROG_STATS multipart reply body (docs/protocol.md section 4.3): n_programs, then program records of 72 bytes
 * each followed by 32-byte map records.
 */
public final class ProgStatsReplyCodec extends AbstractBodyCodec<OkoProgStatsReplyCase> {
    private static final int RESERVED_AFTER_COUNT = 6;

    public ProgStatsReplyCodec() {
        super(OkoProgStatsReplyCase.class, EXP_TYPE_PROG_STATS, "PROG_STATS reply");
    }

    @Override
    protected void serializeBody(final OkoProgStatsReplyCase input, final ByteBuf out) {
        final List<ProgStats> programs = input.getOkoProgStatsReply().nonnullProgStats();
        out.writeShort(programs.size());
        out.writeZero(RESERVED_AFTER_COUNT);
        for (ProgStats prog : programs) {
            final List<MapStats> maps = prog.nonnullMapStats();
            if (maps.size() > MAX_MAPS) {
                throw new IllegalArgumentException("program " + prog.getProgId().getValue() + " has "
                    + maps.size() + " map records, at most " + MAX_MAPS);
            }
            final byte[] sha256 = prog.getElfSha256();
            final byte[] installMark = prog.getInstallMark();
            if (installMark != null && sha256 == null) {
                throw new IllegalArgumentException("program " + prog.getProgId().getValue()
                    + ": an install mark is sent only after the ELF's SHA-256 (version 1.4)");
            }
            out.writeInt(prog.getProgId().getValue().intValue());
            out.writeShort(PROG_STATS_RECORD_LENGTH + MAP_STATS_RECORD_LENGTH * maps.size()
                + (sha256 == null ? 0 : ELF_SHA256_LENGTH) + (installMark == null ? 0 : INSTALL_MARK_LENGTH));
            out.writeByte(maps.size());
            out.writeByte(Boolean.TRUE.equals(prog.getJit()) ? PROG_STATS_JIT : 0);
            out.writeLong(prog.requireRuns().longValue());
            out.writeLong(prog.requireMatches().longValue());
            out.writeLong(prog.requireErrors().longValue());
            out.writeLong(prog.requireTimedRuns().longValue());
            out.writeLong(prog.requireTimedNs().longValue());
            out.writeInt(prog.requireRules().intValue());
            out.writeInt(prog.requireDatapathFlows().intValue());
            out.writeInt(prog.requireInstructions().intValue());
            out.writeInt(0);
            out.writeLong(prog.requireMemory().longValue());
            for (int index = 0; index < maps.size(); index++) {
                final MapStats map = maps.get(index);
                out.writeByte(index);
                out.writeByte(map.requireMapType().getIntValue());
                out.writeShort(0);
                out.writeInt(map.requireUsed().intValue());
                out.writeInt(map.requireMaxEntries().intValue());
                out.writeInt(0);
                out.writeLong(map.requireEvictions().longValue());
                out.writeLong(map.requireRefusedFull().longValue());
            }
            if (sha256 != null) {
                out.writeBytes(sha256);
            }
            if (installMark != null) {
                out.writeBytes(installMark);
            }
        }
    }

    @Override
    protected OkoProgStatsReplyCase deserializeBody(final WireReader in) {
        final int count = in.u16("n_programs");
        for (int i = 0; i < RESERVED_AFTER_COUNT; i++) {
            in.reserved(1, "byte " + (i + 2) + " after n_programs");
        }
        if ((long) count * PROG_STATS_RECORD_LENGTH > in.remaining()) {
            throw in.error(count + " program records do not fit the " + in.remaining() + " bytes left");
        }
        final List<ProgStats> programs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            programs.add(readProgram(in, i));
        }
        return new OkoProgStatsReplyCaseBuilder()
            .setOkoProgStatsReply(new OkoProgStatsReplyBuilder().setProgStats(programs).build())
            .build();
    }

    private static ProgStats readProgram(final WireReader in, final int position) {
        final var progId = Fields.readProgId(in);
        final int length = in.u16("length");
        final int mapCount = in.u8("n_maps");
        final int flags = in.u8("flags");
        final int mapsEnd = PROG_STATS_RECORD_LENGTH + MAP_STATS_RECORD_LENGTH * mapCount;
        if (mapCount > MAX_MAPS || length != mapsEnd && length != mapsEnd + ELF_SHA256_LENGTH
                && length != mapsEnd + ELF_SHA256_LENGTH + INSTALL_MARK_LENGTH) {
            throw in.error("program record " + position + " has length " + length + " for " + mapCount
                + " maps (72 + 32 per map, + 32 with the ELF's SHA-256, + 32 more with the install mark; at most 64"
                + " maps)");
        }
        if ((flags & ~PROG_STATS_JIT) != 0) {
            throw in.error("program record " + position + " has undefined flags " + flags);
        }
        final var prog = new ProgStatsBuilder()
            .setProgId(progId)
            .setJit((flags & PROG_STATS_JIT) != 0)
            .setRuns(Uint64.fromLongBits(in.u64("runs")))
            .setMatches(Uint64.fromLongBits(in.u64("matches")))
            .setErrors(Uint64.fromLongBits(in.u64("errors")))
            .setTimedRuns(Uint64.fromLongBits(in.u64("timed_runs")))
            .setTimedNs(Uint64.fromLongBits(in.u64("timed_ns")))
            .setRules(Uint32.valueOf(in.u32("rules")))
            .setDatapathFlows(Uint32.valueOf(in.u32("datapath_flows")))
            .setInstructions(Uint32.valueOf(in.u32("instructions")));
        in.reserved(4, "field at record offset 60");
        prog.setMemory(Uint64.fromLongBits(in.u64("memory")));
        final List<MapStats> maps = new ArrayList<>(mapCount);
        for (int index = 0; index < mapCount; index++) {
            maps.add(readMap(in, index));
        }
        if (length > mapsEnd) {
            prog.setElfSha256(in.bytes(ELF_SHA256_LENGTH, "elf_sha256"));
        }
        if (length > mapsEnd + ELF_SHA256_LENGTH) {
            prog.setInstallMark(in.bytes(INSTALL_MARK_LENGTH, "install_mark"));
        }
        return prog.setMapStats(maps).build();
    }

    private static MapStats readMap(final WireReader in, final int index) {
        final int mapIndex = in.u8("map_index");
        if (mapIndex != index) {
            throw in.error("map record " + index + " says map_index " + mapIndex);
        }
        final int typeCode = in.u8("map_type");
        final MapType type = MapType.forValue(typeCode);
        if (type == null) {
            throw in.error("map record " + index + " has unknown map_type " + typeCode);
        }
        in.reserved(2, "field at map record offset 2");
        final var map = new MapStatsBuilder()
            .setMapType(type)
            .setUsed(Uint32.valueOf(in.u32("used")))
            .setMaxEntries(Uint32.valueOf(in.u32("max_entries")));
        in.reserved(4, "field at map record offset 12");
        return map
            .setEvictions(Uint64.fromLongBits(in.u64("evictions")))
            .setRefusedFull(Uint64.fromLongBits(in.u64("refused_full")))
            .build();
    }
}
