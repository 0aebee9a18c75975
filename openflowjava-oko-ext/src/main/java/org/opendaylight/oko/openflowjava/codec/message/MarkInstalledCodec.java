/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec.message;

import static org.opendaylight.oko.openflowjava.OkoConstants.EXP_TYPE_MARK_INSTALLED;
import static org.opendaylight.oko.openflowjava.OkoConstants.INSTALL_MARK_LENGTH;

import io.netty.buffer.ByteBuf;
import org.opendaylight.oko.openflowjava.codec.WireReader;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoMarkInstalledCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoMarkInstalledCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.mark.installed._case.OkoMarkInstalledBuilder;

/**
 * MARK_INSTALLED (docs/protocol.md section 4.4, version 1.4): prog_id, reserved, the 32-byte install mark (never all
 * zero: that means "not installed").
 */
public final class MarkInstalledCodec extends AbstractBodyCodec<OkoMarkInstalledCase> {
    public MarkInstalledCodec() {
        super(OkoMarkInstalledCase.class, EXP_TYPE_MARK_INSTALLED, "MARK_INSTALLED");
    }

    @Override
    protected void serializeBody(final OkoMarkInstalledCase input, final ByteBuf out) {
        final var mark = input.getOkoMarkInstalled();
        final byte[] installMark = mark.requireInstallMark();
        if (installMark.length != INSTALL_MARK_LENGTH || allZero(installMark)) {
            throw new IllegalArgumentException("MARK_INSTALLED: the install mark must be " + INSTALL_MARK_LENGTH
                + " bytes, not all zero");
        }
        Fields.writeProgId(mark.requireProgId(), out);
        out.writeInt(0);
        out.writeBytes(installMark);
    }

    @Override
    protected OkoMarkInstalledCase deserializeBody(final WireReader in) {
        final var progId = Fields.readProgId(in);
        in.reserved(4, "field at offset 20");
        final byte[] installMark = in.bytes(INSTALL_MARK_LENGTH, "install_mark");
        if (allZero(installMark)) {
            throw in.error("the install mark is all zero (which means 'not installed')");
        }
        return new OkoMarkInstalledCaseBuilder()
            .setOkoMarkInstalled(new OkoMarkInstalledBuilder().setProgId(progId).setInstallMark(installMark).build())
            .build();
    }

    private static boolean allZero(final byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
