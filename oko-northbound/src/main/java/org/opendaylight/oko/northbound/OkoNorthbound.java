/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.opendaylight.controller.cluster.ActorSystemProvider;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.DataObjectModification;
import org.opendaylight.mdsal.binding.api.NotificationPublishService;
import org.opendaylight.mdsal.binding.api.NotificationService;
import org.opendaylight.mdsal.binding.api.RpcProviderService;
import org.opendaylight.mdsal.binding.api.RpcService;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.eos.binding.api.Entity;
import org.opendaylight.mdsal.eos.binding.api.EntityOwnershipService;
import org.opendaylight.mdsal.eos.common.api.EntityOwnershipState;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.FilterLibrary;
import org.opendaylight.oko.northbound.flows.FilterFlows;
import org.opendaylight.oko.northbound.install.ClusterMember;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.MastershipRepair;
import org.opendaylight.oko.northbound.install.OkoSupport;
import org.opendaylight.oko.northbound.install.OpenflowpluginConnections;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.install.ProgramInstaller;
import org.opendaylight.oko.northbound.install.SwitchEvents;
import org.opendaylight.oko.northbound.install.SwitchOwnership;
import org.opendaylight.oko.northbound.install.SwitchSync;
import org.opendaylight.oko.northbound.maps.SendMapsCollector;
import org.opendaylight.oko.northbound.maps.SendMapsReplay;
import org.opendaylight.oko.northbound.program.ProgramInfoPublisher;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.oko.northbound.rpc.OkoRpcs;
import org.opendaylight.oko.northbound.stats.StatisticsPoller;
import org.opendaylight.oko.northbound.store.ConfigurationRestored;
import org.opendaylight.oko.northbound.switchio.OpenflowpluginSwitchClient;
import org.opendaylight.oko.northbound.synguard.SynGuardService;
import org.opendaylight.openflowplugin.api.openflow.mastership.MastershipChangeServiceManager;
import org.opendaylight.openflowplugin.applications.reconciliation.NotificationRegistration;
import org.opendaylight.openflowplugin.applications.reconciliation.ReconciliationManager;
import org.opendaylight.openflowplugin.extension.api.OpenFlowPluginExtensionRegistratorProvider;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.ExperimenterMessageFromDev;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowCapableNode;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.Table;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.Switch;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.SynGuards;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.SynGuard;
import org.opendaylight.yang.gen.v1.urn.opendaylight.packet.service.rev130709.PacketReceived;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.concepts.Registration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Oko northbound: the oko module's configuration pushed to switches and kept there, its operational state,
 * and its RPCs.
 */
@Component(service = { }, immediate = true, configurationPid = OkoNorthbound.CONFIGURATION_PID)
public final class OkoNorthbound implements AutoCloseable {
    /** Settings: etc/org.opendaylight.oko.cfg (a change restarts the northbound). */
    public static final String CONFIGURATION_PID = "org.opendaylight.oko";
    /** How often program statistics are read from each switch, in ms; 0 turns polling off. */
    public static final String STATISTICS_INTERVAL = "statistics-interval-ms";
    /** How long a switch may take to answer one Oko message. */
    static final long SWITCH_TIMEOUT_MILLIS = 30_000;
    private static final Logger LOG = LoggerFactory.getLogger(OkoNorthbound.class);
    /** The entity type of mdsal's cluster singleton services once started (openflowplugin listens to it too). */
    private static final String SINGLETON_CLOSE_ENTITY_TYPE = "org.opendaylight.mdsal.AsyncServiceCloseEntityType";

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(named("oko-timer"));
    private final ExecutorService pool = Executors.newCachedThreadPool(named("oko-sync"));
    /** Configuration changes, one at a time and in order, off the datastore's notification thread. */
    private final ExecutorService configChanges = Executors.newSingleThreadExecutor(named("oko-config"));
    private final SwitchOwnership ownership;
    private final List<Registration> registrations = new ArrayList<>();
    private final NotificationRegistration reconciliation;

