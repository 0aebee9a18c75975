/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.MoreExecutors;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.WriteTransaction;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IetfInetUtil;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowCapableNode;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.Table;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.TableKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.FlowKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.settings.ParameterBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.LibraryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.GuardName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.P0fSignatureText;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.Phase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.SynGuards;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.SynGuard;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.SynGuardKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.syn.guard.State;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.syn.guard.StateBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.syn.guard.state.ActiveSignatureBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.syn.guard.state.DestinationBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.syn.guard.state.LearnedSignatureBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Decimal64;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a SYN guard writes in the datastores: in the configuration, its two programs, their entries under each
 * switch and its flows in the inventory, as an operator would write them; in the operational datastore, its state.
 */
final class GuardStore {
    /** The library filters a guard uses. */
    static final String SAMPLER = "syn-sampler";
    static final String FILTER = "p0f-syn-flood";
    /** At most this many entries in each of the state's lists. */
    static final int STATE_LIST_MAX = 16;
    private static final Logger LOG = LoggerFactory.getLogger(GuardStore.class);
    private static final DateTimeFormatter DATE_AND_TIME = DateTimeFormatter.ISO_OFFSET_DATE_TIME
        .withZone(ZoneOffset.UTC);

    private final DataBroker broker;
    /** The clock the tracker's nanoseconds come from, and the wall time it was read at, to print instants. */
    private final LongSupplier clock;
    private final long epochNanos;
    private final long clockAtEpoch;

    GuardStore(final DataBroker broker, final LongSupplier clock) {
        this.broker = requireNonNull(broker);
        this.clock = requireNonNull(clock);
        final Instant wall = Instant.now();
        clockAtEpoch = clock.getAsLong();
        epochNanos = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
    }

    static DataObjectIdentifier<SynGuard> guardPath(final String name) {
        return DataObjectIdentifier.builder(SynGuards.class).child(SynGuard.class, new SynGuardKey(new GuardName(name)))
            .build();
    }

    private static DataObjectIdentifier<Program> programPath(final String name) {
        return DataObjectIdentifier.builder(Programs.class).child(Program.class,
            new ProgramKey(new ProgramName(name))).build();
    }

