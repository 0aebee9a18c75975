/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.registration;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID;
import static org.opendaylight.oko.openflowjava.OkoConstants.EXPERIMENTER_ID_UINT32;
import static org.opendaylight.oko.openflowjava.OkoConstants.OF13;
import static org.opendaylight.oko.openflowjava.OkoConstants.OFPMP_EXPERIMENTER;
import static org.opendaylight.oko.openflowjava.OkoConstants.OXM_FIELD_FILTER_PROG;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.opendaylight.oko.openflowjava.codec.action.SendMapsActionCodec;
import org.opendaylight.oko.openflowjava.codec.decoder.ErrorMessageDecoder;
import org.opendaylight.oko.openflowjava.codec.decoder.ExperimenterMessageDecoder;
import org.opendaylight.oko.openflowjava.codec.decoder.MultipartReplyDecoder;
import org.opendaylight.oko.openflowjava.codec.error.OkoErrorCodec;
import org.opendaylight.oko.openflowjava.codec.match.FilterProgCodec;
import org.opendaylight.oko.openflowjava.codec.message.AbstractBodyCodec;
import org.opendaylight.oko.openflowjava.codec.message.DeleteMapEntriesCodec;
import org.opendaylight.oko.openflowjava.codec.message.DumpMapsReplyCodec;
import org.opendaylight.oko.openflowjava.codec.message.DumpMapsRequestCodec;
import org.opendaylight.oko.openflowjava.codec.message.LoadProgCodec;
import org.opendaylight.oko.openflowjava.codec.message.MarkInstalledCodec;
import org.opendaylight.oko.openflowjava.codec.message.ProgStatsReplyCodec;
import org.opendaylight.oko.openflowjava.codec.message.ProgStatsRequestCodec;
import org.opendaylight.oko.openflowjava.codec.message.ReplayMapsReplyCodec;
import org.opendaylight.oko.openflowjava.codec.message.ReplayMapsRequestCodec;
import org.opendaylight.oko.openflowjava.codec.message.SendMapsCodec;
import org.opendaylight.oko.openflowjava.codec.message.UnloadProgCodec;
import org.opendaylight.oko.openflowjava.codec.message.UpdateMapCodec;
import org.opendaylight.oko.openflowjava.codec.singlelayer.ExperimenterReplyBodyDecoder;
import org.opendaylight.oko.openflowjava.codec.singlelayer.MultipartRequestSerializer;
import org.opendaylight.oko.openflowjava.convertor.DumpMapsConvertor;
import org.opendaylight.oko.openflowjava.convertor.ProgStatsConvertor;
import org.opendaylight.oko.openflowjava.convertor.ReplayMapsConvertor;
import org.opendaylight.openflowjava.protocol.api.keys.ActionSerializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterActionDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterIdDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterIdTypeDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterIdTypeSerializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.MatchEntryDeserializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.MatchEntrySerializerKey;
import org.opendaylight.openflowjava.protocol.api.keys.MessageCodeKey;
import org.opendaylight.openflowjava.protocol.api.keys.MessageTypeKey;
import org.opendaylight.openflowjava.protocol.spi.connection.SwitchConnectionProvider;
import org.opendaylight.yang.gen.v1.urn.opendaylight.multipart.types.rev170112.multipart.reply.MultipartReplyBody;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.FilterProg;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.action.container.action.choice.OkoSendMapsActionCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoDumpMapsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoProgStatsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoReplayMapsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoDumpMapsRequestSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoProgStatsRequestSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoReplayMapsRequestSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.oxm.rev150225.ExperimenterClass;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ErrorMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ExperimenterMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.MultipartReplyMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.experimenter.core.ExperimenterDataOfChoice;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.experimenter.core.message.ExperimenterMessageOfChoice;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * Registers every Oko codec of docs/protocol.md with one openflowjava {@link SwitchConnectionProvider}, and
 * removes them again. Holds the codec instances; one registrar serves any number of providers.
 */
public final class OkoCodecRegistrar {
    private static final int OFPT_ERROR = 1;
    private static final int OFPT_EXPERIMENTER = 4;
    private static final int OFPT_MULTIPART_REPLY = 19;
    private static final int OXM_CLASS_EXPERIMENTER = 0xFFFF;

