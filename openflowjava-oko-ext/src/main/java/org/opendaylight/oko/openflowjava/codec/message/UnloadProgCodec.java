/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_UNLOAD_PROG;
import static org.opendaylight.oko.openflowjava.OkoConstants.UNLOAD_FORCE;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoUnloadProgCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoUnloadProgCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.unload.prog._case.OkoUnloadProgBuilder;

/**
 * UNLOAD_PROG (docs/protocol.md section 4.2): prog_id and flags.
 */
public final class UnloadProgCodec extends AbstractBodyCodec<OkoUnloadProgCase> {
    public UnloadProgCodec() {
        super(OkoUnloadProgCase.class, EXP_TYPE_UNLOAD_PROG, "UNLOAD_PROG");
    }

    @Override
    protected void serializeBody(final OkoUnloadProgCase input, final ByteBuf out) {
        final var prog = input.getOkoUnloadProg();
        Fields.writeProgId(prog.requireProgId(), out);
        out.writeShort(Fields.isSet(prog.getForce()) ? UNLOAD_FORCE : 0);
        out.writeShort(0);
    }

    @Override
    protected OkoUnloadProgCase deserializeBody(final WireReader in) {
        final var progId = Fields.readProgId(in);
        final int flags = in.u16("flags");
        if ((flags & ~UNLOAD_FORCE) != 0) {
            throw in.error(String.format("undefined flags 0x%04x", flags));
        }
        in.reserved(2, "field at offset 22");
        return new OkoUnloadProgCaseBuilder()
            .setOkoUnloadProg(new OkoUnloadProgBuilder()
                .setProgId(progId)
                .setForce((flags & UNLOAD_FORCE) != 0)
                .build())
            .build();
    }
}
