/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_LOAD_PROG;
import static org.opendaylight.oko.openflowjava.OkoConstants.LOAD_KEEP_MAPS;
import static org.opendaylight.oko.openflowjava.OkoConstants.LOAD_REPLACE;
import static org.opendaylight.oko.openflowjava.OkoConstants.MAX_ELF_LENGTH;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoLoadProgCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoLoadProgCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.load.prog._case.OkoLoadProg;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.load.prog._case.OkoLoadProgBuilder;

/**
 * LOAD_PROG (docs/protocol.md section 4.1): prog_id, flags, elf_len, the ELF object.
 */
public final class LoadProgCodec extends AbstractBodyCodec<OkoLoadProgCase> {
    public LoadProgCodec() {
        super(OkoLoadProgCase.class, EXP_TYPE_LOAD_PROG, "LOAD_PROG");
    }

    @Override
    protected void serializeBody(final OkoLoadProgCase input, final ByteBuf out) {
        final OkoLoadProg prog = input.getOkoLoadProg();
        final byte[] elf = prog.requireElf();
        if (elf.length == 0 || elf.length > MAX_ELF_LENGTH) {
            throw new IllegalArgumentException("ELF object of " + elf.length + " bytes; allowed 1.." + MAX_ELF_LENGTH);
        }
        final boolean replace = Fields.isSet(prog.getReplace());
        final boolean keepMaps = Fields.isSet(prog.getKeepMaps());
        if (keepMaps && !replace) {
            throw new IllegalArgumentException("keep-maps requires replace");
        }
        Fields.writeProgId(prog.requireProgId(), out);
        out.writeShort((replace ? LOAD_REPLACE : 0) | (keepMaps ? LOAD_KEEP_MAPS : 0));
        out.writeShort(0);
        out.writeInt(elf.length);
        out.writeInt(0);
        out.writeBytes(elf);
    }

    @Override
    protected OkoLoadProgCase deserializeBody(final WireReader in) {
        final var progId = Fields.readProgId(in);
        final int flags = in.u16("flags");
        if ((flags & ~(LOAD_REPLACE | LOAD_KEEP_MAPS)) != 0) {
            throw in.error(String.format("undefined flags 0x%04x", flags));
        }
        if ((flags & LOAD_KEEP_MAPS) != 0 && (flags & LOAD_REPLACE) == 0) {
            throw in.error("OKO_LOAD_KEEP_MAPS without OKO_LOAD_REPLACE");
        }
        in.reserved(2, "field at offset 22");
        final long elfLength = in.u32("elf_len");
        in.reserved(4, "field at offset 28");
        if (elfLength == 0) {
            throw in.error("elf_len 0");
        }
        if (elfLength != in.remaining()) {
            throw in.error("elf_len " + elfLength + " but " + in.remaining() + " ELF bytes follow");
        }
        return new OkoLoadProgCaseBuilder()
            .setOkoLoadProg(new OkoLoadProgBuilder()
                .setProgId(progId)
                .setReplace((flags & LOAD_REPLACE) != 0)
                .setKeepMaps((flags & LOAD_KEEP_MAPS) != 0)
                .setElf(in.bytes(elfLength, "elf"))
                .build())
            .build();
    }
}
