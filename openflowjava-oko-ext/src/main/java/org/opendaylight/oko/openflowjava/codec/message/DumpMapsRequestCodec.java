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
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoDumpMapsRequestCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoDumpMapsRequestCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.oko.dump.maps.request._case.OkoDumpMapsRequestBuilder;
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * DUMP_MAPS multipart request body (docs/protocol.md section 5.5): prog_id and the map mask.
 */
public final class DumpMapsRequestCodec extends AbstractBodyCodec<OkoDumpMapsRequestCase> {
    public DumpMapsRequestCodec() {
        super(OkoDumpMapsRequestCase.class, EXP_TYPE_DUMP_MAPS, "DUMP_MAPS request");
    }

    @Override
    protected void serializeBody(final OkoDumpMapsRequestCase input, final ByteBuf out) {
        final var request = input.getOkoDumpMapsRequest();
        Fields.writeProgId(request.requireProgId(), out);
        out.writeInt(0);
        out.writeLong(request.getMapMask() == null ? 0 : request.getMapMask().longValue());
    }

    @Override
    protected OkoDumpMapsRequestCase deserializeBody(final WireReader in) {
        final var progId = Fields.readProgId(in);
        in.reserved(4, "field at offset 28");
        final long mask = in.u64("map_mask");
        return new OkoDumpMapsRequestCaseBuilder()
            .setOkoDumpMapsRequest(new OkoDumpMapsRequestBuilder()
                .setProgId(progId)
                .setMapMask(Uint64.fromLongBits(mask))
                .build())
            .build();
    }
}
