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
import static org.opendaylight.oko.openflowjava.OkoConstants.OFPET_EXPERIMENTER;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.OkoDecodingException;
import org.opendaylight.oko.openflowjava.codec.error.OkoErrorCodec;
import org.opendaylight.openflowjava.protocol.api.extensibility.DeserializerRegistry;
import org.opendaylight.openflowjava.protocol.api.extensibility.DeserializerRegistryInjector;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.impl.deserialization.factories.ErrorMessageFactory;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ErrorMessage;

/**
 * Decoder of OFPT_ERROR (type 1) messages: Oko's experimenter errors go to {@link OkoErrorCodec}, every other
 * error to openflowjava's ErrorMessageFactory.
 */
public final class ErrorMessageDecoder implements OFDeserializer<ErrorMessage>, DeserializerRegistryInjector {
    // xid (4), type (2), exp_code (2), then the experimenter id
    private static final int TYPE_OFFSET = 4;
    private static final int EXPERIMENTER_OFFSET = 8;

    private final OkoErrorCodec okoErrors;
    private final ErrorMessageFactory others = new ErrorMessageFactory();

    public ErrorMessageDecoder(final OkoErrorCodec okoErrors) {
        this.okoErrors = requireNonNull(okoErrors);
    }

    @Override
    public void injectDeserializerRegistry(final DeserializerRegistry registry) {
        others.injectDeserializerRegistry(requireNonNull(registry));
    }

    @Override
    public ErrorMessage deserialize(final ByteBuf message) {
        final int start = message.readerIndex();
        if (message.readableBytes() >= TYPE_OFFSET + Short.BYTES
                && message.getUnsignedShort(start + TYPE_OFFSET) == OFPET_EXPERIMENTER) {
            // openflowjava would read the experimenter id past the end of a truncated error.
            if (message.readableBytes() < EXPERIMENTER_OFFSET + Integer.BYTES) {
                throw new OkoDecodingException("experimenter error of " + message.readableBytes()
                    + " bytes after the header is too short for its experimenter id");
            }
            if (message.getUnsignedInt(start + EXPERIMENTER_OFFSET) == EXPERIMENTER_ID) {
                return okoErrors.deserialize(message);
            }
        }
        return others.deserialize(message);
    }
}
