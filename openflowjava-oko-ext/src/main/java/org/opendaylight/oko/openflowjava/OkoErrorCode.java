/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava;

/**
 * Oko's experimenter error codes (docs/protocol.md section 7).
 */
public enum OkoErrorCode {
    BAD_MESSAGE(1),
    BAD_FLAGS(2),
    BAD_PROG_ID(3),
    PROG_EXISTS(4),
    UNKNOWN_PROG(5),
    PROG_IN_USE(6),
    BAD_ELF(7),
    VERIFIER_REJECTED(8),
    RESOURCES(9),
    BAD_MAP_INDEX(10),
    BAD_MAP_SIZES(11),
    MAP_FULL(12),
    BAD_KEY(13),
    UNSUPPORTED(14),
    NO_FILTER_FOR_ACTION(15);

    private final int code;

    OkoErrorCode(final int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The name used in logs and in the error's code string, e.g. {@code OKO_EC_VERIFIER_REJECTED}. */
    public String wireName() {
        return "OKO_EC_" + name();
    }

    /**
     * The error code with this number.
     *
     * @param code exp_code from the wire
     * @return the code, or null if Oko defines none with this number
     */
    public static OkoErrorCode forCode(final int code) {
        for (OkoErrorCode value : values()) {
            if (value.code == code) {
                return value;
            }
        }
        return null;
    }
}
