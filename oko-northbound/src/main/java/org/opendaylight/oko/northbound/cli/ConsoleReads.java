/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.cli;

import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yangtools.binding.ChildOf;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataRoot;

/** The console commands' reads: one top-level container of the oko module, waited for at most 30 s. */
final class ConsoleReads {
    private static final long TIMEOUT_SECONDS = 30;

    private ConsoleReads() {
        // static only
    }

    static <T extends ChildOf<? extends DataRoot<?>>> Optional<T> read(final DataBroker broker,
            final LogicalDatastoreType store, final Class<T> container)
            throws InterruptedException, ExecutionException, TimeoutException {
        try (var tx = broker.newReadOnlyTransaction()) {
            return tx.read(store, DataObjectIdentifier.builder(container).build()).get(TIMEOUT_SECONDS,
                TimeUnit.SECONDS);
        }
    }
}
