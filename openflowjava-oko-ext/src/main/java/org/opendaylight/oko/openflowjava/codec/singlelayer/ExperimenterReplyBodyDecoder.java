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
import static org.opendaylight.oko.openflowjava.OkoConstants.OF13;

import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.function.Function;
import org.opendaylight.oko.openflowjava.codec.OkoDecodingException;
import org.opendaylight.openflowjava.protocol.api.extensibility.DeserializerRegistry;
import org.opendaylight.openflowjava.protocol.api.extensibility.DeserializerRegistryInjector;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterIdTypeDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.MessageTypeKey;
import org.opendaylight.openflowjava.util.ExperimenterDeserializerKeyFactory;
import org.opendaylight.openflowplugin.extension.api.ConvertorMessageFromOFJava;
import org.opendaylight.openflowplugin.extension.api.path.MessagePath;
import org.opendaylight.openflowplugin.openflow.md.core.session.OFSessionUtil;
import org.opendaylight.yang.gen.v1.urn.opendaylight.multipart.types.rev170112.multipart.reply.MultipartReplyBody;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.experimenter.core.ExperimenterDataOfChoice;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.experimenter.core.message.ExperimenterMessageOfChoice;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.multipart.reply.multipart.reply.body.MultipartReplyExperimenterBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * The body of an OFPMP_EXPERIMENTER reply in single-layer mode: Oko's replies (DUMP_MAPS, PROG_STATS,
 * REPLAY_MAPS) become one item of the send-experimenter-mp-request output; other experimenters' replies are decoded
 * the way openflowplugin's own body deserializer does it (their codec, or their codec and their message converter).
 */
public final class ExperimenterReplyBodyDecoder implements OFDeserializer<MultipartReplyBody>,
        DeserializerRegistryInjector {
    private final Map<Long, Function<ByteBuf, ExperimenterMessageOfChoice>> okoReplies;
    private DeserializerRegistry registry;

    /** Takes, by exp_type, what turns an Oko reply body into an RPC output item. */
    public ExperimenterReplyBodyDecoder(
            final Map<Long, Function<ByteBuf, ExperimenterMessageOfChoice>> okoReplies) {
        this.okoReplies = Map.copyOf(okoReplies);
    }

    @Override
    public void injectDeserializerRegistry(final DeserializerRegistry deserializerRegistry) {
        registry = requireNonNull(deserializerRegistry);
    }

    @Override
    public MultipartReplyBody deserialize(final ByteBuf message) {
        if (message.readableBytes() < 2 * Integer.BYTES) {
            throw new OkoDecodingException("experimenter multipart reply of " + message.readableBytes()
                + " bytes has no experimenter id and exp_type");
        }
        final long experimenter = message.readUnsignedInt();
        final long expType = message.readUnsignedInt();
        final ExperimenterMessageOfChoice item;
        if (experimenter == EXPERIMENTER_ID) {
            final var decoder = okoReplies.get(expType);
            if (decoder == null) {
                throw new OkoDecodingException("Oko multipart reply with unknown exp_type " + expType);
            }
            item = decoder.apply(message);
        } else {
            item = decodeOther(Uint32.valueOf(experimenter), expType, message);
        }
        return new MultipartReplyExperimenterBuilder().setExperimenterMessageOfChoice(item).build();
    }

    @SuppressWarnings("unchecked")
    private ExperimenterMessageOfChoice decodeOther(final Uint32 experimenter, final long expType,
            final ByteBuf message) {
        try {
            final OFDeserializer<ExperimenterMessageOfChoice> direct = registry.getDeserializer(
                new ExperimenterIdTypeDeserializerKey(OF13, experimenter, expType, ExperimenterMessageOfChoice.class));
            return direct.deserialize(message);
        } catch (ClassCastException | IllegalStateException e) {
            final OFDeserializer<ExperimenterDataOfChoice> codec = registry.getDeserializer(
                ExperimenterDeserializerKeyFactory.createMultipartReplyMessageDeserializerKey(OF13, experimenter,
                    expType));
            final ExperimenterDataOfChoice data = codec.deserialize(message);
            final ConvertorMessageFromOFJava<ExperimenterDataOfChoice, MessagePath> converter =
                OFSessionUtil.getExtensionConvertorProvider().getMessageConverter(new MessageTypeKey<>(OF13,
                    (Class<? extends ExperimenterDataOfChoice>) data.implementedInterface()));
            if (converter == null) {
                throw new IllegalStateException("no message converter for " + data.implementedInterface(), e);
            }
            return converter.convert(data, MessagePath.MPMESSAGE_RPC_OUTPUT);
        }
    }
}
