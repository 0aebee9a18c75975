/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.yangtools.yang.common.ErrorTag;
import org.opendaylight.yangtools.yang.common.ErrorType;
import org.opendaylight.yangtools.yang.common.RpcResult;
import org.opendaylight.yangtools.yang.common.RpcResultBuilder;

/** An RPC's result from a switch's answer. */
final class SwitchCalls {
    private SwitchCalls() {
    }

    /**
     * The RPC's result once the switch answered: {@code output} of the answer, or operation-failed with the
     * switch's own text (a {@link SwitchException}) or the node and the failure.
     */
    static <T, O> ListenableFuture<RpcResult<O>> result(final ListenableFuture<T> call, final Function<T, O> output,
            final String node) {
        return FluentFuture.from(call)
            .transform(answer -> RpcResultBuilder.success(output.apply(answer)).build(),
                MoreExecutors.directExecutor())
            .catching(Exception.class, failure -> {
                final Throwable cause = failure instanceof ExecutionException ? failure.getCause() : failure;
                final String message = cause instanceof SwitchException ? cause.getMessage() : node + ": " + cause;
                return RpcResultBuilder.<O>failed().withError(ErrorType.APPLICATION, ErrorTag.OPERATION_FAILED,
                    message).build();
            }, MoreExecutors.directExecutor());
    }
}
