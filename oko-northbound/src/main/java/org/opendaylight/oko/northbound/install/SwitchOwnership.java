/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.opendaylight.mdsal.binding.api.DataTreeModification;
import org.opendaylight.oko.northbound.program.ProgramInfoPublisher;
import org.opendaylight.openflowplugin.api.openflow.device.DeviceInfo;
import org.opendaylight.openflowplugin.api.openflow.mastership.MastershipChangeService;
import org.opendaylight.openflowplugin.applications.reconciliation.ReconciliationNotificationListener;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.params.xml.ns.yang.openflowplugin.rf.state.rev170713.ResultState;
import org.opendaylight.yangtools.binding.DataObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which switches this controller instance masters, and the programs' part in openflowplugin's reconciliation:
 * when a switch connects, its configured programs (with their parameters and initial entries) are loaded before
 * the forwarding rules manager (reconciliation priority 1) pushes the flows that refer to them. Only the master
 * of a switch acts for it, so clustered controllers do not push twice.
 */
public final class SwitchOwnership implements MastershipChangeService, ReconciliationNotificationListener {
    /** Before the forwarding rules manager (1); alongside the arbitrator (0), which does nothing outside upgrades. */
    public static final int RECONCILIATION_PRIORITY = 0;
    private static final Logger LOG = LoggerFactory.getLogger(SwitchOwnership.class);

    private final String member;
    private final SwitchSync sync;
    private final LoadedPrograms loaded;
    private final OperationalState state;
    private final ProgramInfoPublisher programInfo;
    private final OkoSupport support;
    private final SwitchEvents events;
    private final MastershipRepair repair;
    private final Set<String> owned = ConcurrentHashMap.newKeySet();
    private final Set<String> reconciled = ConcurrentHashMap.newKeySet();

    /**
     * Acts for the switches {@code member} (this controller's name in its cluster, {@link ClusterMember}) masters.
     */
    public SwitchOwnership(final String member, final SwitchSync sync, final LoadedPrograms loaded,
            final OperationalState state, final ProgramInfoPublisher programInfo, final OkoSupport support,
            final SwitchEvents events, final MastershipRepair repair) {
        this.member = requireNonNull(member);
        this.repair = requireNonNull(repair);
        this.events = requireNonNull(events);
        this.support = requireNonNull(support);
        this.programInfo = requireNonNull(programInfo);
        this.sync = requireNonNull(sync);
        this.loaded = requireNonNull(loaded);
        this.state = requireNonNull(state);
    }

    public boolean isOwned(final String node) {
        return owned.contains(node);
    }

    /** The switches this controller instance masters now. */
    public Set<String> ownedNodes() {
        return Set.copyOf(owned);
    }

    @Override
    public ListenableFuture<Boolean> startReconciliation(final DeviceInfo deviceInfo) {
        final String node = deviceInfo.getNodeId().getValue();
        // The switch may have restarted while away: whatever was loaded before is loaded again (replace, keep maps).
        owned.add(node);
        loaded.forgetSwitch(node);
        reconciled.add(node);
        events.switchMastered(node);
        LOG.info("{}: asking whether it speaks Oko, then loading its configured programs before its flows", node);
        return Futures.transform(probeThenSync(node), ignored -> Boolean.TRUE, MoreExecutors.directExecutor());
    }

    @Override
    public ListenableFuture<Boolean> endReconciliation(final DeviceInfo deviceInfo) {
        return Futures.immediateFuture(Boolean.TRUE);
    }

    @Override
    public int getPriority() {
        return RECONCILIATION_PRIORITY;
    }

    @Override
    public String getName() {
        return "oko";
    }

    @Override
    public ResultState getResultState() {
        return ResultState.DONOTHING;
    }

    @Override
    public void onBecomeOwner(final DeviceInfo deviceInfo) {
        final String node = deviceInfo.getNodeId().getValue();
        owned.add(node);
        state.mastered(node, member);
        if (reconciled.add(node)) {
            // Reconciliation did not run for it (the framework is off): load its programs now.
            events.switchMastered(node);
            loaded.forgetSwitch(node);
            probeThenSync(node);
        }
    }

