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
import org.opendaylight.oko.northbound.install.ProgramInstaller;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UnloadProgram;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UnloadProgramInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UnloadProgramOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.UnloadProgramOutputBuilder;
import org.opendaylight.yangtools.yang.common.RpcResult;

/**
 * unload-program: takes a program off one switch. The switch refuses while flows use it, unless force is set
 * (then it deletes those flows too).
 */
final class UnloadProgramImpl implements UnloadProgram {
    private final RpcTargets targets;
    private final ProgramInstaller installer;

    UnloadProgramImpl(final RpcTargets targets, final ProgramInstaller installer) {
        this.targets = requireNonNull(targets);
        this.installer = requireNonNull(installer);
    }

    @Override
    public ListenableFuture<RpcResult<UnloadProgramOutput>> invoke(final UnloadProgramInput input) {
        try {
            final String node = targets.connectedNode(input.getNode());
            final long progId = RpcTargets.requireProgId(input.getProgramId());
            return SwitchCalls.result(installer.uninstall(node, progId, Boolean.TRUE.equals(input.getForce())),
                ignored -> new UnloadProgramOutputBuilder().build(), node);
        } catch (RpcRefusal e) {
            return e.result();
        }
    }
}
