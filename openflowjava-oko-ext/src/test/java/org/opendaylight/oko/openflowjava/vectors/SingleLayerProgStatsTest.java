/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.vectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoProgStatsRequestSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.oko.prog.stats.request.sal.OkoProgStatsRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoProgStatsReplySal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.multipart.reply.multipart.reply.body.MultipartReplyExperimenter;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.multipart.request.multipart.request.body.MultipartRequestExperimenterBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * PROG_STATS through openflowplugin's send-experimenter-mp-request in single-layer mode, as
 * {@link SingleLayerDumpMapsTest} does for DUMP_MAPS: the plugin's own serializers and deserializers with the Oko
 * codecs registered by the production registrar, against the protocol vectors.
 */
class SingleLayerProgStatsTest {
    private final RegistryBackedProvider provider = new RegistryBackedProvider();
    private final OkoCodecRegistrar registrar = new OkoCodecRegistrar();

    SingleLayerProgStatsTest() {
        registrar.register(provider);
        SerializerInjector.injectSerializers(provider, false);
        DeserializerInjector.injectDeserializers(provider);
        registrar.registerSingleLayerReplyDecoder(provider);
    }

    @Test
    void requestGivenToTheRpcIsTheVector() {
        final var request = new MultipartRequestBuilder()
            .setXid(Uint32.valueOf(4))
            .setVersion(OkoConstants.OF13)
            .setRequestMore(false)
            .setMultipartRequestBody(new MultipartRequestExperimenterBuilder()
                .setExperimenterMessageOfChoice(new OkoProgStatsRequestSalBuilder()
                    .setOkoProgStatsRequest(new OkoProgStatsRequestBuilder().setProgId(Uint32.valueOf(7)).build())
                    .build())
                .build())
            .build();
        final ByteBuf out = Unpooled.buffer();
        provider.serialization().messageToBuffer(OkoConstants.OF13, out, request);
        assertEquals(hex(bytesOf("prog_stats_request")), hex(ByteBufUtil.getBytes(out)));
    }

    @Test
    void replyBecomesAnItemOfTheRpcOutputWithEveryField() {
        final MultipartReply reply = decode(bytesOf("prog_stats_reply"));
        assertEquals(Uint32.valueOf(3), reply.getXid());
        assertFalse(reply.getRequestMore(), "last reply");
        final var body = assertInstanceOf(MultipartReplyExperimenter.class, reply.getMultipartReplyBody());
        final var programs = assertInstanceOf(OkoProgStatsReplySal.class, body.getExperimenterMessageOfChoice())
            .getOkoProgStatsReply().nonnullProgStats();
        assertEquals(3, programs.size());
        final var p7 = programs.get(0);
        assertEquals(Uint32.valueOf(7), p7.getProgId().getValue());
        assertTrue(p7.getJit());
        assertEquals(Uint64.valueOf(1000), p7.getRuns());
        assertEquals(Uint64.valueOf(250), p7.getMatches());
        assertEquals(Uint64.valueOf(1), p7.getErrors());
        assertEquals(Uint64.valueOf(2), p7.getTimedRuns());
        assertEquals(Uint64.valueOf(91), p7.getTimedNs());
        assertEquals(Uint32.valueOf(2), p7.getRules());
        assertEquals(Uint32.valueOf(3), p7.getDatapathFlows());
        assertEquals(Uint32.valueOf(22), p7.getInstructions());
        assertEquals(Uint64.valueOf(16), p7.getMemory());
        final var lru = p7.nonnullMapStats().get(1);
        assertEquals(MapType.LruHash, lru.getMapType());
        assertEquals(Uint32.valueOf(4), lru.getUsed());
        assertEquals(Uint32.valueOf(4), lru.getMaxEntries());
        assertEquals(Uint64.valueOf(2), lru.getEvictions());
        final var p9 = programs.get(1);
        assertFalse(p9.getJit());
        assertEquals(Uint64.valueOf(0x1_0000_0001L), p9.getRuns());
        assertEquals(Uint64.valueOf(7), p9.nonnullMapStats().get(0).getRefusedFull());
        assertTrue(programs.get(2).nonnullMapStats().isEmpty());
        // Version 1.2 records end with the ELF's SHA-256 (the vectors' are of "program 7" and "program 9"); a 1.1
        // record (program 11) has none.
        assertArrayEquals(sha256("program 7"), p7.getElfSha256());
        assertArrayEquals(sha256("program 9"), p9.getElfSha256());
        assertNull(programs.get(2).getElfSha256());
    }

    private static byte[] sha256(final String text) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void moreAndEmptyRepliesDecode() {
        assertTrue(decode(bytesOf("prog_stats_reply_more")).getRequestMore());
        final var body = (MultipartReplyExperimenter) decode(bytesOf("prog_stats_reply_empty")).getMultipartReplyBody();
        assertTrue(((OkoProgStatsReplySal) body.getExperimenterMessageOfChoice()).getOkoProgStatsReply()
            .nonnullProgStats().isEmpty());
    }

    @Test
    void malformedRepliesAreDecodingErrors() {
        for (String name : List.of("prog_stats_reply_bad_record_length", "prog_stats_reply_count_overflow",
                "prog_stats_reply_truncated_record", "prog_stats_reply_map_index", "prog_stats_reply_unknown_flags",
                "prog_stats_reply_sha256_cut")) {
            assertThrows(OkoDecodingException.class, () -> decode(bytesOf(name)), name);
        }
    }

    private MultipartReply decode(final byte[] bytes) {
        return assertInstanceOf(MultipartReply.class, provider.decode(bytes));
    }
}
