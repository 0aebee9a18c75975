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
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.MoreExecutors;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.DatastoreReads;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.yang.types.rev130715.DateAndTime;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.InstallStatus;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.RefusedFlow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.RefusedFlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.RefusedFlowKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.program.Statistics;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the operational side of /switches: per switch whether it is connected, per program its status. Writes
 * are merges of whole leaves, so concurrent writers of different programs do not disturb each other.
 */
public final class OperationalState {
    private static final Logger LOG = LoggerFactory.getLogger(OperationalState.class);
    private static final long READ_TIMEOUT_MILLIS = 10_000;
    private static final DateTimeFormatter DATE_AND_TIME = DateTimeFormatter.ISO_OFFSET_DATE_TIME
        .withZone(ZoneOffset.UTC);

    private final DataBroker broker;

    public OperationalState(final DataBroker broker) {
        this.broker = requireNonNull(broker);
    }

    public static DataObjectIdentifier<Switch> switchPath(final String node) {
        return DataObjectIdentifier.builder(Switches.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .build();
    }

    /** The switch in openflowplugin's operational inventory: present while a controller member masters it. */
    public static DataObjectIdentifier<Node> inventoryPath(final String node) {
        return DataObjectIdentifier.builder(Nodes.class).child(Node.class,
            new NodeKey(new NodeId(node))).build();
    }

    public static DataObjectIdentifier<Program> programPath(final String node, final long progId) {
        return DataObjectIdentifier.builder(Switches.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .child(Program.class, new ProgramKey(new ProgramId(Uint32.valueOf(progId)))).build();
    }

    private static DataObjectIdentifier<Statistics> statisticsPath(final String node, final long progId) {
        return DataObjectIdentifier.builder(Switches.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .child(Program.class, new ProgramKey(new ProgramId(Uint32.valueOf(progId)))).child(Statistics.class)
            .build();
    }

    public static DateAndTime now() {
        return new DateAndTime(DATE_AND_TIME.format(Instant.now()));
    }

    /** Records a program's status on a switch. */
    public FluentFuture<? extends CommitInfo> programStatus(final String node, final long progId,
            final String programName, final String sha256, final Outcome outcome) {
        return programStatus(node, progId, programName, sha256, outcome, null);
    }

    /**
     * Records a program's status on a switch, with the fingerprint of the ELF and map writes installed (a new master
     * compares it to take the program over; null leaves the recorded one).
     */
    public FluentFuture<? extends CommitInfo> programStatus(final String node, final long progId,
            final String programName, final String sha256, final Outcome outcome, final String settingsFingerprint) {
        final var program = new ProgramBuilder()
            .setSettingsFingerprint(settingsFingerprint)
            .setProgramId(new ProgramId(Uint32.valueOf(progId)))
            .setProgram(programName == null ? null : new ProgramName(programName))
            .setStatus(outcome.status())
            .setStatusMessage(outcome.message())
            .setStatusTime(now())
            .setSha256(sha256)
            .build();
        final var tx = broker.newWriteOnlyTransaction();
        tx.mergeParentStructureMerge(LogicalDatastoreType.OPERATIONAL, programPath(node, progId), program);
        if (outcome.status() != InstallStatus.Installed) {
            // The statistics were of the program that ran; what runs now (if anything) is not known.
            tx.delete(LogicalDatastoreType.OPERATIONAL, statisticsPath(node, progId));
        }
        return logged(tx.commit(), node + " program " + progId);
    }

    public FluentFuture<? extends CommitInfo> removeProgram(final String node, final long progId) {
        final var tx = broker.newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, programPath(node, progId));
        return logged(tx.commit(), node + " program " + progId);
    }

    /** Removes everything the operational side says of a switch. */
    public FluentFuture<? extends CommitInfo> removeSwitch(final String node) {
        final var tx = broker.newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, switchPath(node));
        return logged(tx.commit(), node);
    }

    /** Records whether the switch speaks Oko, and how it answered the probe. */
    public FluentFuture<? extends CommitInfo> okoSupported(final String node, final boolean supported,
            final String message) {
        final var tx = broker.newWriteOnlyTransaction();
        tx.mergeParentStructureMerge(LogicalDatastoreType.OPERATIONAL, switchPath(node),
            new SwitchBuilder().setNode(new NodeId(node)).setOkoSupported(supported).setOkoSupportMessage(message)
                .build());
        return logged(tx.commit(), node);
    }

    /**
     * Replaces the statistics of a switch's programs, in one transaction. Only under program entries that exist: a
     * program removed meanwhile (its entry deleted) fails the write, quietly; the next poll writes the others.
     */
    public FluentFuture<? extends CommitInfo> statistics(final String node, final Map<Long, Statistics> programs) {
        final var tx = broker.newWriteOnlyTransaction();
        programs.forEach((progId, statistics) -> tx.put(LogicalDatastoreType.OPERATIONAL,
            statisticsPath(node, progId), statistics));
        final var commit = tx.commit();
        commit.addCallback(new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                // nothing to say
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.debug("{}: statistics not recorded (a program entry gone?)", node, cause);
            }
        }, MoreExecutors.directExecutor());
        return commit;
    }

    private static DataObjectIdentifier<RefusedFlow> refusedFlowPath(final String node, final short tableId,
            final String flowId) {
        return DataObjectIdentifier.builder(Switches.class).child(Switch.class, new SwitchKey(new NodeId(node)))
            .child(RefusedFlow.class, new RefusedFlowKey(flowId, Uint8.valueOf(tableId))).build();
    }

    /** Lists a configured flow that is not on the switch, with the switch's reason. */
    public FluentFuture<? extends CommitInfo> refusedFlow(final String node, final short tableId,
            final String flowId, final long progId, final String reason) {
        final var tx = broker.newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, refusedFlowPath(node, tableId, flowId),
            new RefusedFlowBuilder().setTableId(Uint8.valueOf(tableId)).setFlowId(flowId)
                .setProgramId(new ProgramId(Uint32.valueOf(progId))).setReason(reason).setRefusedAt(now()).build());
        return logged(tx.commit(), node + " flow " + flowId);
    }

    /**
     * Removes every refused flow listed for a switch (read, then deleted one by one: a keyed list has no path of
     * its own). Waits for the read; the deletes are written as one transaction.
     */
    public void removeRefusedFlows(final String node) {
        final Collection<RefusedFlow> listed;
        try (var tx = broker.newReadOnlyTransaction()) {
            listed = DatastoreReads.await(tx.read(LogicalDatastoreType.OPERATIONAL, switchPath(node)),
                READ_TIMEOUT_MILLIS, "the refused flows of " + node)
                .map(sw -> sw.nonnullRefusedFlow().values()).orElse(List.of());
        } catch (IllegalStateException e) {
            LOG.warn("{}: cannot read its refused flows", node, e);
            return;
        }
        if (listed.isEmpty()) {
            return;
        }
        final var tx = broker.newWriteOnlyTransaction();
        listed.forEach(flow -> tx.delete(LogicalDatastoreType.OPERATIONAL, refusedFlowPath(node,
            flow.getTableId().shortValue(), flow.getFlowId())));
        logged(tx.commit(), node + " refused flows");
    }

    /** A flow no longer refused: the switch accepted it, or its configuration went. */
    public FluentFuture<? extends CommitInfo> removeRefusedFlow(final String node, final short tableId,
            final String flowId) {
        final var tx = broker.newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.OPERATIONAL, refusedFlowPath(node, tableId, flowId));
        return logged(tx.commit(), node + " flow " + flowId);
    }

    /**
     * What the operational side says of a switch no member masters, given what it said and the configuration
     * (whether the switch has an entry, the program ids it names with their program names).
     */
    static Optional<Switch> unmastered(final String node, final Optional<Switch> reported, final boolean configured,
            final Map<Long, String> wanted) {
        if (!configured) {
            // Neither configured nor connected: there is nothing to report about it.
            return Optional.empty();
        }
        final Map<ProgramKey, Program> before = reported.map(Switch::nonnullProgram).orElse(Map.of());
        final List<Program> programs = new ArrayList<>();
        wanted.forEach((progId, name) -> {
            final Program old = before.get(new ProgramKey(new ProgramId(Uint32.valueOf(progId))));
            if (old != null && old.getStatus() == InstallStatus.SwitchDisconnected && old.getProgram() != null
                    && old.getProgram().getValue().equals(name)) {
                programs.add(old);
                return;
            }
            // The last SHA-256 stays: what the switch ran when it was last seen.
            programs.add((old == null ? new ProgramBuilder() : new ProgramBuilder(old))
                .setProgramId(new ProgramId(Uint32.valueOf(progId)))
                .setProgram(name.isEmpty() ? null : new ProgramName(name))
                .setStatus(InstallStatus.SwitchDisconnected)
                .setStatusMessage(node + " is not connected to the controller")
                .setStatusTime(OperationalState.now())
                .setStatistics(null)
                .build());
        });
        return Optional.of((reported.isPresent() ? new SwitchBuilder(reported.orElseThrow()) : new SwitchBuilder())
            .setNode(new NodeId(node))
            .setConnected(false)
            .setMaster(null)
            .setProgram(BindingMap.of(programs))
            .build());
    }

    /** The switch is connected, and {@code member} (this one) masters it. */
    public FluentFuture<? extends CommitInfo> mastered(final String node, final String member) {
        final var tx = broker.newWriteOnlyTransaction();
        tx.mergeParentStructureMerge(LogicalDatastoreType.OPERATIONAL, switchPath(node),
            new SwitchBuilder().setNode(new NodeId(node)).setConnected(true).setMaster(member).build());
        return logged(tx.commit(), node);
    }

    private static FluentFuture<? extends CommitInfo> logged(final FluentFuture<? extends CommitInfo> commit,
            final String what) {
        commit.addCallback(new FutureCallback<CommitInfo>() {
            @Override
            public void onSuccess(final CommitInfo result) {
                // nothing to say
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("Could not record the operational state of {}", what, cause);
            }
        }, MoreExecutors.directExecutor());
        return commit;
    }
}
