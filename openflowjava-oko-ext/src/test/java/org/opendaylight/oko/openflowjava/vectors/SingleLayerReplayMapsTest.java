/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opendaylight.oko.openflowjava.vectors.ProtocolVector.bytesOf;
import static org.opendaylight.oko.openflowjava.vectors.ProtocolVector.hex;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.openflowjava.OkoConstants;
import org.opendaylight.oko.openflowjava.codec.OkoDecodingException;
import org.opendaylight.oko.openflowjava.registration.OkoCodecRegistrar;
import org.opendaylight.openflowplugin.impl.protocol.deserialization.DeserializerInjector;
import org.opendaylight.openflowplugin.impl.protocol.serialization.SerializerInjector;
import org.opendaylight.yang.gen.v1.urn.opendaylight.multipart.types.rev170112.MultipartReply;
import org.opendaylight.yang.gen.v1.urn.opendaylight.multipart.types.rev170112.MultipartRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoReplayMapsRequestSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.oko.replay.maps.request.sal.OkoReplayMapsRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoReplayMapsReplySal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.multipart.reply.multipart.reply.body.MultipartReplyExperimenter;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.multipart.request.multipart.request.body.MultipartRequestExperimenterBuilder;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * REPLAY_MAPS through openflowplugin's send-experimenter-mp-request in single-layer mode, as
 * {@link SingleLayerDumpMapsTest} does for DUMP_MAPS: the plugin's own serializers and deserializers with the Oko
 * codecs registered by the production registrar, against the protocol vectors.
 */
class SingleLayerReplayMapsTest {
    private final RegistryBackedProvider provider = new RegistryBackedProvider();
    private final OkoCodecRegistrar registrar = new OkoCodecRegistrar();

    SingleLayerReplayMapsTest() {
        registrar.register(provider);
        SerializerInjector.injectSerializers(provider, false);
        DeserializerInjector.injectDeserializers(provider);
        registrar.registerSingleLayerReplyDecoder(provider);
    }

    @Test
    void requestsGivenToTheRpcAreTheVectors() {
        assertEquals(hex(bytesOf("replay_maps_request")), hex(encodeRequest(41, false)));
        assertEquals(hex(bytesOf("replay_maps_request_all")), hex(encodeRequest(0, true)));
    }

    @Test
    void allWithAnEventIdIsRefusedBeforeSending() {
        assertThrows(IllegalArgumentException.class, () -> encodeRequest(41, true));
    }

    private byte[] encodeRequest(final long after, final boolean all) {
        final var request = new MultipartRequestBuilder()
            .setXid(Uint32.valueOf(5))
            .setVersion(OkoConstants.OF13)
            .setRequestMore(false)
            .setMultipartRequestBody(new MultipartRequestExperimenterBuilder()
                .setExperimenterMessageOfChoice(new OkoReplayMapsRequestSalBuilder()
                    .setOkoReplayMapsRequest(new OkoReplayMapsRequestBuilder()
                        .setProgId(new ProgramId(Uint32.valueOf(7)))
                        .setAfterEventId(Uint32.valueOf(after))
                        .setAll(all)
                        .build())
                    .build())
                .build())
            .build();
        final ByteBuf out = Unpooled.buffer();
        provider.serialization().messageToBuffer(OkoConstants.OF13, out, request);
        return ByteBufUtil.getBytes(out);
    }

    @Test
    void replyWithAnEventBecomesAnItemOfTheRpcOutputWithEveryField() {
        final MultipartReply reply = decode(bytesOf("replay_maps_reply"));
        assertEquals(Uint32.valueOf(5), reply.getXid());
        assertFalse(reply.getRequestMore(), "last reply");
        final var replay = item(reply);
        assertEquals(Uint32.valueOf(7), replay.getProgId().getValue());
        assertEquals(Uint32.valueOf(42), replay.getNextEventId());
        final var event = replay.getEvent();
        assertEquals(Uint32.valueOf(41), event.getEventId());
        assertEquals(Uint64.valueOf(0x1122334455667788L), event.getCookie());
        assertEquals(Uint8.valueOf(3), event.getTableId());
        assertTrue(event.getLastFragment());
        assertEquals(Uint16.ZERO, event.getFragment());
        assertEquals(Uint32.valueOf(2), event.getSuppressed());
        final var sections = event.nonnullMapSection();
        assertEquals(2, sections.size());
        assertEquals(2, sections.get(0).nonnullEntry().size());
        assertTrue(sections.get(1).nonnullEntry().isEmpty());
    }

    @Test
    void replyWithoutAnEventSaysTheNextEventId() {
        final var replay = item(decode(bytesOf("replay_maps_reply_none")));
        assertEquals(Uint32.valueOf(42), replay.getNextEventId());
        assertNull(replay.getEvent());
    }

    @Test
    void moreRepliesCarryFragmentsThatAreNotLast() {
        final MultipartReply reply = decode(bytesOf("replay_maps_reply_more"));
        assertTrue(reply.getRequestMore());
        final var event = item(reply).getEvent();
        assertEquals(Uint32.valueOf(40), event.getEventId());
        assertFalse(event.getLastFragment());
        assertTrue(event.nonnullMapSection().get(0).getContinues());
    }

    @Test
    void malformedRepliesAreDecodingErrors() {
        for (String name : List.of("replay_maps_reply_fragment_cut", "replay_maps_reply_section_overflow")) {
            assertThrows(OkoDecodingException.class, () -> decode(bytesOf(name)), name);
        }
    }

    private static org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp
            .request.output.experimenter.core.message.item.experimenter.message.of.choice.oko.replay.maps.reply.sal
            .OkoReplayMapsReply item(final MultipartReply reply) {
        final var body = assertInstanceOf(MultipartReplyExperimenter.class, reply.getMultipartReplyBody());
        return assertInstanceOf(OkoReplayMapsReplySal.class, body.getExperimenterMessageOfChoice())
            .getOkoReplayMapsReply();
    }

    private MultipartReply decode(final byte[] bytes) {
        return assertInstanceOf(MultipartReply.class, provider.decode(bytes));
    }
}
