/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.Outcome;
import org.opendaylight.oko.northbound.install.ProgramInstaller;
import org.opendaylight.oko.northbound.program.InvalidProgramException;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.oko.northbound.program.ResolvedProgram;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgram;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.load.program.input.what.Configured;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.load.program.input.what.Inline;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.ErrorTag;
import org.opendaylight.yangtools.yang.common.ErrorType;
import org.opendaylight.yangtools.yang.common.RpcResult;
import org.opendaylight.yangtools.yang.common.RpcResultBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * load-program: a program from /programs, an inline ELF object or a library filter, checked here (an ELF object,
 * parameters that fit its maps) and then loaded on one switch. Status "installed" with the verifier's instruction
 * count, or the switch's refusal (a verifier rejection with its instruction index and reason).
 */
final class LoadProgramImpl implements LoadProgram {
    private final RpcTargets targets;
    private final ProgramResolver resolver;
    private final ProgramInstaller installer;

    LoadProgramImpl(final RpcTargets targets, final ProgramResolver resolver, final ProgramInstaller installer) {
        this.targets = requireNonNull(targets);
        this.resolver = requireNonNull(resolver);
        this.installer = requireNonNull(installer);
    }

    @Override
    public ListenableFuture<RpcResult<LoadProgramOutput>> invoke(final LoadProgramInput input) {
        final String node;
        final long progId;
        final ResolvedProgram program;
        try {
            node = targets.connectedNode(input.getNode());
            progId = RpcTargets.requireProgId(input.getProgramId());
            program = resolve(input);
        } catch (RpcRefusal e) {
            return e.result();
        }
        return Futures.transform(installer.install(node, progId, program, LoadedPrograms.Origin.RPC,
                Boolean.TRUE.equals(input.getReplace()), Boolean.TRUE.equals(input.getKeepMaps())),
            outcome -> outcome.isInstalled()
                ? RpcResultBuilder.success(new LoadProgramOutputBuilder()
                    .setStatus(outcome.status())
                    .setMessage("")
                    .setInstructions(Uint32.valueOf(program.image().instructions()))
                    .build()).build()
                : RpcResultBuilder.<LoadProgramOutput>failed().withError(ErrorType.APPLICATION,
                    ErrorTag.OPERATION_FAILED, describe(node, progId, outcome)).build(),
            MoreExecutors.directExecutor());
    }

    private static String describe(final String node, final long progId, final Outcome outcome) {
        return switch (outcome.status()) {
            case Rejected -> node + " rejected program " + progId + ": " + outcome.message();
            default -> "program " + progId + " on " + node + ": " + outcome.message();
        };
    }

    private ResolvedProgram resolve(final LoadProgramInput input) throws RpcRefusal {
        try {
            if (input.getWhat() instanceof Configured configured && configured.getProgram() != null) {
                final String name = configured.getProgram().getValue();
                final Program program = targets.read(LogicalDatastoreType.CONFIGURATION, DataObjectIdentifier
                    .builder(Programs.class).child(Program.class, new ProgramKey(new ProgramName(name))).build())
                    .orElseThrow(() -> new RpcRefusal(ErrorTag.INVALID_VALUE, "program: '" + name
                        + "' is not configured under /programs"));
                return resolver.resolve(name, program.getSource(), program);
            }
            if (input.getWhat() instanceof Inline inline && inline.getSource() != null) {
                return resolver.resolve("inline", inline.getSource(), null);
            }
        } catch (InvalidProgramException e) {
            throw new RpcRefusal(ErrorTag.INVALID_VALUE, e.getMessage(), e);
        }
        throw new RpcRefusal(ErrorTag.INVALID_VALUE, "one of program, elf or library-filter is required");
    }
}
