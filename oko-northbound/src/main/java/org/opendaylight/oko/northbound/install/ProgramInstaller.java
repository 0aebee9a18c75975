/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ExecutionException;
import org.opendaylight.oko.northbound.program.ResolvedProgram;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.InstallStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs a resolved program on a switch: LOAD_PROG, then the parameter and initial map writes. A program whose
 * writes the switch refuses is unloaded again, so that a switch never keeps half a configuration. Records every
 * outcome in the operational datastore and in {@link LoadedPrograms}.
 */
public final class ProgramInstaller {
    private static final Logger LOG = LoggerFactory.getLogger(ProgramInstaller.class);

    private final SwitchClient client;
    private final LoadedPrograms loaded;
    private final OperationalState state;
    private final SwitchEvents events;

    public ProgramInstaller(final SwitchClient client, final LoadedPrograms loaded, final OperationalState state,
            final SwitchEvents events) {
        this.client = requireNonNull(client);
        this.loaded = requireNonNull(loaded);
        this.state = requireNonNull(state);
        this.events = requireNonNull(events);
    }

    /**
     * Installs a program; the future never fails, its outcome says what happened.
     *
     * @param replace replace a program loaded under the same id
     * @param keepMaps with replace, keep the old program's map contents where the maps match
     */
    public ListenableFuture<Outcome> install(final String node, final long progId, final ResolvedProgram program,
            final LoadedPrograms.Origin origin, final boolean replace, final boolean keepMaps) {
        // A refused LOAD_PROG changes nothing on the switch (docs/protocol.md 4.1): while a program is loaded under
        // this id, LoadedPrograms keeps it unless the new one gets in.
        final boolean replacing = loaded.get(node, progId).isPresent();
        if (!replacing) {
            state.programStatus(node, progId, program.name(), program.image().sha256(),
                new Outcome(InstallStatus.Pending, "loading"));
        }
        final var load = FluentFuture.from(client.loadProgram(node, progId, program.elf(), replace, keepMaps));
        final ListenableFuture<Outcome> outcomeFuture = load
            .transformAsync(ignored -> Futures.transform(Futures.transformAsync(
                writeInitialEntries(node, progId, program, 0), outcome -> markInstalled(node, progId, program, outcome),
                MoreExecutors.directExecutor()),
                outcome -> record(node, progId, program, origin, outcome), MoreExecutors.directExecutor()),
                MoreExecutors.directExecutor())
            .catching(Throwable.class, cause -> {
                final Outcome outcome = failedLoad(node, cause);
                LOG.warn("{}: program {} '{}' {}: {}", node, progId, program.name(), outcome.status().getName(),
                    outcome.message());
                if (!replacing) {
                    state.programStatus(node, progId, program.name(), program.image().sha256(), outcome);
                } else if (origin == LoadedPrograms.Origin.CONFIG) {
                    // The configuration wants this program; the switch refused it and runs the one before.
                    state.programStatus(node, progId, program.name(), program.image().sha256(), new Outcome(
                        outcome.status(), outcome.message() + "; the switch still runs the program loaded before"));
                }
                return outcome;
            }, MoreExecutors.directExecutor());
        return outcomeFuture;
    }

    /** After LOAD_PROG went through: the outcome of the map writes (installed, or failed and unloaded). */
    private Outcome record(final String node, final long progId, final ResolvedProgram program,
            final LoadedPrograms.Origin origin, final Outcome outcome) {
        if (outcome.isInstalled()) {
            loaded.put(node, progId, new LoadedPrograms.Loaded(program, origin, fingerprint(program)));
            LOG.info("{}: program {} '{}' installed ({} instructions, {} maps, {} map writes)", node, progId,
                program.name(), program.image().instructions(), program.image().maps().size(),
                program.initialWrites().size());
            events.programInstalled(node, progId);
        } else {
            loaded.remove(node, progId);
            LOG.warn("{}: program {} '{}' {}: {}", node, progId, program.name(), outcome.status().getName(),
                outcome.message());
        }
        state.programStatus(node, progId, program.name(), program.image().sha256(), outcome,
            outcome.isInstalled() ? fingerprint(program) : null);
        return outcome;
    }