    /** Controller-to-switch and switch-to-controller message bodies, by exp_type. */
    private final List<AbstractBodyCodec<?>> messageCodecs = List.of(new LoadProgCodec(), new UnloadProgCodec(),
        new UpdateMapCodec(), new DeleteMapEntriesCodec(), new SendMapsCodec(), new MarkInstalledCodec());
    private final DumpMapsRequestCodec dumpMapsRequest = new DumpMapsRequestCodec();
    private final DumpMapsReplyCodec dumpMapsReply = new DumpMapsReplyCodec();
    private final DumpMapsConvertor dumpMapsConvertor = new DumpMapsConvertor();
    private final ProgStatsRequestCodec progStatsRequest = new ProgStatsRequestCodec();
    private final ProgStatsReplyCodec progStatsReply = new ProgStatsReplyCodec();
    private final ProgStatsConvertor progStatsConvertor = new ProgStatsConvertor();
    private final ReplayMapsRequestCodec replayMapsRequest = new ReplayMapsRequestCodec();
    private final ReplayMapsReplyCodec replayMapsReply = new ReplayMapsReplyCodec();
    private final ReplayMapsConvertor replayMapsConvertor = new ReplayMapsConvertor();
    private final FilterProgCodec filterProg = new FilterProgCodec();
    private final SendMapsActionCodec sendMapsAction = new SendMapsActionCodec();
    private final OkoErrorCodec errors = new OkoErrorCodec();

    public void register(final SwitchConnectionProvider provider) {
        for (AbstractBodyCodec<?> codec : messageCodecs) {
            provider.registerExperimenterMessageSerializer(serializerKey(codec), codec);
            provider.registerExperimenterMessageDeserializer(deserializerKey(codec), codec);
        }
        for (AbstractBodyCodec<?> codec : List.of(dumpMapsRequest, progStatsRequest, replayMapsRequest)) {
            provider.registerMultipartRequestSerializer(serializerKey(codec), codec);
        }
        for (AbstractBodyCodec<?> codec : List.of(dumpMapsReply, progStatsReply, replayMapsReply)) {
            provider.registerMultipartReplyMessageDeserializer(deserializerKey(codec), codec);
        }
        // Single-layer mode (openflowplugin's default) serializes send-experimenter-mp-request's case by its class.
        provider.registerSerializer(new MessageTypeKey<>(OF13, OkoDumpMapsRequestSal.class),
            new MultipartRequestSerializer<>(dumpMapsRequest, dumpMapsConvertor::toRequestBody));
        provider.registerSerializer(new MessageTypeKey<>(OF13, OkoProgStatsRequestSal.class),
            new MultipartRequestSerializer<>(progStatsRequest, progStatsConvertor::toRequestBody));
        provider.registerSerializer(new MessageTypeKey<>(OF13, OkoReplayMapsRequestSal.class),
            new MultipartRequestSerializer<>(replayMapsRequest, replayMapsConvertor::toRequestBody));

        provider.registerMatchEntrySerializer(filterProgSerializerKey(), filterProg);
        provider.registerMatchEntryDeserializer(filterProgDeserializerKey(), filterProg);

        provider.registerActionSerializer(sendMapsActionSerializerKey(), sendMapsAction);
        provider.registerActionDeserializer(new ExperimenterActionDeserializerKey(OF13, EXPERIMENTER_ID),
            sendMapsAction);

        provider.registerErrorDeserializer(new ExperimenterIdDeserializerKey(OF13, EXPERIMENTER_ID_UINT32,
            ErrorMessage.class), errors);

        // openflowjava's own decoders cannot find the codecs above for ids read from the wire (see the
        // decoder package); these take over the three message types and hand non-Oko messages back to it.
        provider.registerDeserializer(new MessageCodeKey(OF13, OFPT_EXPERIMENTER, ExperimenterMessage.class),
            new ExperimenterMessageDecoder(messageCodecs()));
        provider.registerDeserializer(new MessageCodeKey(OF13, OFPT_ERROR, ErrorMessage.class),
            new ErrorMessageDecoder(errors));
        provider.registerDeserializer(new MessageCodeKey(OF13, OFPT_MULTIPART_REPLY, MultipartReplyMessage.class),
            new MultipartReplyDecoder(Map.of((long) dumpMapsReply.expType(), dumpMapsReply,
                (long) progStatsReply.expType(), progStatsReply,
                (long) replayMapsReply.expType(), replayMapsReply)));
    }

