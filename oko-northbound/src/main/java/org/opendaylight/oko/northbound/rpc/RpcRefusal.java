/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.ListenableFuture;
import org.opendaylight.yangtools.yang.common.ErrorTag;
import org.opendaylight.yangtools.yang.common.ErrorType;
import org.opendaylight.yangtools.yang.common.RpcResult;
import org.opendaylight.yangtools.yang.common.RpcResultBuilder;

/**
 * Why an RPC refuses its input before anything is sent to a switch: the error tag and the message the caller
 * reads (naming the field, or the switch and why it cannot be reached from this member).
 */
final class RpcRefusal extends Exception {
    private static final long serialVersionUID = 1L;

    private final ErrorTag tag;

    RpcRefusal(final ErrorTag tag, final String message) {
        super(message);
        this.tag = requireNonNull(tag);
    }

    RpcRefusal(final ErrorTag tag, final String message, final Throwable cause) {
        super(message, cause);
        this.tag = requireNonNull(tag);
    }

    /** The RPC's failed result: a protocol error with this refusal's tag and message. */
    <O> ListenableFuture<RpcResult<O>> result() {
        return RpcResultBuilder.<O>failed().withError(ErrorType.PROTOCOL, tag, getMessage()).buildFuture();
    }
}