    /**
     * A switch appeared in the operational inventory, with the description it gave of itself: a switch without
     * Oko mastered here gets its verdict and its programs' statuses again, naming its software (the probe was
     * answered before openflowplugin wrote the description).
     */
    public void inventoryNodeAdded(final String node) {
        if (owned.contains(node) && support.unsupported(node)) {
            support.describe(node);
            Futures.addCallback(sync.sync(node), ready(node), MoreExecutors.directExecutor());
        }
    }

    private ListenableFuture<Void> probeThenSync(final String node) {
        final ListenableFuture<Void> synced = Futures.transformAsync(support.probe(node), ignored -> sync.sync(node),
            MoreExecutors.directExecutor());
        Futures.addCallback(synced, ready(node), MoreExecutors.directExecutor());
        return synced;
    }

    /** After a sync of a switch that (re)connected: its programs are there, its flows come next. */
    private FutureCallback<Void> ready(final String node) {
        return new FutureCallback<>() {
            @Override
            public void onSuccess(final Void result) {
                if (owned.contains(node)) {
                    events.switchReady(node);
                }
            }

            @Override
            public void onFailure(final Throwable cause) {
                LOG.warn("{}: sync after connecting failed", node, cause);
            }
        };
    }

    @Override
    public void onLoseOwnership(final DeviceInfo deviceInfo) {
        // openflowplugin says this both when a master loses a switch and when a member becomes a slave for it.
        final String node = deviceInfo.getNodeId().getValue();
        final boolean wasOwned = owned.remove(node);
        reconciled.remove(node);
        loaded.forgetSwitch(node);
        support.forget(node);
        events.switchForgotten(node);
        if (wasOwned) {
            LOG.info("{}: no longer mastered here ({}); its programs are loaded again when it comes back", node,
                member);
        } else {
            LOG.debug("{}: mastered by another member", node);
        }
        // Only when no member masters it: a slave must not overwrite what the master says.
        sync.markIfUnmastered(node);
        // openflowplugin's role timer can leave the switch with no master although this member holds it.
        repair.slaveSet(deviceInfo, this::isOwned);
    }

    /**
     * Switch entries changed: those switches, and only those, are brought in line. The work a change causes is
     * that of the switches it touches: with a fleet, re-syncing every switch on every change made N reads per
     * change, and in a persistent datastore every transaction, reads included, leaves journal entries.
     */
    public void switchesChanged(final List<DataTreeModification<Switch>> changes) {
        final Set<String> nodes = new LinkedHashSet<>();
        for (var change : changes) {
            nodes.add(changed(change).getNode().getValue());
        }
        configurationChanged(nodes);
    }

    /** Programs changed: their info is published, and the switches that name one of them are brought in line. */
    public void programsChanged(final List<DataTreeModification<Program>> changes) {
        programInfo.publish(changes);
        final Set<String> names = new HashSet<>();
        for (var change : changes) {
            names.add(changed(change).getName().getValue());
        }
        if (!names.isEmpty()) {
            configurationChanged(sync.switchesUsing(names));
        }
    }

    /** The list entry a change is about: as it is now, or as it was if it was deleted. */
    private static <T extends DataObject> T changed(final DataTreeModification<T> change) {
        final T after = change.getRootNode().dataAfter();
        return after != null ? after : requireNonNull(change.getRootNode().dataBefore());
    }

    /** These switches' configuration changed: each is brought in line (or marked, when nobody masters it). */
    void configurationChanged(final Set<String> nodes) {
        for (String node : nodes) {
            if (owned.contains(node)) {
                sync.sync(node);
            } else {
                sync.markIfUnmastered(node);
            }
        }
    }

    /**
     * A switch left the operational inventory: no controller instance masters it any more. What was said of it
     * while another instance mastered it (or before that instance noticed it was gone) is brought up to date: its
     * programs are marked disconnected, or, when it is not configured either, its operational entry goes.
     */
    public void inventoryNodeRemoved(final String node) {
        if (!owned.contains(node)) {
            sync.markIfUnmastered(node);
        }
    }

    @Override
    public void close() {
        owned.clear();
        reconciled.clear();
    }
}
