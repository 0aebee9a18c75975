/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_SEND_MAPS;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoSendMapsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoSendMapsCaseBuilder;

/**
 * SEND_MAPS message (docs/protocol.md section 5.6): one fragment of a map-push event from the switch.
 */
public final class SendMapsCodec extends AbstractBodyCodec<OkoSendMapsCase> {
    public SendMapsCodec() {
        super(OkoSendMapsCase.class, EXP_TYPE_SEND_MAPS, "SEND_MAPS");
    }

    @Override
    protected void serializeBody(final OkoSendMapsCase input, final ByteBuf out) {
        SendMapsFragments.write(input.getOkoSendMaps(), out);
    }

    @Override
    protected OkoSendMapsCase deserializeBody(final WireReader in) {
        return new OkoSendMapsCaseBuilder().setOkoSendMaps(SendMapsFragments.read(in)).build();
    }
}