    @Activate
    public OkoNorthbound(@Reference final DataBroker broker, @Reference final RpcService rpcService,
            @Reference final RpcProviderService rpcProvider,
            @Reference final MastershipChangeServiceManager mastership,
            @Reference final ReconciliationManager reconciliationManager,
            @Reference final NotificationService notifications,
            @Reference final NotificationPublishService notificationPublisher,
            @Reference final ConfigurationRestored configurationRestored,
            @Reference final ActorSystemProvider actorSystem,
            @Reference final EntityOwnershipService entityOwnership,
            @Reference final OpenFlowPluginExtensionRegistratorProvider openflowplugin,
            final Map<String, ?> properties) {
        // configurationRestored: unused, but a reference makes Oko start after the stored configuration is restored.
        final var client = new OpenflowpluginSwitchClient(rpcService, timer, SWITCH_TIMEOUT_MILLIS);
        final var resolver = new ProgramResolver(new FilterLibrary(), new FilterCatalog());
        final var loaded = new LoadedPrograms();
        final var state = new OperationalState(broker);
        final var support = new OkoSupport(client, state, broker, pool);
        final var flows = new FilterFlows(client, loaded, state, support, pool, SWITCH_TIMEOUT_MILLIS,
            FilterFlows.RECENT_INSTALL_NANOS);
        final var sendMaps = new SendMapsCollector(broker, notificationPublisher, loaded);
        final var sendMapsReplay = new SendMapsReplay(broker, client, sendMaps, loaded, timer);
        final var events = SwitchEvents.all(flows, sendMapsReplay);
        final var installer = new ProgramInstaller(client, loaded, state, events);
        final var sync = new SwitchSync(broker, resolver, installer, loaded, state, support, pool,
            SWITCH_TIMEOUT_MILLIS);
        final String member = ClusterMember.name(actorSystem);
        final var repair = new MastershipRepair(member, node -> singletonRunsHere(entityOwnership, node),
            OpenflowpluginConnections.find(openflowplugin), timer, pool, MastershipRepair.DEFAULT_GRACE_MILLIS);
        ownership = new SwitchOwnership(member, sync, loaded, state, new ProgramInfoPublisher(broker, resolver),
            support, events, repair);
        final var statistics = new StatisticsPoller(client, state, loaded, support, ownership::ownedNodes, timer,
            pool, statisticsInterval(properties));
        registrations.add(statistics::close);

        registrations.add(mastership.register(ownership));
        reconciliation = reconciliationManager.registerService(ownership);
        // Per switch and per program entry, so that a change reaches only what it touches.
        registrations.add(broker.registerTreeChangeListener(LogicalDatastoreType.CONFIGURATION,
            DataObjectReference.builder(Switches.class).child(Switch.class).build(),
            changes -> configChanges.execute(() -> ownership.switchesChanged(changes))));
        registrations.add(broker.registerTreeChangeListener(LogicalDatastoreType.CONFIGURATION,
            DataObjectReference.builder(Programs.class).child(Program.class).build(),
            changes -> configChanges.execute(() -> ownership.programsChanged(changes))));
        // Flows that name programs: whether they reach their switch (the forwarding rules manager does not say).
        registrations.add(broker.registerTreeChangeListener(LogicalDatastoreType.CONFIGURATION,
            DataObjectReference.builder(Nodes.class).child(Node.class).augmentation(FlowCapableNode.class)
                .child(Table.class).child(Flow.class).build(),
            flows::flowsChanged));
        // A switch gone from the operational inventory: nobody masters it. A switch that appears in it: its
        // description is there to name its software. (A change under a node is ignored.)
        registrations.add(broker.registerTreeChangeListener(LogicalDatastoreType.OPERATIONAL,
            DataObjectReference.builder(Nodes.class).child(Node.class).build(), changes -> {
                for (var change : changes) {
                    final var root = change.getRootNode();
                    if (root.modificationType() == DataObjectModification.ModificationType.DELETE) {
                        final String node = root.dataBefore().getId().getValue();
                        configChanges.execute(() -> ownership.inventoryNodeRemoved(node));
                    } else if (root.dataBefore() == null && root.dataAfter() != null) {
                        final String node = root.dataAfter().getId().getValue();
                        configChanges.execute(() -> ownership.inventoryNodeAdded(node));
                    }
                }
            }));
        registrations.add(notifications.registerListener(ExperimenterMessageFromDev.class,
            sendMapsReplay::onMessage));
        registrations.add(sendMaps::close);
        // SYN guards (docs/syn-guard.md): configured guards run here; their samples come as packet-ins.
        final var synGuards = new SynGuardService(broker, client, new FilterCatalog(), ownership::isOwned, timer,
            pool);
        registrations.add(synGuards::close);
        registrations.add(broker.registerTreeChangeListener(LogicalDatastoreType.CONFIGURATION,
            DataObjectReference.builder(SynGuards.class).child(SynGuard.class).build(),
            changes -> configChanges.execute(() -> synGuards.changed(changes))));
        registrations.add(notifications.registerListener(PacketReceived.class, synGuards::packetIn));
        registrations.add(rpcProvider.registerRpcImplementations(OkoRpcs.implementations(broker, resolver,
            installer, loaded, client, support, ownership::isOwned, member, SWITCH_TIMEOUT_MILLIS)));
        LOG.info("Oko northbound started on cluster member {} (reconciliation priority {})", member,
            SwitchOwnership.RECONCILIATION_PRIORITY);
    }

    @Deactivate
    @Override
    @SuppressWarnings("checkstyle:IllegalCatch")
    public void close() {
        registrations.forEach(Registration::close);
        registrations.clear();
        try {
            reconciliation.close();
        } catch (Exception e) {
            LOG.warn("Could not leave reconciliation", e);
        }
        ownership.close();
        configChanges.shutdownNow();
        pool.shutdownNow();
        timer.shutdownNow();
        LOG.info("Oko northbound stopped");
    }

    static long statisticsInterval(final Map<String, ?> properties) {
        final Object value = properties.get(STATISTICS_INTERVAL);
        if (value == null) {
            return StatisticsPoller.DEFAULT_INTERVAL_MILLIS;
        }
        try {
            final long interval = Long.parseLong(String.valueOf(value).strip());
            if (interval < 0) {
                throw new NumberFormatException("negative");
            }
            return interval;
        } catch (NumberFormatException e) {
            LOG.warn("{}: {} = '{}' is not a number of milliseconds (0 or more); using {}", CONFIGURATION_PID,
                STATISTICS_INTERVAL, value, StatisticsPoller.DEFAULT_INTERVAL_MILLIS);
            return StatisticsPoller.DEFAULT_INTERVAL_MILLIS;
        }
    }

    /**
     * Whether this member runs openflowplugin's cluster singleton for a switch: it owns the singleton's close entity
     * (mdsal registers it only on the member whose services for the switch are started).
     */
    private static Optional<Boolean> singletonRunsHere(final EntityOwnershipService entityOwnership,
            final String node) {
        // Empty when the service did not answer (it logs why): unknown, not "elsewhere".
        return entityOwnership.getOwnershipState(new Entity(SINGLETON_CLOSE_ENTITY_TYPE, node))
            .map(EntityOwnershipState.IS_OWNER::equals);
    }

    private static ThreadFactory named(final String prefix) {
        final AtomicInteger count = new AtomicInteger();
        return runnable -> {
            final Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
