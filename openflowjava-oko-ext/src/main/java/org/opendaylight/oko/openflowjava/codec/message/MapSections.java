/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.MAP_SECTION_HEADER_LENGTH;
import static org.opendaylight.oko.openflowjava.OkoConstants.SECTION_CONTINUES;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.sections.MapSection;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.sections.MapSectionBuilder;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * Map sections (docs/protocol.md section 5.4), shared by SEND_MAPS and the DUMP_MAPS reply.
 */
final class MapSections {
    private static final int ALIGNMENT = 8;

    private MapSections() {
        // utility
    }

    static void write(final List<MapSection> sections, final ByteBuf out) {
        for (MapSection section : sections) {
            final int start = out.writerIndex();
            final var entries = section.nonnullEntry();
            final int keySize = section.requireKeySize().toJava();
            final int valueSize = section.requireValueSize().toJava();
            out.writeByte(section.requireMapIndex().getValue().toJava());
            out.writeByte(Fields.isSet(section.getContinues()) ? SECTION_CONTINUES : 0);
            out.writeByte(section.requireMapType().getIntValue());
            out.writeByte(0);
            out.writeShort(keySize);
            out.writeShort(valueSize);
            out.writeInt(entries.size());
            out.writeInt(0);
            Fields.writeEntries(entries, keySize, valueSize, out);
            out.writeZero(padding(out.writerIndex() - start));
        }
    }

    /** Reads exactly {@code count} sections; each must fit, padding included, in what is left. */
    static List<MapSection> read(final WireReader in, final int count) {
        if ((long) count * MAP_SECTION_HEADER_LENGTH > in.remaining()) {
            throw in.error(count + " sections cannot fit the " + in.remaining() + " bytes left");
        }
        final List<MapSection> sections = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            final var mapIndex = Fields.readMapIndex(in);
            final int flags = in.u8("section flags");
            if ((flags & ~SECTION_CONTINUES) != 0) {
                throw in.error(String.format("section %d: undefined flags 0x%02x", i, flags));
            }
            final int typeCode = in.u8("map_type");
            final MapType type = MapType.forValue(typeCode);
            if (type == null) {
                throw in.error("section " + i + ": unknown map_type " + typeCode);
            }
            in.reserved(1, "section byte 3");
            final int keySize = in.u16("key_size");
            final int valueSize = in.u16("value_size");
            final long n = in.u32("n_entries");
            in.reserved(4, "section bytes 12..15");
            final long dataLength = n * (keySize + valueSize);
            final long padded = dataLength + padding(MAP_SECTION_HEADER_LENGTH + dataLength);
            if (padded > in.remaining()) {
                throw in.error("section " + i + ": " + n + " entries of " + (keySize + valueSize)
                    + " bytes (padded to " + padded + ") run past the " + in.remaining() + " bytes left");
            }
            final var entries = Fields.readEntries(in, n, keySize, valueSize);
            in.pad((int) (padded - dataLength), "section padding");
            sections.add(new MapSectionBuilder()
                .setMapIndex(mapIndex)
                .setContinues((flags & SECTION_CONTINUES) != 0)
                .setMapType(type)
                .setKeySize(Uint16.valueOf(keySize))
                .setValueSize(Uint16.valueOf(valueSize))
                .setEntry(entries)
                .build());
        }
        return sections;
    }

    private static int padding(final long length) {
        return (int) ((ALIGNMENT - length % ALIGNMENT) % ALIGNMENT);
    }
}
