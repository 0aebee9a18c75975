/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.decoder;

import static java.util.Objects.requireNonNull;
import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID;
import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID_UINT32;
import static org.opendaylight.oko.openflowjava.OkoConstants.OF13;
import static org.opendaylight.oko.openflowjava.OkoConstants.OFPMP_EXPERIMENTER;

import io.netty.buffer.ByteBuf;
import java.util.Map;
import org.opendaylight.oko.openflowjava.codec.OkoDecodingException;
import org.opendaylight.oko.openflowjava.codec.message.AbstractBodyCodec;
import org.opendaylight.openflowjava.protocol.api.extensibility.DeserializerRegistry;
import org.opendaylight.openflowjava.protocol.api.extensibility.DeserializerRegistryInjector;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.impl.deserialization.factories.MultipartReplyMessageFactory;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.ExperimenterId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.MultipartRequestFlags;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.MultipartType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.MultipartReplyMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.MultipartReplyMessageBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.multipart.reply.multipart.reply.body.MultipartReplyExperimenterCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.multipart.reply.multipart.reply.body.multipart.reply.experimenter._case.MultipartReplyExperimenterBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * Decoder of OFPT_MULTIPART_REPLY (type 19): Oko's replies (DUMP_MAPS, PROG_STATS, REPLAY_MAPS) go to their body
 * codecs, by exp_type; every other reply to openflowjava's MultipartReplyMessageFactory.
 */
public final class MultipartReplyDecoder implements OFDeserializer<MultipartReplyMessage>,
        DeserializerRegistryInjector {
    private static final int OFPMPF_REPLY_MORE = 0x0001;
    // xid (4), type (2), flags (2), pad (4), experimenter (4), exp_type (4)
    private static final int TYPE_OFFSET = 4;
    private static final int EXPERIMENTER_OFFSET = 12;
    private static final int PAD = 4;

    private final Map<Long, AbstractBodyCodec<?>> replyCodecs;
    private final MultipartReplyMessageFactory others = new MultipartReplyMessageFactory();

    /** Takes the reply body codecs by exp_type. */
    public MultipartReplyDecoder(final Map<Long, AbstractBodyCodec<?>> replyCodecs) {
        this.replyCodecs = Map.copyOf(replyCodecs);
    }

    @Override
    public void injectDeserializerRegistry(final DeserializerRegistry registry) {
        others.injectDeserializerRegistry(requireNonNull(registry));
    }

    @Override
    public MultipartReplyMessage deserialize(final ByteBuf message) {
        final int start = message.readerIndex();
        if (message.readableBytes() < EXPERIMENTER_OFFSET + 2 * Integer.BYTES
                || message.getUnsignedShort(start + TYPE_OFFSET) != OFPMP_EXPERIMENTER
                || message.getUnsignedInt(start + EXPERIMENTER_OFFSET) != EXPERIMENTER_ID) {
            return others.deserialize(message);
        }
        final Uint32 xid = Uint32.fromIntBits(message.readInt());
        message.skipBytes(Short.BYTES);
        final int flags = message.readUnsignedShort();
        message.skipBytes(PAD + Integer.BYTES);
        final long expType = message.readUnsignedInt();
        final AbstractBodyCodec<?> codec = replyCodecs.get(expType);
        if (codec == null) {
            throw new OkoDecodingException("Oko multipart reply with unknown exp_type " + expType);
        }
        return new MultipartReplyMessageBuilder()
            .setVersion(OF13)
            .setXid(xid)
            .setType(MultipartType.OFPMPEXPERIMENTER)
            .setFlags(new MultipartRequestFlags((flags & OFPMPF_REPLY_MORE) != 0))
            .setMultipartReplyBody(new MultipartReplyExperimenterCaseBuilder()
                .setMultipartReplyExperimenter(new MultipartReplyExperimenterBuilder()
                    .setExperimenter(new ExperimenterId(EXPERIMENTER_ID_UINT32))
                    .setExpType(Uint32.valueOf(expType))
                    .setExperimenterDataOfChoice(codec.deserialize(message))
                    .build())
                .build())
            .build();
    }
}
