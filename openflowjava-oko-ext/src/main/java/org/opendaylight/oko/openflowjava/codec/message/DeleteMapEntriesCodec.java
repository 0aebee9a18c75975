/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.DELETE_ALL;
import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_DELETE_MAP_ENTRIES;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoDeleteMapEntriesCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoDeleteMapEntriesCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.delete.map.entries._case.OkoDeleteMapEntriesBuilder;
import org.opendaylight.yangtools.yang.common.Uint16;

/**
 * DELETE_MAP_ENTRIES (docs/protocol.md sections 5.2, 5.3): the map message header and n_entries keys, or
 * OKO_DELETE_ALL with none.
 */
public final class DeleteMapEntriesCodec extends AbstractBodyCodec<OkoDeleteMapEntriesCase> {
    public DeleteMapEntriesCodec() {
        super(OkoDeleteMapEntriesCase.class, EXP_TYPE_DELETE_MAP_ENTRIES, "DELETE_MAP_ENTRIES");
    }

    @Override
    protected void serializeBody(final OkoDeleteMapEntriesCase input, final ByteBuf out) {
        final var delete = input.getOkoDeleteMapEntries();
        final boolean all = Fields.isSet(delete.getDeleteAll());
        final var keys = delete.nonnullEntry();
        if (all != keys.isEmpty()) {
            throw new IllegalArgumentException(all ? "delete-all with keys" : "no keys to delete");
        }
        final int keySize = delete.requireKeySize().toJava();
        Fields.writeProgId(delete.requireProgId(), out);
        out.writeByte(delete.requireMapIndex().getValue().toJava());
        out.writeByte(all ? DELETE_ALL : 0);
        out.writeShort(keySize);
        out.writeShort(0);
        out.writeShort(0);
        out.writeInt(keys.size());
        Fields.writeEntries(keys, keySize, 0, out);
    }

    @Override
    protected OkoDeleteMapEntriesCase deserializeBody(final WireReader in) {
        final var progId = Fields.readProgId(in);
        final var mapIndex = Fields.readMapIndex(in);
        final int flags = in.u8("flags");
        if ((flags & ~DELETE_ALL) != 0) {
            throw in.error(String.format("undefined flags 0x%02x", flags));
        }
        final boolean all = (flags & DELETE_ALL) != 0;
        final int keySize = in.u16("key_size");
        if (in.u16("value_size") != 0) {
            throw in.error("value_size must be 0");
        }
        in.reserved(2, "field at offset 26");
        final long count = in.u32("n_entries");
        if (all && count != 0) {
            throw in.error("OKO_DELETE_ALL with " + count + " keys");
        }
        if (!all && (count == 0 || keySize == 0)) {
            throw in.error("no keys to delete");
        }
        if (count * keySize != in.remaining()) {
            throw in.error("n_entries " + count + " x " + keySize + " bytes does not match the " + in.remaining()
                + " bytes of keys");
        }
        return new OkoDeleteMapEntriesCaseBuilder()
            .setOkoDeleteMapEntries(new OkoDeleteMapEntriesBuilder()
                .setProgId(progId)
                .setMapIndex(mapIndex)
                .setDeleteAll(all)
                .setKeySize(Uint16.valueOf(keySize))
                .setEntry(Fields.readEntries(in, count, keySize, 0))
                .build())
            .build();
    }
}
