/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opendaylight.oko.openflowjava.vectors.ProtocolVector.bytesOf;
import static org.opendaylight.oko.openflowjava.vectors.ProtocolVector.hex;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.openflowjava.OkoConstants;
import org.opendaylight.oko.openflowjava.codec.OkoDecodingException;
import org.opendaylight.oko.openflowjava.registration.OkoCodecRegistrar;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.api.keys.ExperimenterIdTypeDeserializerKey;
import org.opendaylight.openflowplugin.impl.protocol.deserialization.DeserializerInjector;
import org.opendaylight.openflowplugin.impl.protocol.serialization.SerializerInjector;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.mp.message.service.rev151020.SendExperimenterMpRequestInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.multipart.types.rev170112.MultipartReply;
import org.opendaylight.yang.gen.v1.urn.opendaylight.multipart.types.rev170112.MultipartRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoDumpMapsRequestSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.oko.dump.maps.request.sal.OkoDumpMapsRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoDumpMapsReplySal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoDumpMapsReplySalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.oko.dump.maps.reply.sal.OkoDumpMapsReplyBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.experimenter.core.message.ExperimenterMessageOfChoice;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.multipart.reply.multipart.reply.body.MultipartReplyExperimenter;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.multipart.request.multipart.request.body.MultipartRequestExperimenterBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * DUMP_MAPS through openflowplugin's send-experimenter-mp-request in single-layer mode, the plugin's default: the
 * plugin's own single-layer serializers and deserializers (SerializerInjector, DeserializerInjector, as the plugin
 * installs them when it starts a switch connection provider) with the Oko codecs registered the way the
 * registration components do it, against the protocol vectors.
 */
class SingleLayerDumpMapsTest {
    private static final Uint32 XID = Uint32.valueOf(9);

    private final RegistryBackedProvider provider = new RegistryBackedProvider();
    private final OkoCodecRegistrar registrar = new OkoCodecRegistrar();

    SingleLayerDumpMapsTest() {
        registrar.register(provider);
        SerializerInjector.injectSerializers(provider, false);
        DeserializerInjector.injectDeserializers(provider);
    }

    @Test
    void requestGivenToTheRpcIsTheVector() {
        final var input = new SendExperimenterMpRequestInputBuilder()
            .setExperimenterMessageOfChoice(new OkoDumpMapsRequestSalBuilder()
                .setOkoDumpMapsRequest(new OkoDumpMapsRequestBuilder()
                    .setProgId(new ProgramId(Uint32.valueOf(7)))
                    .setMapMask(Uint64.valueOf(5))
                    .build())
                .build())
            .build();
        // What SingleLayerExperimenterMultipartService sends for the RPC.
        final var request = new MultipartRequestBuilder()
            .setXid(XID)
            .setVersion(OkoConstants.OF13)
            .setRequestMore(false)
            .setMultipartRequestBody(new MultipartRequestExperimenterBuilder(input).build())
            .build();
        final ByteBuf out = Unpooled.buffer();
        provider.serialization().messageToBuffer(OkoConstants.OF13, out, request);
        assertEquals(hex(bytesOf("dump_maps_request_mask")), hex(ByteBufUtil.getBytes(out)));
    }

    @Test
    void requestWithoutItsContainerIsRefusedBeforeAnyByteOfTheBody() {
        final var request = new MultipartRequestBuilder()
            .setXid(XID)
            .setVersion(OkoConstants.OF13)
            .setRequestMore(false)
            .setMultipartRequestBody(new MultipartRequestExperimenterBuilder()
                .setExperimenterMessageOfChoice(new OkoDumpMapsRequestSalBuilder().build())
                .build())
            .build();
        final var error = assertThrows(IllegalArgumentException.class,
            () -> provider.serialization().messageToBuffer(OkoConstants.OF13, Unpooled.buffer(), request));
        assertEquals("oko-dump-maps-request is missing", error.getMessage());
    }

    @Test
    void pluginsOwnReplyDecoderDropsOkoReplies() {
        // The openflowjava key bug (experimenter ids compared by reference): why Oko installs its own decoder.
        assertThrows(IllegalStateException.class, () -> decode(bytesOf("dump_maps_reply_more")));
    }

    @Test
    void replyBecomesAnItemOfTheRpcOutput() {
        registrar.registerSingleLayerReplyDecoder(provider);
        final MultipartReply reply = decode(bytesOf("dump_maps_reply_more"));
        assertEquals(XID, reply.getXid());
        assertTrue(reply.getRequestMore(), "REPLY_MORE flag");
        final var body = assertInstanceOf(MultipartReplyExperimenter.class, reply.getMultipartReplyBody());
        final var dump = assertInstanceOf(OkoDumpMapsReplySal.class, body.getExperimenterMessageOfChoice())
            .getOkoDumpMapsReply();
        assertEquals(Uint32.valueOf(7), dump.getProgId().getValue());
        final var section = dump.nonnullMapSection().get(0);
        assertEquals(0, section.getMapIndex().getValue().intValue());
        assertTrue(section.getContinues(), "section continues in the next reply");
        assertEquals(4, section.getKeySize().intValue());
        assertEquals(8, section.getValueSize().intValue());
        final var entry = section.nonnullEntry().get(0);
        assertEquals("0a000001", HexFormat.of().formatHex(entry.getKey()));
        assertEquals("0100000000000000", HexFormat.of().formatHex(entry.getValue()));
    }

    @Test
    void everyReplyVectorDecodes() {
        registrar.registerSingleLayerReplyDecoder(provider);
        for (String name : new String[] { "dump_maps_reply_last", "dump_maps_reply_lpm", "dump_maps_reply_more" }) {
            final var body = (MultipartReplyExperimenter) decode(bytesOf(name)).getMultipartReplyBody();
            assertInstanceOf(OkoDumpMapsReplySal.class, body.getExperimenterMessageOfChoice(), name);
        }
    }

    @Test
    void truncatedReplyIsADecodingError() {
        registrar.registerSingleLayerReplyDecoder(provider);
        final byte[] whole = bytesOf("dump_maps_reply_last");
        final byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 4);
        cut[2] = (byte) (cut.length >> 8);
        cut[3] = (byte) cut.length;
        assertThrows(OkoDecodingException.class, () -> decode(cut));
    }

    @Test
    void otherExperimentersRepliesStillReachTheirCodec() {
        registrar.registerSingleLayerReplyDecoder(provider);
        final Uint32 other = Uint32.valueOf(200);
        final OkoDumpMapsReplySal marker = new OkoDumpMapsReplySalBuilder()
            .setOkoDumpMapsReply(new OkoDumpMapsReplyBuilder().setProgId(new ProgramId(Uint32.valueOf(99))).build())
            .build();
        final OFDeserializer<ExperimenterMessageOfChoice> codec = message -> {
            message.skipBytes(message.readableBytes());
            return marker;
        };
        provider.registerDeserializer(new ExperimenterIdTypeDeserializerKey(OkoConstants.OF13, other, 3,
            ExperimenterMessageOfChoice.class), codec);
        final byte[] reply = HexFormat.of().parseHex("0413001800000009ffff000000000000000000c800000003");
        final var body = (MultipartReplyExperimenter) decode(reply).getMultipartReplyBody();
        assertEquals(marker, body.getExperimenterMessageOfChoice());
    }

    private MultipartReply decode(final byte[] bytes) {
        return assertInstanceOf(MultipartReply.class, provider.decode(bytes));
    }
}
