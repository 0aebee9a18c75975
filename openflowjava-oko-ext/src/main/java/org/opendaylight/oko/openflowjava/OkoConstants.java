/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava;

import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * Version-independent constants of the Oko OpenFlow extension (docs/protocol.md).
 */
public final class OkoConstants {
    /** Experimenter ID of every Oko message, OXM and action: "OKO\0". */
    public static final long EXPERIMENTER_ID = 0x4F4B4F00L;

    /**
     * The experimenter ID as one shared {@link Uint32} instance. openflowjava 0.20 compares experimenter ids in its
     * registry keys by reference, so registration and lookup must use this same object.
     */
    public static final Uint32 EXPERIMENTER_ID_UINT32 = Uint32.valueOf(EXPERIMENTER_ID).intern();

    private OkoConstants() {
        // constants only
    }
}
