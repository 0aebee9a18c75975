/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_PROG_STATS;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoProgStatsRequestCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoProgStatsRequestCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.oko.prog.stats.request._case.OkoProgStatsRequestBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * PROG_STATS multipart request body (docs/protocol.md section 4.3): prog_id (0 = every program), reserved.
 */
public final class ProgStatsRequestCodec extends AbstractBodyCodec<OkoProgStatsRequestCase> {
    public ProgStatsRequestCodec() {
        super(OkoProgStatsRequestCase.class, EXP_TYPE_PROG_STATS, "PROG_STATS request");
    }

    @Override
    protected void serializeBody(final OkoProgStatsRequestCase input, final ByteBuf out) {
        final var progId = input.getOkoProgStatsRequest().getProgId();
        out.writeInt(progId == null ? 0 : progId.intValue());
        out.writeInt(0);
    }

    @Override
    protected OkoProgStatsRequestCase deserializeBody(final WireReader in) {
        final long progId = in.u32("prog_id");
        in.reserved(4, "field at offset 28");
        return new OkoProgStatsRequestCaseBuilder()
            .setOkoProgStatsRequest(new OkoProgStatsRequestBuilder().setProgId(Uint32.valueOf(progId)).build())
            .build();
    }
}
