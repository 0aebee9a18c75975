/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.flows;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.SettableFuture;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.opendaylight.mdsal.binding.api.DataTreeModification;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OkoSupport;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.install.SwitchEvents;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.Table;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNodesNodeTableFlow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.extension.general.rev140714.GeneralAugMatchNodesNodeTableFlow;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flows of the config inventory whose filter-prog match names an Oko program, and whether each is on its switch.
 *
 * <p>openflowplugin's forwarding rules manager pushes them like any flow. A switch refuses a flow that names a
 * program it does not have (OKO_EC_UNKNOWN_PROG; a switch without Oko: OFPBMC_BAD_FIELD), the forwarding rules
 * manager keeps no record of that and never pushes the flow again, so a flow written before its program converges
 * would never reach the switch. Here: a flow configured while its program is not installed on the switch (or was
 * installed moments before, when the forwarding rules manager's push may have overtaken it) is pushed once more
 * through the same add-flow, and the switch's answer kept. A refused flow gets one line in karaf.log and an entry
 * in the switch's operational {@code refused-flow} list, and is pushed again when its program becomes installed.
 *
 * <p>All work for one switch runs in order on that switch's sequential executor.
 */
public final class FilterFlows implements SwitchEvents {
    /**
     * A flow configured within this long after its program was installed may have been pushed by the forwarding
     * rules manager before the program reached the switch (its notification ran first): it is pushed once more.
     */
    public static final long RECENT_INSTALL_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Why a flow the switch deleted with its program (a forced unload) is not there. */
    private static final String REMOVED_WITH_PROGRAM = "removed by the switch when program %d was unloaded (force)";
    private static final Logger LOG = LoggerFactory.getLogger(FilterFlows.class);

    /** A flow's place in the configuration of one switch. */
    record FlowKey(short tableId, String flowId) {
    }

    /** A configured flow that names a program. */
    record Configured(DataObjectIdentifier<Flow> path, Flow flow, long progId) {
    }

    private final SwitchClient client;
    private final LoadedPrograms loaded;
    private final OperationalState state;
    private final OkoSupport support;
    private final ExecutorService pool;
    private final long switchTimeoutMillis;
    private final long recentInstallNanos;
    /** The switches mastered here whose programs are loaded (from switchReady to switchForgotten). */
    private final Set<String> mastered = ConcurrentHashMap.newKeySet();
    /** Per switch, its configured flows that name a program (kept for every switch, mastered here or not). */
    private final Map<String, Map<FlowKey, Configured>> configured = new ConcurrentHashMap<>();
    /** Per switch, its refused flows and the reason; touched only on the switch's executor. */
    private final Map<String, Map<FlowKey, String>> refused = new ConcurrentHashMap<>();
    /** Per switch and program, System.nanoTime() of its last installation here. */
    private final Map<String, Map<Long, Long>> installedAt = new ConcurrentHashMap<>();
    private final Map<String, Executor> perSwitch = new ConcurrentHashMap<>();

    public FilterFlows(final SwitchClient client, final LoadedPrograms loaded, final OperationalState state,
            final OkoSupport support, final ExecutorService pool, final long switchTimeoutMillis,
            final long recentInstallNanos) {
        this.client = requireNonNull(client);
        this.loaded = requireNonNull(loaded);
        this.state = requireNonNull(state);
        this.support = requireNonNull(support);
        this.pool = requireNonNull(pool);
        this.switchTimeoutMillis = switchTimeoutMillis;
        this.recentInstallNanos = recentInstallNanos;
    }

    /** The program id a flow's filter-prog match names, if it has one. */
    static OptionalLong filterProg(final Flow flow) {
        final var match = flow.getMatch();
        final var general = match == null ? null : match.augmentation(GeneralAugMatchNodesNodeTableFlow.class);
        if (general == null) {
            return OptionalLong.empty();
        }
        for (var entry : general.nonnullExtensionList().values()) {
            final var extension = entry.getExtension();
            final var oko = extension == null ? null
                : extension.augmentation(OkoFilterProgNodesNodeTableFlow.class);
            if (oko != null && oko.getOkoFilterProg() != null && oko.getOkoFilterProg().getProgId() != null) {
                return OptionalLong.of(oko.getOkoFilterProg().getProgId().getValue().toJava());
            }
        }
        return OptionalLong.empty();
    }

    /**
     * Flows were configured, changed or deleted. The index follows every switch; the flows of switches this
     * controller instance masters are checked. Called on the datastore's notification thread: it only updates the
     * index and queues work, and decides there whether the forwarding rules manager's push may be refused.
     */
    public void flowsChanged(final List<DataTreeModification<Flow>> changes) {
        for (var change : changes) {
            final DataObjectIdentifier<Flow> path = change.path();
            final String node = path.firstKeyOf(Node.class).getId().getValue();
            final FlowKey key = new FlowKey(path.firstKeyOf(Table.class).getId().shortValue(),
                path.firstKeyOf(Flow.class).getId().getValue());
            final Flow after = change.getRootNode().dataAfter();
            final OptionalLong progId = after == null ? OptionalLong.empty() : filterProg(after);
            if (progId.isPresent()) {
                configured.computeIfAbsent(node, n -> new ConcurrentHashMap<>())
                    .put(key, new Configured(path, after, progId.getAsLong()));
            } else {
                final Map<FlowKey, Configured> flows = configured.get(node);
                if (flows != null) {
                    flows.remove(key);
                }
            }
            if (mastered.contains(node)) {
                // Decided now, as the forwarding rules manager is told of the same change and pushes it.
                final boolean atRisk = progId.isPresent() && !settled(node, progId.getAsLong());
                onSwitch(node, () -> check(node, key, atRisk));
            }
        }
    }

    /** The program has been on the switch long enough that a flow configured now reaches the switch after it. */
    private boolean settled(final String node, final long progId) {
        if (loaded.get(node, progId).isEmpty()) {
            return false;
        }
        // No time yet: installed this very moment (LoadedPrograms is told just before this class).
        final Long at = installedAt.getOrDefault(node, Map.of()).get(progId);
        return at != null && System.nanoTime() - at > recentInstallNanos;
    }

    /** A program was installed on a switch (loaded and given its map entries): its refused flows go again. */
    @Override
    public void programInstalled(final String node, final long progId) {
        installedAt.computeIfAbsent(node, n -> new ConcurrentHashMap<>()).put(progId, System.nanoTime());
        onSwitch(node, () -> {
            for (var key : List.copyOf(refusals(node).keySet())) {
                final Configured flow = configured(node, key);
                if (flow != null && flow.progId() == progId) {
                    push(node, key, flow);
                }
            }
        });
    }

    /**
     * The switch (re)connected and its programs were loaded; the forwarding rules manager pushes its flows next.
     * Those whose program is not there are refused: they are pushed here to learn the switch's answer.
     */
    @Override
    public void programUnloaded(final String node, final long progId, final boolean force) {
        if (!force) {
            return;         // the switch refuses an unload while rules use the program: none were named by flows
        }
        onSwitch(node, () -> {
            for (var entry : Map.copyOf(configured.getOrDefault(node, Map.of())).entrySet()) {
                if (entry.getValue().progId() == progId) {
                    refuse(node, entry.getKey(), entry.getValue(), String.format(REMOVED_WITH_PROGRAM, progId),
                        "; it is pushed again when program " + progId + " is installed there");
                }
            }
        });
    }

    /**
     * The switch (re)connected and its programs were loaded; the forwarding rules manager pushes its flows next.
     * What an earlier master (or this controller before a restart) listed goes; the flows whose program is not
     * there are pushed here to learn the switch's answer.
     */
    @Override
    public void switchReady(final String node) {
        // Ready again without having gone (a switch without Oko named with its software): the list is this
        // controller's own, a changed reason is written without a second log line.
        final boolean again = !mastered.add(node);
        onSwitch(node, () -> {
            if (again) {
                for (var key : List.copyOf(refusals(node).keySet())) {
                    if (configured(node, key) == null) {
                        forget(node, key);
                    }
                }
            } else {
                refusals(node).clear();
                state.removeRefusedFlows(node);
            }
            for (var entry : Map.copyOf(configured.getOrDefault(node, Map.of())).entrySet()) {
                check(node, entry.getKey(), loaded.get(node, entry.getValue().progId()).isEmpty());
            }
        });
    }

    /**
     * The switch is no longer mastered here. Its list is left as it is: its next master (or this controller when
     * the switch comes back) replaces it; deleting it here could delete what the new master wrote.
     */
    @Override
    public void switchForgotten(final String node) {
        mastered.remove(node);
        installedAt.remove(node);
        onSwitch(node, () -> refusals(node).clear());
    }

    private void check(final String node, final FlowKey key, final boolean atRisk) {
        if (!mastered.contains(node)) {
            return;         // no longer mastered here: its new master checks it
        }
        final Configured flow = configured(node, key);
        if (flow == null) {
            forget(node, key);
            return;
        }
        support.awaitProbe(node, switchTimeoutMillis * 2);
        if (support.unsupported(node)) {
            // Nothing Oko is sent to a switch without Oko; the forwarding rules manager's push is refused.
            refuse(node, key, flow, support.unsupportedMessage(node)
                + "; a switch without Oko refuses flows with a filter_prog match", "");
            return;
        }
        if (atRisk || refusals(node).containsKey(key)) {
            push(node, key, flow);
        }
    }

    private void push(final String node, final FlowKey key, final Configured flow) {
        if (!mastered.contains(node)) {
            return;
        }
        try {
            client.addFlow(node, flow.path(), flow.flow()).get(switchTimeoutMillis * 2, TimeUnit.MILLISECONDS);
            if (refusals(node).remove(key) != null) {
                LOG.info("{}: flow {} (table {}) is on the switch now that program {} is installed", node,
                    key.flowId(), key.tableId(), flow.progId());
                state.removeRefusedFlow(node, key.tableId(), key.flowId());
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SwitchException refusal
                    && refusal.kind() == SwitchException.Kind.REFUSED) {
                refuse(node, key, flow, refusal.getMessage(), "; it is pushed again when program "
                    + flow.progId() + " is installed there");
            } else {
                // Not connected or no answer: the next connection checks the flow again.
                LOG.info("{}: flow {} (table {}) not checked: {}", node, key.flowId(), key.tableId(),
                    e.getCause() == null ? e : e.getCause().getMessage());
            }
        } catch (TimeoutException e) {
            LOG.info("{}: flow {} (table {}) not checked: no answer", node, key.flowId(), key.tableId());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records a refusal; karaf.log gets one line per flow refused, not one per attempt. */
    private void refuse(final String node, final FlowKey key, final Configured flow, final String reason,
            final String next) {
        if (!mastered.contains(node)) {
            return;
        }
        final String before = refusals(node).put(key, reason);
        if (before == null) {
            LOG.warn("{}: flow {} (table {}) is not on the switch: {}{}", node, key.flowId(), key.tableId(), reason,
                next);
        }
        if (!reason.equals(before)) {
            state.refusedFlow(node, key.tableId(), key.flowId(), flow.progId(), reason);
        }
    }

    private void forget(final String node, final FlowKey key) {
        if (refusals(node).remove(key) != null) {
            state.removeRefusedFlow(node, key.tableId(), key.flowId());
        }
    }

    private Configured configured(final String node, final FlowKey key) {
        return configured.getOrDefault(node, Map.of()).get(key);
    }

    private Map<FlowKey, String> refusals(final String node) {
        return refused.computeIfAbsent(node, n -> new HashMap<>());
    }

    /** Completes when the work queued for the switch so far has run (tests wait for it). */
    ListenableFuture<Void> flushed(final String node) {
        final SettableFuture<Void> done = SettableFuture.create();
        onSwitch(node, () -> done.set(null));
        return done;
    }

    private void onSwitch(final String node, final Runnable work) {
        perSwitch.computeIfAbsent(node, n -> MoreExecutors.newSequentialExecutor(pool)).execute(() -> {
            try {
                work.run();
            } catch (IllegalStateException e) {
                LOG.warn("{}: checking its flows failed", node, e);
            }
        });
    }
}
