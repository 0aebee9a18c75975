/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.MAX_MAP_INDEX;

import io.netty.buffer.ByteBuf;
import java.util.List;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapIndex;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.entries.Entry;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.entries.EntryBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * Field helpers shared by the Oko message codecs.
 */
final class Fields {
    private Fields() {
        // utility
    }

    static ProgramId readProgId(final WireReader in) {
        final long id = in.u32("prog_id");
        if (id == 0) {
            throw in.error("prog_id 0 is reserved");
        }
        return new ProgramId(Uint32.valueOf(id));
    }

    static void writeProgId(final ProgramId id, final ByteBuf out) {
        out.writeInt(id.getValue().intValue());
    }

    static MapIndex readMapIndex(final WireReader in) {
        final int index = in.u8("map_index");
        if (index > MAX_MAP_INDEX) {
            throw in.error("map_index " + index + " out of range 0.." + MAX_MAP_INDEX);
        }
        return new MapIndex(Uint8.valueOf(index));
    }

    /** Reads {@code count} entries of fixed sizes, after proving they fit what is left of the message. */
    static List<Entry> readEntries(final WireReader in, final long count, final int keySize, final int valueSize) {
        final long entrySize = keySize + valueSize;
        if (count * entrySize > in.remaining()) {
            throw in.error(count + " entries of " + entrySize + " bytes do not fit the " + in.remaining()
                + " bytes left");
        }
        final Entry[] entries = new Entry[(int) count];
        for (int i = 0; i < count; i++) {
            final EntryBuilder entry = new EntryBuilder().setKey(in.bytes(keySize, "key"));
            if (valueSize > 0) {
                entry.setValue(in.bytes(valueSize, "value"));
            }
            entries[i] = entry.build();
        }
        return List.of(entries);
    }

    /** Writes entries, checking that each has exactly the declared key and value sizes. */
    static void writeEntries(final List<Entry> entries, final int keySize, final int valueSize, final ByteBuf out) {
        for (Entry entry : entries) {
            final byte[] key = entry.requireKey();
            final byte[] value = entry.getValue() == null ? new byte[0] : entry.getValue();
            if (key.length != keySize || value.length != valueSize) {
                throw new IllegalArgumentException("entry has key " + key.length + " value " + value.length
                    + " bytes, declared key " + keySize + " value " + valueSize);
            }
            out.writeBytes(key);
            out.writeBytes(value);
        }
    }

    static boolean isSet(final Boolean flag) {
        return Boolean.TRUE.equals(flag);
    }
}
