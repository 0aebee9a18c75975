/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_REPLAY_MAPS;
import static org.opendaylight.oko.openflowjava.OkoConstants.REPLAY_ALL;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoReplayMapsRequestCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoReplayMapsRequestCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.oko.replay.maps.request._case.OkoReplayMapsRequestBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * REPLAY_MAPS multipart request body (docs/protocol.md section 5.7): prog_id, after_event_id, flags
 * (OKO_REPLAY_ALL), reserved.
 */
public final class ReplayMapsRequestCodec extends AbstractBodyCodec<OkoReplayMapsRequestCase> {
    public ReplayMapsRequestCodec() {
        super(OkoReplayMapsRequestCase.class, EXP_TYPE_REPLAY_MAPS, "REPLAY_MAPS request");
    }

    @Override
    protected void serializeBody(final OkoReplayMapsRequestCase input, final ByteBuf out) {
        final var request = input.getOkoReplayMapsRequest();
        final boolean all = Fields.isSet(request.getAll());
        final var after = request.getAfterEventId();
        if (all && after != null && after.longValue() != 0) {
            throw new IllegalArgumentException("REPLAY_MAPS: 'all' with after-event-id " + after + " (must be 0)");
        }
        Fields.writeProgId(request.requireProgId(), out);
        out.writeInt(after == null ? 0 : after.intValue());
        out.writeShort(all ? REPLAY_ALL : 0);
        out.writeZero(6);
    }

    @Override
    protected OkoReplayMapsRequestCase deserializeBody(final WireReader in) {
        final var progId = Fields.readProgId(in);
        final long after = in.u32("after_event_id");
        final int flags = in.u16("flags");
        if ((flags & ~REPLAY_ALL) != 0) {
            throw in.error(String.format("undefined flags 0x%04x", flags));
        }
        final boolean all = (flags & REPLAY_ALL) != 0;
        if (all && after != 0) {
            throw in.error("'all' with after_event_id " + after + " (must be 0)");
        }
        in.reserved(2, "field at offset 34");
        in.reserved(4, "field at offset 36");
        return new OkoReplayMapsRequestCaseBuilder()
            .setOkoReplayMapsRequest(new OkoReplayMapsRequestBuilder()
                .setProgId(progId)
                .setAfterEventId(Uint32.valueOf(after))
                .setAll(all)
                .build())
            .build();
    }
}
