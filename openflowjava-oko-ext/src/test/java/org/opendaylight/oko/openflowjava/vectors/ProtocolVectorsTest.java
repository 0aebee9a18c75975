/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.opendaylight.oko.openflowjava.OkoConstants.OFPMP_EXPERIMENTER;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opendaylight.oko.openflowjava.OkoConstants;
import org.opendaylight.oko.openflowjava.codec.OkoDecodingException;
import org.opendaylight.oko.openflowjava.codec.action.SendMapsActionCodec;
import org.opendaylight.oko.openflowjava.codec.error.OkoErrorCodec;
import org.opendaylight.oko.openflowjava.codec.match.FilterProgCodec;
import org.opendaylight.oko.openflowjava.codec.message.AbstractBodyCodec;
import org.opendaylight.oko.openflowjava.codec.message.DumpMapsReplyCodec;
import org.opendaylight.oko.openflowjava.codec.message.DumpMapsRequestCodec;
import org.opendaylight.oko.openflowjava.codec.message.ProgStatsReplyCodec;
import org.opendaylight.oko.openflowjava.codec.message.ProgStatsRequestCodec;
import org.opendaylight.oko.openflowjava.codec.message.ReplayMapsReplyCodec;
import org.opendaylight.oko.openflowjava.codec.message.ReplayMapsRequestCodec;
import org.opendaylight.oko.openflowjava.registration.OkoCodecRegistrar;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFSerializer;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.ExperimenterId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.MultipartRequestFlags;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.types.rev130731.MultipartType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ErrorMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ExperimenterInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ExperimenterMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.MultipartReplyMessage;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.MultipartRequestInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.multipart.reply.multipart.reply.body.MultipartReplyExperimenterCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.multipart.request.multipart.request.body.MultipartRequestExperimenterCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.multipart.request.multipart.request.body.multipart.request.experimenter._case.MultipartRequestExperimenterBuilder;
import org.opendaylight.yangtools.binding.DataContainer;
import org.opendaylight.yangtools.binding.DataObject;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * Every vector of docs/protocol/vectors through openflowjava's real factories with the Oko codecs registered by
 * the production registrar: well-formed vectors decode and re-encode byte for byte, malformed ones are rejected
 * with a decoding error.
 */
class ProtocolVectorsTest {
    private static final int OFP_HEADER_LENGTH = 8;
    private static final int OFPT_ERROR = 1;
    private static final int OFPT_MULTIPART_REQUEST = 18;
    private static final int OFPT_MULTIPART_REPLY = 19;
    private static final int MULTIPART_PAD = 4;

    private static final Map<Long, AbstractBodyCodec<?>> REQUEST_CODECS = Map.of(
        (long) OkoConstants.EXP_TYPE_DUMP_MAPS, new DumpMapsRequestCodec(),
        (long) OkoConstants.EXP_TYPE_PROG_STATS, new ProgStatsRequestCodec(),
        (long) OkoConstants.EXP_TYPE_REPLAY_MAPS, new ReplayMapsRequestCodec());
    private static final Map<Long, AbstractBodyCodec<?>> REPLY_CODECS = Map.of(
        (long) OkoConstants.EXP_TYPE_DUMP_MAPS, new DumpMapsReplyCodec(),
        (long) OkoConstants.EXP_TYPE_PROG_STATS, new ProgStatsReplyCodec(),
        (long) OkoConstants.EXP_TYPE_REPLAY_MAPS, new ReplayMapsReplyCodec());

    private final RegistryBackedProvider provider = new RegistryBackedProvider();

    ProtocolVectorsTest() {
        new OkoCodecRegistrar().register(provider);
    }

