/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_UPDATE_MAP;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoUpdateMapCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoUpdateMapCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.update.map._case.OkoUpdateMapBuilder;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * UPDATE_MAP (docs/protocol.md sections 5.2, 5.3): the map message header and n_entries key/value pairs.
 */
public final class UpdateMapCodec extends AbstractBodyCodec<OkoUpdateMapCase> {
    public UpdateMapCodec() {
        super(OkoUpdateMapCase.class, EXP_TYPE_UPDATE_MAP, "UPDATE_MAP");
    }

    @Override
    protected void serializeBody(final OkoUpdateMapCase input, final ByteBuf out) {
        final var update = input.getOkoUpdateMap();
        final var entries = update.nonnullEntry();
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("UPDATE_MAP needs at least one entry");
        }
        final int keySize = update.requireKeySize().toJava();
        final int valueSize = update.requireValueSize().toJava();
        Fields.writeProgId(update.requireProgId(), out);
        out.writeByte(update.requireMapIndex().getValue().toJava());
        out.writeByte(0);
        out.writeShort(keySize);
        out.writeShort(valueSize);
        out.writeShort(0);
        out.writeInt(entries.size());
        Fields.writeEntries(entries, keySize, valueSize, out);
    }

    @Override
    protected OkoUpdateMapCase deserializeBody(final WireReader in) {
        final var progId = Fields.readProgId(in);
        final var mapIndex = Fields.readMapIndex(in);
        final int flags = in.u8("flags");
        if (flags != 0) {
            throw in.error(String.format("UPDATE_MAP defines no flags, got 0x%02x", flags));
        }
        final int keySize = in.u16("key_size");
        final int valueSize = in.u16("value_size");
        in.reserved(2, "field at offset 26");
        final long count = in.u32("n_entries");
        if (keySize == 0) {
            throw in.error("key_size 0");
        }
        if (count == 0) {
            throw in.error("n_entries 0");
        }
        if (count * (keySize + valueSize) != in.remaining()) {
            throw in.error("n_entries " + count + " x " + (keySize + valueSize) + " bytes does not match the "
                + in.remaining() + " bytes of entries");
        }
        return new OkoUpdateMapCaseBuilder()
            .setOkoUpdateMap(new OkoUpdateMapBuilder()
                .setProgId(progId)
                .setMapIndex(mapIndex)
                .setKeySize(Uint16.valueOf(keySize))
                .setValueSize(Uint16.valueOf(valueSize))
                .setEntry(Fields.readEntries(in, count, keySize, valueSize))
                .build())
            .build();
    }
}
