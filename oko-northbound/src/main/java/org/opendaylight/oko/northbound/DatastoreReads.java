/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound;

import com.google.common.util.concurrent.ListenableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting for a datastore read with a deadline, one failure type for callers to translate. */
public final class DatastoreReads {
    private DatastoreReads() {
        // static helpers only
    }

    /**
     * The read's result.
     *
     * @throws IllegalStateException saying what could not be read (interrupted, failed or too slow); an
     *     interruption is kept in the thread's flag
     */
    public static <T> T await(final ListenableFuture<T> read, final long timeoutMillis, final String what) {
        try {
            return read.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reading " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read " + what + ": " + e.getMessage(), e);
        }
    }
}