    /**
     * Installs the decoder of OFPMP_EXPERIMENTER reply bodies for openflowplugin's single-layer mode, in place of
     * the plugin's own (see the codec.singlelayer package). Must run after the plugin has started the provider:
     * the plugin installs its decoder at that point and would replace this one.
     */
    public void registerSingleLayerReplyDecoder(final SwitchConnectionProvider provider) {
        provider.registerDeserializer(new MessageCodeKey(OF13, OFPMP_EXPERIMENTER, MultipartReplyBody.class),
            new ExperimenterReplyBodyDecoder(Map.<Long, Function<ByteBuf, ExperimenterMessageOfChoice>>of(
                (long) dumpMapsReply.expType(),
                body -> dumpMapsConvertor.toReplyItem((OkoDumpMapsReplyCase) dumpMapsReply.deserialize(body)),
                (long) progStatsReply.expType(),
                body -> progStatsConvertor.toReplyItem((OkoProgStatsReplyCase) progStatsReply.deserialize(body)),
                (long) replayMapsReply.expType(),
                body -> replayMapsConvertor.toReplyItem(
                    (OkoReplayMapsReplyCase) replayMapsReply.deserialize(body)))));
    }

    /**
     * Removes the codecs that openflowjava lets an extension remove. The message decoders and the single-layer
     * multipart codecs stay (openflowjava can only remove experimenter keys): they hand every non-Oko message to
     * openflowjava's or openflowplugin's own code, so they are harmless without the rest.
     */
    public void unregister(final SwitchConnectionProvider provider) {
        for (AbstractBodyCodec<?> codec : messageCodecs) {
            provider.unregisterSerializer(serializerKey(codec));
            provider.unregisterDeserializer(deserializerKey(codec));
        }
        provider.unregisterSerializer(serializerKey(dumpMapsRequest));
        provider.unregisterDeserializer(deserializerKey(dumpMapsReply));
        provider.unregisterSerializer(serializerKey(progStatsRequest));
        provider.unregisterDeserializer(deserializerKey(progStatsReply));
        provider.unregisterSerializer(serializerKey(replayMapsRequest));
        provider.unregisterDeserializer(deserializerKey(replayMapsReply));
        provider.unregisterSerializer(filterProgSerializerKey());
        provider.unregisterDeserializer(filterProgDeserializerKey());
        provider.unregisterSerializer(sendMapsActionSerializerKey());
        provider.unregisterDeserializer(new ExperimenterActionDeserializerKey(OF13, EXPERIMENTER_ID));
        provider.unregisterDeserializer(new ExperimenterIdDeserializerKey(OF13, EXPERIMENTER_ID_UINT32,
            ErrorMessage.class));
    }

    /** The body codecs of Oko experimenter messages, by exp_type. */
    public Map<Long, AbstractBodyCodec<?>> messageCodecs() {
        return messageCodecs.stream().collect(Collectors.toMap(codec -> (long) codec.expType(), Function.identity()));
    }

    private static ExperimenterIdTypeSerializerKey<ExperimenterDataOfChoice> serializerKey(
            final AbstractBodyCodec<?> codec) {
        return new ExperimenterIdTypeSerializerKey<>(OF13, EXPERIMENTER_ID_UINT32, codec.expType(),
            ExperimenterDataOfChoice.class);
    }

    private static ExperimenterIdTypeDeserializerKey deserializerKey(final AbstractBodyCodec<?> codec) {
        return new ExperimenterIdTypeDeserializerKey(OF13, EXPERIMENTER_ID_UINT32, codec.expType(),
            ExperimenterDataOfChoice.class);
    }

    /** The key of the filter_prog OXM serializer, which openflowplugin's match converters use too. */
    public static MatchEntrySerializerKey<ExperimenterClass, FilterProg> filterProgSerializerKey() {
        final var key = new MatchEntrySerializerKey<>(OF13, ExperimenterClass.VALUE, FilterProg.VALUE);
        key.setExperimenterId(EXPERIMENTER_ID_UINT32);
        return key;
    }

    private static MatchEntryDeserializerKey filterProgDeserializerKey() {
        final var key = new MatchEntryDeserializerKey(OF13, OXM_CLASS_EXPERIMENTER, OXM_FIELD_FILTER_PROG);
        key.setExperimenterId(EXPERIMENTER_ID_UINT32);
        return key;
    }

    /** The key of the SEND_MAPS action serializer, which openflowplugin's action converters use too. */
    public static ActionSerializerKey<OkoSendMapsActionCase> sendMapsActionSerializerKey() {
        return new ActionSerializerKey<>(OF13, OkoSendMapsActionCase.class, (Uint32) null);
    }
}
