/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.program;

/**
 * A filter program's ELF object that no switch would load, with the reason in words a filter author understands.
 */
public final class InvalidProgramException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidProgramException(final String message) {
        super(message);
    }

    public InvalidProgramException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
