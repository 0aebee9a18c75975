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

import io.netty.buffer.ByteBuf;
import java.util.Map;
import org.opendaylight.oko.openflowjava.codec.OkoDecodingException;
import org.opendaylight.oko.openflowjava.codec.message.AbstractBodyCodec;
import org.opendaylight.openflowjava.protocol.api.extensibility.DeserializerRegistry;
import org.opendaylight.openflowjava.protocol.api.extensibility.DeserializerRegistryInjector;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.impl.deserialization.factories.ExperimenterMessageFactory;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.ExperimenterId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ExperimenterMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ExperimenterMessageBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * Decoder of OFPT_EXPERIMENTER (type 4) messages: Oko's go to the Oko body codec of their exp_type, other
 * experimenters' to openflowjava's ExperimenterMessageFactory.
 */
public final class ExperimenterMessageDecoder implements OFDeserializer<ExperimenterMessage>,
        DeserializerRegistryInjector {
    private final Map<Long, AbstractBodyCodec<?>> codecsByExpType;
    private final ExperimenterMessageFactory others = new ExperimenterMessageFactory();

    public ExperimenterMessageDecoder(final Map<Long, AbstractBodyCodec<?>> codecsByExpType) {
        this.codecsByExpType = Map.copyOf(codecsByExpType);
    }

    @Override
    public void injectDeserializerRegistry(final DeserializerRegistry registry) {
        others.injectDeserializerRegistry(requireNonNull(registry));
    }

    @Override
    public ExperimenterMessage deserialize(final ByteBuf message) {
        // xid (4), experimenter (4), exp_type (4)
        if (message.readableBytes() < 3 * Integer.BYTES
                || message.getUnsignedInt(message.readerIndex() + Integer.BYTES) != EXPERIMENTER_ID) {
            return others.deserialize(message);
        }
        final Uint32 xid = Uint32.fromIntBits(message.readInt());
        message.skipBytes(Integer.BYTES);
        final long expType = message.readUnsignedInt();
        final AbstractBodyCodec<?> codec = codecsByExpType.get(expType);
        if (codec == null) {
            throw new OkoDecodingException("Oko experimenter message with unknown exp_type " + expType);
        }
        return new ExperimenterMessageBuilder()
            .setVersion(OF13)
            .setXid(xid)
            .setExperimenter(new ExperimenterId(EXPERIMENTER_ID_UINT32))
            .setExpType(Uint32.valueOf(expType))
            .setExperimenterDataOfChoice(codec.deserialize(message))
            .build();
    }
}
