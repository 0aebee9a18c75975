/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.opendaylight.yangtools.yang.common.Uint32;

class OkoConstantsTest {
    @Test
    void experimenterIdSpellsOko() {
        final byte[] wire = ByteBuffer.allocate(4).putInt((int) OkoConstants.EXPERIMENTER_ID).array();
        assertArrayEquals("OKO\0".getBytes(StandardCharsets.US_ASCII), wire);
    }

    @Test
    void internedIdIsSharedWithWireDecodedValues() {
        // A value decoded from the wire is a fresh object; interning must map it to our constant.
        final Uint32 decoded = Uint32.fromIntBits((int) OkoConstants.EXPERIMENTER_ID);
        assertSame(OkoConstants.EXPERIMENTER_ID_UINT32, decoded.intern());
    }
}
