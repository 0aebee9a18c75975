/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_DUMP_MAPS;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoDumpMapsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoDumpMapsReplyCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.oko.dump.maps.reply._case.OkoDumpMapsReplyBuilder;

/**
 * DUMP_MAPS multipart reply body (docs/protocol.md section 5.5): prog_id and map sections.
 */
public final class DumpMapsReplyCodec extends AbstractBodyCodec<OkoDumpMapsReplyCase> {
    public DumpMapsReplyCodec() {
        super(OkoDumpMapsReplyCase.class, EXP_TYPE_DUMP_MAPS, "DUMP_MAPS reply");
    }

    @Override
    protected void serializeBody(final OkoDumpMapsReplyCase input, final ByteBuf out) {
        final var reply = input.getOkoDumpMapsReply();
        final var sections = reply.nonnullMapSection();
        Fields.writeProgId(reply.requireProgId(), out);
        out.writeShort(sections.size());
        out.writeShort(0);
        MapSections.write(sections, out);
    }

    @Override
    protected OkoDumpMapsReplyCase deserializeBody(final WireReader in) {
        final var progId = Fields.readProgId(in);
        final int sectionCount = in.u16("n_sections");
        in.reserved(2, "field at offset 30");
        return new OkoDumpMapsReplyCaseBuilder()
            .setOkoDumpMapsReply(new OkoDumpMapsReplyBuilder()
                .setProgId(progId)
                .setMapSection(MapSections.read(in, sectionCount))
                .build())
            .build();
    }
}
