/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_REPLAY_MAPS;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoReplayMapsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoReplayMapsReplyCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.oko.replay.maps.reply._case.OkoReplayMapsReplyBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.replay.maps.reply.EventBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * REPLAY_MAPS multipart reply body (docs/protocol.md section 5.7): prog_id, next_event_id, then nothing or one
 * SEND_MAPS fragment of a retained event.
 */
public final class ReplayMapsReplyCodec extends AbstractBodyCodec<OkoReplayMapsReplyCase> {
    public ReplayMapsReplyCodec() {
        super(OkoReplayMapsReplyCase.class, EXP_TYPE_REPLAY_MAPS, "REPLAY_MAPS reply");
    }

    @Override
    protected void serializeBody(final OkoReplayMapsReplyCase input, final ByteBuf out) {
        final var reply = input.getOkoReplayMapsReply();
        Fields.writeProgId(reply.requireProgId(), out);
        out.writeInt(reply.requireNextEventId().intValue());
        if (reply.getEvent() != null) {
            SendMapsFragments.write(reply.getEvent(), out);
        }
    }

    @Override
    protected OkoReplayMapsReplyCase deserializeBody(final WireReader in) {
        final var builder = new OkoReplayMapsReplyBuilder()
            .setProgId(Fields.readProgId(in))
            .setNextEventId(Uint32.valueOf(in.u32("next_event_id")));
        if (in.remaining() > 0) {
            builder.setEvent(new EventBuilder(SendMapsFragments.read(in)).build());
        }
        return new OkoReplayMapsReplyCaseBuilder().setOkoReplayMapsReply(builder.build()).build();
    }
}
