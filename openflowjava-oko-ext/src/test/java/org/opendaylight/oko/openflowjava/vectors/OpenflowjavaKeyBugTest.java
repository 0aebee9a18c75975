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

import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.openflowjava.OkoConstants;
import org.opendaylight.oko.openflowjava.registration.OkoCodecRegistrar;
import org.opendaylight.openflowjava.protocol.api.keys.MessageCodeKey;
import org.opendaylight.openflowjava.protocol.impl.deserialization.factories.ExperimenterMessageFactory;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoLoadProgCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.ExperimenterMessage;

/**
 * Why the Oko decoders exist: openflowjava 0.20's own experimenter factory cannot find a codec registered for
 * experimenter id 0x4F4B4F00 when the id comes from the wire. If openflowjava fixes this, the first test fails and
 * the decoders can go.
 */
class OpenflowjavaKeyBugTest {
    private static final int OFPT_EXPERIMENTER = 4;

    private final RegistryBackedProvider provider = new RegistryBackedProvider();
    private final byte[] loadProg = ProtocolVector.read(ProtocolVector.DIRECTORY.resolve(Path.of("load_prog.hex")))
        .bytes();

    OpenflowjavaKeyBugTest() {
        new OkoCodecRegistrar().register(provider);
    }

    @Test
    void openflowjavasOwnFactoryMissesTheRegisteredCodec() {
        provider.registerDeserializer(new MessageCodeKey(OkoConstants.OF13, OFPT_EXPERIMENTER,
            ExperimenterMessage.class), new ExperimenterMessageFactory());
        final var error = assertThrows(IllegalStateException.class, this::decode);
        assertEquals(true, error.getMessage().contains("not found"), error.getMessage());
    }

    @Test
    void okoDecoderFindsIt() {
        final var message = assertInstanceOf(ExperimenterMessage.class, decode());
        final var body = assertInstanceOf(OkoLoadProgCase.class, message.getExperimenterDataOfChoice());
        assertEquals(7, body.getOkoLoadProg().getProgId().getValue().intValue());
    }

    private Object decode() {
        final var in = Unpooled.wrappedBuffer(loadProg);
        in.skipBytes(1);
        return provider.deserialization().deserialize(in, OkoConstants.OF13);
    }
}