    static List<ProtocolVector> vectors() {
        return ProtocolVector.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void vector(final ProtocolVector vector) {
        if (vector.wellFormed()) {
            final byte[] encoded = roundTrip(vector);
            assertEquals(hex(vector.bytes()), hex(encoded), vector.comment());
        } else {
            final RuntimeException error = assertThrows(RuntimeException.class, () -> roundTrip(vector),
                () -> "accepted a malformed vector: " + vector.comment());
            if (!vector.name().equals("load_prog_bad_experimenter")) {
                // Everything Oko's decoders see must be refused by them, saying why.
                assertTrue(error instanceof OkoDecodingException, () -> "expected an OkoDecodingException, got "
                    + error);
            }
        }
    }

    private byte[] roundTrip(final ProtocolVector vector) {
        return switch (vector.kind()) {
            case "message", "multipart-request", "multipart-reply", "error" -> roundTripMessage(vector.bytes());
            case "oxm" -> roundTripStructure(new FilterProgCodec(), vector.bytes(), "OXM");
            case "action" -> roundTripStructure(new SendMapsActionCodec(), vector.bytes(), "action");
            default -> throw new IllegalArgumentException("unknown kind " + vector.kind());
        };
    }

    /** Frames, decodes and re-encodes one whole OpenFlow message the way openflowjava's pipeline does. */
    private byte[] roundTripMessage(final byte[] bytes) {
        final ByteBuf in = Unpooled.wrappedBuffer(bytes);
        // OFFrameDecoder: the length field delimits the message.
        if (bytes.length < OFP_HEADER_LENGTH || in.getUnsignedShort(2) != bytes.length) {
            throw new OkoDecodingException("frame length " + (bytes.length < 4 ? -1 : in.getUnsignedShort(2))
                + " does not match " + bytes.length + " bytes");
        }
        // OFVersionDetector
        assertEquals(OkoConstants.OF13.toJava(), in.readUnsignedByte());
        if (bytes[1] == OFPT_MULTIPART_REQUEST) {
            return roundTripMultipartRequest(in);
        }
        final DataObject decoded = provider.deserialization().deserialize(in, OkoConstants.OF13);
        if (decoded == null) {
            fail("no decoder for message type " + bytes[1]);
        }
        assertEquals(0, in.readableBytes(), "decoder left bytes unread");

        if (decoded instanceof ErrorMessage error) {
            return encodeError(error);
        }
        if (decoded instanceof MultipartReplyMessage reply) {
            return encodeMultipartReply(reply);
        }
        if (decoded instanceof ExperimenterMessage message) {
            // openflowjava encodes experimenter messages as ExperimenterInput (its ExperimenterMessage
            // serializer writes no body): the path every Oko message from the controller takes.
            return encode(new ExperimenterInputBuilder()
                .setVersion(message.getVersion())
                .setXid(message.getXid())
                .setExperimenter(message.getExperimenter())
                .setExpType(message.getExpType())
                .setExperimenterDataOfChoice(message.getExperimenterDataOfChoice())
                .build());
        }
        return encode(decoded);
    }

    /**
     * Oko multipart requests (DUMP_MAPS, PROG_STATS, REPLAY_MAPS): openflowjava decodes no experimenter multipart
     * request bodies (a controller never receives requests), so the body goes through the Oko codec here; encoding is
     * openflowjava's real MultipartRequestInput serializer, the path the controller sends with.
     */
    private byte[] roundTripMultipartRequest(final ByteBuf in) {
        in.skipBytes(1 + Short.BYTES);
        final long xid = in.readUnsignedInt();
        final int mpType = in.readUnsignedShort();
        final int mpFlags = in.readUnsignedShort();
        in.skipBytes(MULTIPART_PAD);
        if (mpType != OFPMP_EXPERIMENTER || in.readableBytes() < 2 * Integer.BYTES
                || in.readUnsignedInt() != OkoConstants.EXPERIMENTER_ID) {
            throw new OkoDecodingException("not an Oko multipart request");
        }
        final long expType = in.readUnsignedInt();
        final AbstractBodyCodec<?> codec = REQUEST_CODECS.get(expType);
        if (codec == null) {
            throw new OkoDecodingException("Oko multipart request with unknown exp_type " + expType);
        }
        final var body = codec.deserialize(in);
        return encode(new MultipartRequestInputBuilder()
            .setVersion(OkoConstants.OF13)
            .setXid(Uint32.valueOf(xid))
            .setType(MultipartType.OFPMPEXPERIMENTER)
            .setFlags(new MultipartRequestFlags((mpFlags & 1) != 0))
            .setMultipartRequestBody(new MultipartRequestExperimenterCaseBuilder()
                .setMultipartRequestExperimenter(new MultipartRequestExperimenterBuilder()
                    .setExperimenter(new ExperimenterId(OkoConstants.EXPERIMENTER_ID_UINT32))
                    .setExpType(Uint32.valueOf(expType))
                    .setExperimenterDataOfChoice(body)
                    .build())
                .build())
            .build());
    }

    /** Switches send Oko replies; openflowjava writes no experimenter reply body, so the codec does. */
    private static byte[] encodeMultipartReply(final MultipartReplyMessage reply) {
        final var experimenter = ((MultipartReplyExperimenterCase) reply.getMultipartReplyBody())
            .getMultipartReplyExperimenter();
        final ByteBuf out = Unpooled.buffer();
        out.writeByte(OkoConstants.OF13.toJava());
        out.writeByte(OFPT_MULTIPART_REPLY);
        out.writeShort(0);
        out.writeInt(reply.getXid().intValue());
        out.writeShort(OFPMP_EXPERIMENTER);
        out.writeShort(reply.getFlags().getOFPMPFREQMORE() ? 1 : 0);
        out.writeZero(MULTIPART_PAD);
        out.writeInt(experimenter.getExperimenter().getValue().intValue());
        out.writeInt(experimenter.getExpType().intValue());
        REPLY_CODECS.get(experimenter.getExpType().toJava()).serialize(experimenter.getExperimenterDataOfChoice(), out);
        out.setShort(2, out.writerIndex());
        return ByteBufUtil.getBytes(out);
    }

    private byte[] encode(final DataObject message) {
        final ByteBuf out = Unpooled.buffer();
        provider.serialization().messageToBuffer(OkoConstants.OF13, out, message);
        return ByteBufUtil.getBytes(out);
    }

    /** openflowjava encodes no experimenter errors (switches do): write the header, the codec the rest. */
    private static byte[] encodeError(final ErrorMessage error) {
        final ByteBuf out = Unpooled.buffer();
        out.writeByte(OkoConstants.OF13.toJava());
        out.writeByte(OFPT_ERROR);
        out.writeShort(0);
        out.writeInt(error.getXid().intValue());
        new OkoErrorCodec().serialize(error, out);
        out.setShort(2, out.writerIndex());
        return ByteBufUtil.getBytes(out);
    }

    /** Decodes one structure with a codec that must consume exactly its bytes, and encodes it again. */
    private static <T extends DataContainer, C extends OFDeserializer<T> & OFSerializer<T>> byte[] roundTripStructure(
            final C codec, final byte[] bytes, final String what) {
        final ByteBuf in = Unpooled.wrappedBuffer(bytes);
        final T decoded = codec.deserialize(in);
        if (in.readableBytes() != 0) {
            throw new OkoDecodingException(in.readableBytes() + " bytes after the " + what);
        }
        final ByteBuf out = Unpooled.buffer();
        codec.serialize(decoded, out);
        return ByteBufUtil.getBytes(out);
    }

    private static String hex(final byte[] bytes) {
        return HexFormat.ofDelimiter(" ").formatHex(bytes);
    }
}
