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
import java.util.function.Function;
import org.opendaylight.oko.openflowjava.codec.message.AbstractBodyCodec;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFSerializer;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.experimenter.core.ExperimenterDataOfChoice;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.experimenter.core.message.ExperimenterMessageOfChoice;

/**
 * Writes the OFPMP_EXPERIMENTER body of an Oko multipart request (DUMP_MAPS, PROG_STATS, REPLAY_MAPS) given to
 * send-experimenter-mp-request: experimenter id, exp_type, then the request body the codec writes. The plugin has
 * written the multipart header (type 0xFFFF, flags, padding) before and fixes the message length after.
 *
 * @param <S> the RPC input's request case
 */
public final class MultipartRequestSerializer<S extends ExperimenterMessageOfChoice> implements OFSerializer<S> {
    private final AbstractBodyCodec<?> body;
    private final Function<S, ? extends ExperimenterDataOfChoice> toBody;

    public MultipartRequestSerializer(final AbstractBodyCodec<?> body,
            final Function<S, ? extends ExperimenterDataOfChoice> toBody) {
        this.body = requireNonNull(body);
        this.toBody = requireNonNull(toBody);
    }

    @Override
    public void serialize(final S input, final ByteBuf out) {
        // Convert first: a request without its container must not leave half a body in the buffer.
        final var requestBody = toBody.apply(input);
        out.writeInt((int) EXPERIMENTER_ID);
        out.writeInt(body.expType());
        body.serialize(requestBody, out);
    }
}
