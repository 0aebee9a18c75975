/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.singlelayer;

import static java.util.Objects.requireNonNull;
import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.message.DumpMapsRequestCodec;
import org.opendaylight.oko.openflowjava.convertor.DumpMapsConvertor;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFSerializer;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoDumpMapsRequestSal;

/**
 * Writes the OFPMP_EXPERIMENTER body of a DUMP_MAPS request given to send-experimenter-mp-request: experimenter
 * id, exp_type, then the request body of docs/protocol.md section 5.5. The plugin has written the multipart
 * header (type 0xFFFF, flags, padding) before and fixes the message length after.
 */
public final class DumpMapsRequestSerializer implements OFSerializer<OkoDumpMapsRequestSal> {
    private final DumpMapsRequestCodec body;
    private final DumpMapsConvertor convertor;

    public DumpMapsRequestSerializer(final DumpMapsRequestCodec body, final DumpMapsConvertor convertor) {
        this.body = requireNonNull(body);
        this.convertor = requireNonNull(convertor);
    }

    @Override
    public void serialize(final OkoDumpMapsRequestSal input, final ByteBuf out) {
        // Convert first: a request without its container must not leave half a body in the buffer.
        final var requestBody = convertor.toRequestBody(input);
        out.writeInt((int) EXPERIMENTER_ID);
        out.writeInt(body.expType());
        body.serialize(requestBody, out);
    }
}
