/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.error;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID;
import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID_UINT32;
import static org.opendaylight.oko.openflowjava.OkoConstants.MAX_ERROR_TEXT;
import static org.opendaylight.oko.openflowjava.OkoConstants.OF13;
import static org.opendaylight.oko.openflowjava.OkoConstants.OFPET_EXPERIMENTER;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import org.opendaylight.oko.openflowjava.OkoErrorCode;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFSerializer;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.augments.rev150225.ExperimenterIdError;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.augments.rev150225.ExperimenterIdErrorBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.ExperimenterId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ErrorMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ErrorMessageBuilder;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * Oko experimenter errors (docs/protocol.md section 7). openflowjava hands the message over from the xid on; the
 * text the switch sent (for example the verifier's "insn N: reason") becomes the error's data and, readable, its
 * code string, so it reaches logs and RPC results.
 */
public final class OkoErrorCodec implements OFDeserializer<ErrorMessage>, OFSerializer<ErrorMessage> {
    private static final String TYPE_STRING = "EXPERIMENTER";

    @Override
    public ErrorMessage deserialize(final ByteBuf message) {
        final WireReader in = new WireReader(message, "Oko error");
        final long xid = in.u32("xid");
        final int type = in.u16("type");
        if (type != OFPET_EXPERIMENTER) {
            throw in.error(String.format("type 0x%04x is not OFPET_EXPERIMENTER", type));
        }
        final int code = in.u16("exp_code");
        final long experimenter = in.u32("experimenter");
        if (experimenter != EXPERIMENTER_ID) {
            throw in.error(String.format("experimenter 0x%08x is not Oko's", experimenter));
        }
        final byte[] data = in.bytes(in.remaining(), "data");
        final OkoErrorCode known = OkoErrorCode.forCode(code);
        final String text = new String(data, 0, Math.min(data.length, MAX_ERROR_TEXT), StandardCharsets.UTF_8);
        return new ErrorMessageBuilder()
            .setVersion(OF13)
            .setXid(Uint32.valueOf(xid))
            .setType(Uint16.valueOf(type))
            .setTypeString(TYPE_STRING)
            .setCode(Uint16.valueOf(code))
            .setCodeString((known == null ? "OKO_EC_UNKNOWN_" + code : known.wireName())
                + (text.isEmpty() ? "" : ": " + text))
            .setData(data)
            .addAugmentation(new ExperimenterIdErrorBuilder()
                .setExperimenter(new ExperimenterId(EXPERIMENTER_ID_UINT32))
                .build())
            .build();
    }

    /**
     * Writes the error from the error type on (the part this class reads), for tests and tools that play the
     * switch's side.
     */
    @Override
    public void serialize(final ErrorMessage input, final ByteBuf outBuffer) {
        final ExperimenterIdError aug = input.augmentation(ExperimenterIdError.class);
        if (aug == null || aug.getExperimenter().getValue().longValue() != EXPERIMENTER_ID) {
            throw new IllegalArgumentException("not an Oko error: " + input);
        }
        outBuffer.writeShort(OFPET_EXPERIMENTER);
        outBuffer.writeShort(input.requireCode().toJava());
        outBuffer.writeInt((int) EXPERIMENTER_ID);
        if (input.getData() != null) {
            outBuffer.writeBytes(input.getData());
        }
    }
}
