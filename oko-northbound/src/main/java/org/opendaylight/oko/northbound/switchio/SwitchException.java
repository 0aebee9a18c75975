/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.switchio;

/**
 * A switch refused an Oko message, or did not answer. {@link #getMessage()} is the text for an operator: the
 * switch's Oko error name and text when it sent one ("OKO_EC_VERIFIER: instruction 3: ...").
 */
public final class SwitchException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why the message did not go through. */
    public enum Kind {
        /** The switch answered with an error (its text is the message). */
        REFUSED,
        /** This controller instance has no connection to the switch. */
        NOT_CONNECTED,
        /** The switch did not answer, or the request failed on the way. */
        NO_ANSWER
    }

    private final Kind kind;

    public SwitchException(final String message, final Kind kind) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