    private static DataObjectIdentifier<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch
            .Program> switchProgramPath(final String node, final long progId) {
        return DataObjectIdentifier.builder(Switches.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .child(org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program.class,
                new org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramKey(
                    new ProgramId(Uint32.valueOf(progId))))
            .build();
    }

    static DataObjectIdentifier<Flow> flowPath(final String node, final Flow flow) {
        return DataObjectIdentifier.builder(Nodes.class).child(Node.class, new NodeKey(new NodeId(node)))
            .augmentation(FlowCapableNode.class).child(Table.class, new TableKey(flow.getTableId()))
            .child(Flow.class, new FlowKey(flow.getId())).build();
    }

    /**
     * The guard's programs, their installation on its switches, and its sampling flows (puts: writing them again
     * changes nothing).
     */
    FluentFuture<? extends CommitInfo> install(final GuardConfig config) {
        final WriteTransaction tx = broker.newWriteOnlyTransaction();
        final String sampler = config.objectName("sampler");
        final String filter = config.objectName("p0f");
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, programPath(sampler), new ProgramBuilder()
            .setName(new ProgramName(sampler))
            .setDescription("SYN guard " + config.name() + ": samples SYNs to the controller")
            .setSource(new LibraryBuilder().setLibraryFilter(new LibraryFilterName(SAMPLER)).build())
            .setParameter(BindingMap.of(new ParameterBuilder().setName("rate")
                .setValue(Long.toString(config.samplingRate())).build()))
            .build());
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, programPath(filter), new ProgramBuilder()
            .setName(new ProgramName(filter))
            .setDescription("SYN guard " + config.name() + ": drops SYN floods by signature (slots set by the guard)")
            .setSource(new LibraryBuilder().setLibraryFilter(new LibraryFilterName(FILTER)).build())
            .build());
        for (String node : config.nodes()) {
            tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION,
                switchProgramPath(node, config.samplerProgramId()), switchProgram(config.samplerProgramId(), sampler));
            tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION,
                switchProgramPath(node, config.filterProgramId()), switchProgram(config.filterProgramId(), filter));
            for (GuardFlows.Kind kind : List.of(GuardFlows.Kind.SAMPLE, GuardFlows.Kind.PASS)) {
                for (Flow flow : GuardFlows.flows(config, kind)) {
                    tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, flowPath(node, flow), flow);
                }
            }
        }
        return logged(tx.commit(), "installation of SYN guard " + config.name());
    }

    private static org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program
            switchProgram(final long progId, final String name) {
        return new org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder()
            .setProgramId(new ProgramId(Uint32.valueOf(progId))).setProgram(new ProgramName(name)).build();
    }

    /** Everything {@link #install} and {@link #writeDropFlows} wrote, and the guard's state. */
    FluentFuture<? extends CommitInfo> uninstall(final GuardConfig config) {
        final WriteTransaction tx = broker.newWriteOnlyTransaction();
        for (String node : config.nodes()) {
            for (GuardFlows.Kind kind : GuardFlows.Kind.values()) {
                for (Flow flow : GuardFlows.flows(config, kind)) {
                    tx.delete(LogicalDatastoreType.CONFIGURATION, flowPath(node, flow));
                }
            }
            tx.delete(LogicalDatastoreType.CONFIGURATION, switchProgramPath(node, config.samplerProgramId()));
            tx.delete(LogicalDatastoreType.CONFIGURATION, switchProgramPath(node, config.filterProgramId()));
        }
        tx.delete(LogicalDatastoreType.CONFIGURATION, programPath(config.objectName("sampler")));
        tx.delete(LogicalDatastoreType.CONFIGURATION, programPath(config.objectName("p0f")));
        // A transaction of the clustered datastore touches one datastore: the state goes in its own.
        deleteState(config.name());
        return logged(tx.commit(), "removal of SYN guard " + config.name());
    }

    FluentFuture<? extends CommitInfo> writeDropFlows(final GuardConfig config, final Collection<String> nodes) {
        final WriteTransaction tx = broker.newWriteOnlyTransaction();
        for (String node : nodes) {
            for (Flow flow : GuardFlows.flows(config, GuardFlows.Kind.DROP)) {
                tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, flowPath(node, flow), flow);
            }
        }
        return logged(tx.commit(), "drop flows of SYN guard " + config.name());
    }

    FluentFuture<? extends CommitInfo> deleteDropFlows(final GuardConfig config, final Collection<String> nodes) {
        final WriteTransaction tx = broker.newWriteOnlyTransaction();
        for (String node : nodes) {
            for (Flow flow : GuardFlows.flows(config, GuardFlows.Kind.DROP)) {
                tx.delete(LogicalDatastoreType.CONFIGURATION, flowPath(node, flow));
            }
        }
        return logged(tx.commit(), "drop flows of SYN guard " + config.name());
    }

    /** The tracker's view as the guard's operational state. */
    void writeState(final String name, final FloodTracker tracker) {
        final var learned = BindingMap.<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn
            .guards.syn.guard.state.LearnedSignatureKey, org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard
            .rev261126.syn.guards.syn.guard.state.LearnedSignature>orderedBuilder();
        tracker.learnedShares().stream().limit(STATE_LIST_MAX).forEach(entry -> learned.add(
            new LearnedSignatureBuilder().setSignature(new P0fSignatureText(entry.getKey().toText()))
                .setShare(share(entry.getValue())).build()));
        final var destinations = BindingMap.<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126
            .syn.guards.syn.guard.state.DestinationKey, org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard
            .rev261126.syn.guards.syn.guard.state.Destination>orderedBuilder();
        tracker.destinations().stream().limit(STATE_LIST_MAX).forEach(destination -> destinations.add(
            new DestinationBuilder().setAddress(IetfInetUtil.ipAddressFor(
                destination.address()))
                .setSynsPerSecond(Uint64.valueOf(destination.synsPerSecond()))
                .setFlooded(destination.flooded()).build()));
        final var active = BindingMap.<org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn
            .guards.syn.guard.state.ActiveSignatureKey, org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard
            .rev261126.syn.guards.syn.guard.state.ActiveSignature>orderedBuilder();
        for (FloodTracker.Active slot : tracker.active()) {
            active.add(new ActiveSignatureBuilder()
                .setSignature(new P0fSignatureText(slot.signature().toText()))
                .setSlot(Uint8.valueOf(slot.slot()))
                .setSince(instant(slot.sinceNanos()))
                .setPinned(slot.pinned())
                .setFloodShare(share(slot.floodShare()))
                .setLegitimateShare(share(slot.legitimateShare()))
                .setDropped(Uint64.valueOf(slot.dropped()))
                .setDroppedPerSecond(Uint64.valueOf(slot.droppedPerSecond()))
                .build());
        }
        final State state = new StateBuilder()
            .setPhase(switch (tracker.phase()) {
                case LEARNING -> Phase.Learning;
                case WATCHING -> Phase.Watching;
                case MITIGATING -> Phase.Mitigating;
            })
            .setPhaseSince(instant(tracker.phaseSinceNanos()))
            .setMessage(tracker.message().isEmpty() ? null : tracker.message())
            .setLearnedSamples(Uint64.valueOf(tracker.learnedSamples()))
            .setLearnedSignature(learned.build())
            .setDestination(destinations.build())
            .setActiveSignature(active.build())
            .build();
        putState(name, state);
    }

    /** A guard that cannot run, and why. */
    void writeFailed(final String name, final String message) {
        putState(name, new StateBuilder().setPhase(Phase.Failed).setPhaseSince(instant(clock.getAsLong()))
            .setMessage(message).build());
    }

    private void putState(final String name, final State state) {
        final WriteTransaction tx = broker.newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL,
            guardPath(name).toBuilder().child(State.class).build(), state);
        logged(tx.commit(), "state of SYN guard " + name);
    }

    void deleteState(final String name) {
        final WriteTransaction tx = broker.newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, guardPath(name));
        logged(tx.commit(), "state of SYN guard " + name);
    }

    private DateAndTime instant(final long clockNanos) {
        final long nanos = epochNanos + (clockNanos - clockAtEpoch);
        return new DateAndTime(DATE_AND_TIME.format(Instant.ofEpochSecond(
            TimeUnit.NANOSECONDS.toSeconds(nanos), nanos % 1_000_000_000L)));
    }

    private static Decimal64 share(final double value) {
        return Decimal64.valueOf(BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).toPlainString());
    }

    private static FluentFuture<? extends CommitInfo> logged(final FluentFuture<? extends CommitInfo> commit,
            final String what) {
        commit.addCallback(new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                LOG.debug("Recorded the {}", what);
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("Could not record the {}", what, cause);
            }
        }, MoreExecutors.directExecutor());
        return commit;
    }
}
