/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.program;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.List;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.DataTreeModification;
import org.opendaylight.mdsal.binding.api.WriteTransaction;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.common.api.OptimisticLockFailedException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapIndex;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.MapName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.program.Info;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.program.InfoBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.program.info.MapBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mirrors /programs into the operational datastore with each program's info: whether the controller can load it
 * (and why not), its instructions, SHA-256 and maps. An operator sees a broken upload there before any switch.
 */
public final class ProgramInfoPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(ProgramInfoPublisher.class);
    private static final int PUBLISH_ATTEMPTS = 5;

    private final DataBroker broker;
    private final ProgramResolver resolver;

    public ProgramInfoPublisher(final DataBroker broker, final ProgramResolver resolver) {
        this.broker = requireNonNull(broker);
        this.resolver = requireNonNull(resolver);
    }

    /**
     * Publishes the info of the programs these configuration changes touched (and removes the removed ones), in
     * one write to the operational datastore. Reads nothing: what changed is in the changes, so the work does not
     * grow with the number of programs.
     */
    public void publish(final List<DataTreeModification<Program>> changes) {
        if (!changes.isEmpty()) {
            publish(changes, 1);
        }
    }

    /**
     * Every member of a cluster sees the change and publishes the same info at about the same moment: the writes
     * that lose the race fail with an optimistic lock failure and are made again (they write what is there).
     */
    private void publish(final List<DataTreeModification<Program>> changes, final int attempt) {
        final var tx = broker.newWriteOnlyTransaction();
        for (var change : changes) {
            write(tx, change.getRootNode().dataBefore(), change.getRootNode().dataAfter());
        }
        tx.commit().addCallback(new FutureCallback<Object>() {
            @Override
            public void onSuccess(final Object result) {
                LOG.debug("Program info published for {} changed programs", changes.size());
            }

            @Override
            public void onFailure(final Throwable cause) {
                if (cause instanceof OptimisticLockFailedException && attempt < PUBLISH_ATTEMPTS) {
                    LOG.debug("Program info written by another member meanwhile: writing it again", cause);
                    publish(changes, attempt + 1);
                } else {
                    LOG.warn("Cannot publish program info", cause);
                }
            }
        }, MoreExecutors.directExecutor());
    }

    /** Adds to a write the operational entry of one program as configured now ({@code after}), or its removal. */
    public void write(final WriteTransaction tx, final Program before, final Program after) {
        if (after == null) {
            if (before != null) {
                tx.delete(LogicalDatastoreType.OPERATIONAL, programPath(before));
            }
        } else {
            tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, programPath(after),
                new ProgramBuilder(after).setInfo(info(after)).build());
        }
    }

    private static DataObjectIdentifier<Program> programPath(final Program program) {
        return DataObjectIdentifier.builder(Programs.class).child(Program.class, program.key()).build();
    }

    Info info(final Program program) {
        final ResolvedProgram resolved;
        try {
            resolved = resolver.resolve(program.getName().getValue(), program.getSource(), program);
        } catch (InvalidProgramException e) {
            return new InfoBuilder().setValid(false).setProblem(e.getMessage()).build();
        }
        final ProgramImage image = resolved.image();
        return new InfoBuilder()
            .setValid(true)
            .setInstructions(Uint32.valueOf(image.instructions()))
            .setElfSize(Uint32.valueOf(image.size()))
            .setSha256(image.sha256())
            .setLibraryVersion(resolved.filter().map(f -> f.version()).orElse(null))
            .setMap(BindingMap.ordered(image.maps().stream().map(map -> new MapBuilder()
                .setMapIndex(new MapIndex(Uint8.valueOf(map.index())))
                .setMapName(new MapName(map.name()))
                .setMapType(MapType.forValue(map.type()))
                .setKeySize(Uint16.valueOf(Math.min(map.keySize(), 0xFFFF)))
                .setValueSize(Uint16.valueOf(Math.min(map.valueSize(), 0xFFFF)))
                .setMaxEntries(Uint32.valueOf(map.maxEntries()))
                .build()).toList()))
            .build();
    }
}
