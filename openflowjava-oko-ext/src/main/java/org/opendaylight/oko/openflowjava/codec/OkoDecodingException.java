/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec;

/**
 * Bytes that do not follow docs/protocol.md. Thrown by every Oko decoder before it allocates anything sized by the
 * offending field; openflowjava's decoder logs it and drops the one message, never the connection.
 */
public final class OkoDecodingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public OkoDecodingException(final String message) {
        super(message);
    }
}
