/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.cli;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.opendaylight.yangtools.yang.common.RpcResult;

/** Waiting for an RPC from a console command, and its errors as one line. */
final class RpcCalls {
    private static final long TIMEOUT_SECONDS = 120;

    private RpcCalls() {
        // static helpers only
    }

    /** The RPC's output, or an exception whose message is the RPC's error messages. */
    static <T> T await(final com.google.common.util.concurrent.ListenableFuture<RpcResult<T>> call)
            throws CommandFailedException {
        final RpcResult<T> result;
        try {
            result = call.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new CommandFailedException(String.valueOf(e.getCause() != null ? e.getCause() : e), e);
        }
        if (!result.isSuccessful()) {
            throw new CommandFailedException(result.getErrors().stream().map(e -> e.getMessage())
                .collect(Collectors.joining("; ")), null);
        }
        return result.getResult();
    }

    /** A console command that could not be carried out; the message is for the operator. */
    static final class CommandFailedException extends Exception {
        private static final long serialVersionUID = 1L;

        CommandFailedException(final String message, final Throwable cause) {
            super(message, cause);
        }
    }
}
