/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava;

import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * Version-independent constants of the Oko OpenFlow protocol, version 1 (docs/protocol.md). Every number that
 * appears on the wire is named here and nowhere else.
 */
public final class OkoConstants {
    /** Experimenter ID of every Oko message, OXM, action and error: "OKO\0". */
    public static final long EXPERIMENTER_ID = 0x4F4B4F00L;

    /**
     * The experimenter ID as one shared {@link Uint32} instance. openflowjava 0.20 compares experimenter ids in its
     * registry keys by reference, so registration and lookup must use this same object.
     */
    public static final Uint32 EXPERIMENTER_ID_UINT32 = Uint32.valueOf(EXPERIMENTER_ID).intern();

    /** OpenFlow 1.3, the version the codecs are registered for. */
    public static final Uint8 OF13 = Uint8.valueOf(4);
    /** OpenFlow 1.3's error type of experimenter errors (every Oko error). */
    public static final int OFPET_EXPERIMENTER = 0xFFFF;
    /** OpenFlow 1.3's multipart type of experimenter multiparts (DUMP_MAPS, PROG_STATS, REPLAY_MAPS). */
    public static final int OFPMP_EXPERIMENTER = 0xFFFF;

    // Message exp_types (section 3).
    public static final int EXP_TYPE_LOAD_PROG = 1;
    public static final int EXP_TYPE_UNLOAD_PROG = 2;
    public static final int EXP_TYPE_UPDATE_MAP = 3;
    public static final int EXP_TYPE_DELETE_MAP_ENTRIES = 4;
    public static final int EXP_TYPE_SEND_MAPS = 5;
    public static final int EXP_TYPE_DUMP_MAPS = 6;
    /** Version 1.1 (section 4.3). */
    public static final int EXP_TYPE_PROG_STATS = 7;
    /** Version 1.3 (section 5.7). */
    public static final int EXP_TYPE_REPLAY_MAPS = 8;
    /** Version 1.4 (section 4.4). */
    public static final int EXP_TYPE_MARK_INSTALLED = 9;

    // Flags.
    public static final int LOAD_REPLACE = 0x0001;
    public static final int LOAD_KEEP_MAPS = 0x0002;
    public static final int UNLOAD_FORCE = 0x0001;
    public static final int DELETE_ALL = 0x01;
    public static final int SECTION_CONTINUES = 0x01;
    public static final int SEND_MAPS_LAST = 0x01;
    public static final int PROG_STATS_JIT = 0x01;
    public static final int REPLAY_ALL = 0x0001;

    // Limits (section 2).
    public static final int MAX_MAPS = 64;
    public static final int MAX_MAP_INDEX = MAX_MAPS - 1;
    public static final int MAX_ELF_LENGTH = 65503;
    public static final int MAX_ERROR_TEXT = 1024;

    // Fixed lengths.
    public static final int EXPERIMENTER_HEADER_LENGTH = 16;
    public static final int LOAD_PROG_HEADER_LENGTH = 32;
    public static final int UNLOAD_PROG_LENGTH = 24;
    public static final int MAP_MESSAGE_HEADER_LENGTH = 32;
    public static final int SEND_MAPS_HEADER_LENGTH = 48;
    public static final int MAP_SECTION_HEADER_LENGTH = 16;
    public static final int DUMP_MAPS_REQUEST_BODY_LENGTH = 16;
    public static final int DUMP_MAPS_REPLY_BODY_HEADER_LENGTH = 8;
    public static final int PROG_STATS_RECORD_LENGTH = 72;
    /** Version 1.2: the SHA-256 of the program's ELF object ends its record, after the map records. */
    public static final int ELF_SHA256_LENGTH = 32;
    /** Version 1.4: the program's install mark (MARK_INSTALLED, section 4.4) follows the SHA-256. */
    public static final int INSTALL_MARK_LENGTH = 32;
    public static final int MAP_STATS_RECORD_LENGTH = 32;

    // filter_prog OXM (section 6.1).
    public static final int OXM_FIELD_FILTER_PROG = 1;
    public static final int OXM_FILTER_PROG_LENGTH = 8;

    // SEND_MAPS action (section 6.2).
    public static final int ACTION_SUBTYPE_SEND_MAPS = 1;
    public static final int ACTION_SEND_MAPS_LENGTH = 24;

    private OkoConstants() {
        // constants only
    }
}
