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

    private final boolean refusedBySwitch;

    public SwitchException(final String message, final boolean refusedBySwitch) {
        super(message);
        this.refusedBySwitch = refusedBySwitch;
    }

    /** True when the switch answered with an error; false when it could not be reached or did not answer. */
    public boolean refusedBySwitch() {
        return refusedBySwitch;
    }
}