    /**
     * Once LOAD_PROG and every map write went through: MARK_INSTALLED with the install's fingerprint, which the switch
     * keeps until the program is loaded again (docs/protocol.md 4.4). A controller that takes the switch over adopts
     * the program only with that mark (SwitchSync): an install cut short between LOAD_PROG and its last UPDATE_MAP has
     * none. The program runs complete even when the mark is not recorded (a switch older than protocol 1.4, a
     * connection lost just now): it is installed, and a controller taking over loads it again.
     */
    private ListenableFuture<Outcome> markInstalled(final String node, final long progId,
            final ResolvedProgram program, final Outcome outcome) {
        if (!outcome.isInstalled()) {
            return Futures.immediateFuture(outcome);
        }
        return Futures.catching(Futures.transform(
            client.markInstalled(node, progId, HexFormat.of().parseHex(fingerprint(program))), ignored -> outcome,
            MoreExecutors.directExecutor()), Throwable.class, failure -> {
                LOG.warn("{}: program {} '{}' is installed, but the switch did not record it so ({}): a controller "
                    + "that takes the switch over will load it again", node, progId, program.name(),
                    failure.getMessage());
                return outcome;
            }, MoreExecutors.directExecutor());
    }

    private ListenableFuture<Outcome> writeInitialEntries(final String node, final long progId,
            final ResolvedProgram program, final int next) {
        if (next == program.initialWrites().size()) {
            return Futures.immediateFuture(Outcome.installed());
        }
        final ResolvedProgram.MapWrite write = program.initialWrites().get(next);
        return FluentFuture.from(client.updateMap(node, progId, write.mapIndex(), write.keySize(), write.valueSize(),
                write.entries()))
            .transformAsync(ignored -> writeInitialEntries(node, progId, program, next + 1),
                MoreExecutors.directExecutor())
            .catchingAsync(SwitchException.class, cause -> {
                // Never leave the program without its parameters: take it off the switch again.
                final Outcome outcome = new Outcome(InstallStatus.Failed, "initial entries of map '"
                    + write.mapName() + "' refused: " + cause.getMessage() + "; the program was unloaded");
                return Futures.catching(Futures.transform(client.unloadProgram(node, progId, true), i -> {
                    events.programUnloaded(node, progId, true);
                    return outcome;
                }, MoreExecutors.directExecutor()), Throwable.class, unloadFailure -> new Outcome(
                        InstallStatus.Failed, outcome.message().replace("; the program was unloaded",
                            "; unloading it failed too: " + unloadFailure.getMessage())),
                    MoreExecutors.directExecutor());
            }, MoreExecutors.directExecutor());
    }

    private static Outcome failedLoad(final String node, final Throwable failure) {
        final Throwable cause = failure instanceof ExecutionException ? failure.getCause() : failure;
        if (cause instanceof SwitchException switchError) {
            final InstallStatus status = switch (switchError.kind()) {
                case REFUSED -> InstallStatus.Rejected;
                case NOT_CONNECTED -> InstallStatus.SwitchDisconnected;
                case NO_ANSWER -> InstallStatus.Failed;
            };
            return new Outcome(status, switchError.getMessage());
        }
        LOG.warn("{}: loading a program failed unexpectedly", node, cause);
        return new Outcome(InstallStatus.Failed, String.valueOf(cause.getMessage()));
    }

    /** Unloads a program; the future fails with a {@link SwitchException} the switch's text. */
    public ListenableFuture<Void> uninstall(final String node, final long progId, final boolean force) {
        return Futures.transform(client.unloadProgram(node, progId, force), ignored -> {
            loaded.remove(node, progId);
            events.programUnloaded(node, progId, force);
            state.removeProgram(node, progId);
            LOG.info("{}: program {} unloaded", node, progId);
            return null;
        }, MoreExecutors.directExecutor());
    }

    /** What identifies an installation: the ELF and every map write that follows it. */
    public static String fingerprint(final ResolvedProgram program) {
        try {
            final MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(program.elf());
            for (ResolvedProgram.MapWrite write : program.initialWrites()) {
                digest.update(ByteBuffer.allocate(12).putInt(write.mapIndex()).putInt(write.keySize())
                    .putInt(write.valueSize()).array());
                for (SwitchClient.Entry entry : write.entries()) {
                    digest.update(entry.key());
                    digest.update(entry.value());
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
