/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.SEND_MAPS_LAST;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.SendMaps;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.send.maps._case.OkoSendMaps;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.send.maps._case.OkoSendMapsBuilder;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * One SEND_MAPS fragment after its experimenter header (docs/protocol.md section 5.6, offsets 16 on): the fixed
 * part and the map sections. A SEND_MAPS message carries one; so does a REPLAY_MAPS reply (section 5.7).
 */
final class SendMapsFragments {
    private SendMapsFragments() {
        // utility class
    }

    static void write(final SendMaps fragment, final ByteBuf out) {
        final var sections = fragment.nonnullMapSection();
        Fields.writeProgId(fragment.requireProgId(), out);
        out.writeInt(fragment.requireEventId().intValue());
        out.writeLong(fragment.requireCookie().longValue());
        out.writeByte(fragment.requireTableId().toJava());
        out.writeByte(Fields.isSet(fragment.getLastFragment()) ? SEND_MAPS_LAST : 0);
        out.writeShort(fragment.requireFragment().toJava());
        out.writeShort(sections.size());
        out.writeShort(0);
        out.writeInt(fragment.getSuppressed() == null ? 0 : fragment.getSuppressed().intValue());
        out.writeInt(0);
        MapSections.write(sections, out);
    }

    /** Reads a fragment; the offsets in errors are those of a SEND_MAPS message. */
    static OkoSendMaps read(final WireReader in) {
        final var progId = Fields.readProgId(in);
        final long eventId = in.u32("event_id");
        final long cookie = in.u64("cookie");
        final int tableId = in.u8("table_id");
        final int flags = in.u8("flags");
        if ((flags & ~SEND_MAPS_LAST) != 0) {
            throw in.error(String.format("undefined flags 0x%02x", flags));
        }
        final int fragment = in.u16("fragment");
        final int sectionCount = in.u16("n_sections");
        in.reserved(2, "field at offset 38");
        final long suppressed = in.u32("suppressed");
        in.reserved(4, "field at offset 44");
        return new OkoSendMapsBuilder()
            .setProgId(progId)
            .setEventId(Uint32.valueOf(eventId))
            .setCookie(Uint64.fromLongBits(cookie))
            .setTableId(Uint8.valueOf(tableId))
            .setLastFragment((flags & SEND_MAPS_LAST) != 0)
            .setFragment(Uint16.valueOf(fragment))
            .setSuppressed(Uint32.valueOf(suppressed))
            .setMapSection(MapSections.read(in, sectionCount))
            .build();
    }
}
