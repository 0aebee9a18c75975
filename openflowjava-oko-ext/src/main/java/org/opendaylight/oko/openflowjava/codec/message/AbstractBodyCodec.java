/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFDeserializer;
import org.opendaylight.openflowjava.protocol.api.extensibility.OFSerializer;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.protocol.rev130731.experimenter.core.ExperimenterDataOfChoice;

/**
 * Codec of one Oko message body: the bytes after the experimenter header (experimenter id and exp_type), which
 * openflowjava's experimenter and multipart factories write and read themselves.
 *
 * @param <C> the experimenter-data case this codec handles
 */
public abstract class AbstractBodyCodec<C extends ExperimenterDataOfChoice>
        implements OFSerializer<ExperimenterDataOfChoice>, OFDeserializer<ExperimenterDataOfChoice> {
    private final Class<C> caseClass;
    private final int expType;
    private final String name;

    protected AbstractBodyCodec(final Class<C> caseClass, final int expType, final String name) {
        this.caseClass = requireNonNull(caseClass);
        this.expType = expType;
        this.name = requireNonNull(name);
    }

    /** The exp_type this codec is registered for. */
    public final int expType() {
        return expType;
    }

    /** The case class this codec serializes. */
    public final Class<C> caseClass() {
        return caseClass;
    }

    @Override
    public final void serialize(final ExperimenterDataOfChoice input, final ByteBuf outBuffer) {
        if (!caseClass.isInstance(input)) {
            throw new IllegalArgumentException(name + " codec cannot encode " + input);
        }
        serializeBody(caseClass.cast(input), outBuffer);
    }

    @Override
    public final ExperimenterDataOfChoice deserialize(final ByteBuf message) {
        final WireReader reader = new WireReader(message, name);
        final C result = deserializeBody(reader);
        reader.end();
        return result;
    }

    protected abstract void serializeBody(C input, ByteBuf out);

    protected abstract C deserializeBody(WireReader in);
}
