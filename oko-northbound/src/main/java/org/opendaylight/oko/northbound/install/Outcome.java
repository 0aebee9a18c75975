/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static java.util.Objects.requireNonNull;

import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.InstallStatus;

/** What became of an installation: its status and the text that explains it (empty when installed). */
public record Outcome(InstallStatus status, String message) {
    public Outcome {
        requireNonNull(status);
        requireNonNull(message);
    }

    public static Outcome installed() {
        return new Outcome(InstallStatus.Installed, "");
    }

    public boolean isInstalled() {
        return status == InstallStatus.Installed;
    }
}
