/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.install.FakeSwitchClient;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OkoSupport;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowCapableNode;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.Table;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.TableKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.FlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.FlowKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.flow.MatchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.FilterProgKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNodesNodeTableFlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.oko.filter.prog.grouping.OkoFilterProgBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.RefusedFlow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.extension.general.rev140714.GeneralAugMatchNodesNodeTableFlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.extension.general.rev140714.general.extension.grouping.ExtensionBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.extension.general.rev140714.general.extension.list.grouping.ExtensionListBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * Flows that name programs, on mdsal's in-memory data broker with a {@link FakeSwitchClient}: which are pushed
 * again, which are listed as refused, and when they leave that list.
 */
class FilterFlowsTest extends AbstractConcurrentDataBrokerTest {
    private static final String NODE = "openflow:1";
    private static final String UNKNOWN_PROG = "OKO_EC_UNKNOWN_PROG: filter_prog 30 is not loaded";

    private final FakeSwitchClient client = new FakeSwitchClient();
    private final LoadedPrograms loaded = new LoadedPrograms();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private DataBroker broker;
    private OperationalState state;
    private OkoSupport support;
    /** Without the window in which a just installed program's flows are pushed once more (one test sets it). */
    private volatile FilterFlows flows;

    @BeforeEach
    void setUp() throws Exception {
        setup();
        broker = getDataBroker();
        state = new OperationalState(broker);
        support = new OkoSupport(client, state, broker, pool);
        flows = new FilterFlows(client, loaded, state, support, pool, 5_000, 0);
        broker.registerTreeChangeListener(LogicalDatastoreType.CONFIGURATION,
            DataObjectReference.builder(Nodes.class).child(Node.class).augmentation(FlowCapableNode.class)
                .child(Table.class).child(Flow.class).build(),
            changes -> flows.flowsChanged(changes));
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    @Test
    void flowWrittenBeforeItsProgramIsListedWithTheSwitchsReasonThenPushedWhenTheProgramIsInstalled()
            throws Exception {
        probedAndReady();
        client.refusals.put("flow", UNKNOWN_PROG);
        writeFlow(NODE, "limit", 30);
        waitFor(() -> refused(NODE, "limit").map(f -> f.getReason().equals(UNKNOWN_PROG)
            && f.getProgramId().getValue().toJava() == 30 && f.getRefusedAt() != null).orElse(false),
            "the refused flow was not listed: " + client.sent);
        assertEquals(List.of(NODE + " stats 0", NODE + " flow limit"), client.sent);

        client.refusals.remove("flow");
        installed(30);
        waitFor(() -> refused(NODE, "limit").isEmpty(), "the flow stayed listed after it was accepted");
        assertEquals(List.of(NODE + " stats 0", NODE + " flow limit", NODE + " flow limit"), client.sent);
    }

    @Test
    void anotherProgramsInstallationDoesNotPushTheFlow() throws Exception {
        probedAndReady();
        client.refusals.put("flow", UNKNOWN_PROG);
        writeFlow(NODE, "limit", 30);
        waitFor(() -> refused(NODE, "limit").isPresent(), "the refused flow was not listed");
        flows.programInstalled(NODE, 31);
        // Work for one switch runs in order: once a later flow was handled, the installation was too.
        writeFlow(NODE, "marker", 32);
        waitFor(() -> client.sent.contains(NODE + " flow marker"), "the marker flow was not pushed");
        assertEquals(1, client.sent.stream().filter(m -> m.equals(NODE + " flow limit")).count(),
            client.sent::toString);
    }

    @Test
    void flowWhoseProgramIsInstalledIsLeftToTheForwardingRulesManager() throws Exception {
        probedAndReady();
        installed(30);
        writeFlow(NODE, "limit", 30);
        writeFlow(NODE, "marker", 31);
        waitFor(() -> client.sent.contains(NODE + " flow marker"), "the marker flow was not pushed");
        assertTrue(!client.sent.contains(NODE + " flow limit"), client.sent::toString);
    }

    @Test
    void flowConfiguredRightAfterItsProgramWasInstalledIsPushedOnceMore() throws Exception {
        // The forwarding rules manager may have pushed it before the program reached the switch.
        flows = new FilterFlows(client, loaded, state, support, pool, 5_000, FilterFlows.RECENT_INSTALL_NANOS);
        probedAndReady();
        installed(30);
        writeFlow(NODE, "limit", 30);
        waitFor(() -> client.sent.contains(NODE + " flow limit"), "the flow was not pushed");
    }

    @Test
    void switchWithoutOkoGetsNothingAndItsFlowsAreListed() throws Exception {
        client.refusals.put("stats", "BADEXPERIMENTER");
        probedAndReady();
        writeFlow(NODE, "limit", 30);
        waitFor(() -> refused(NODE, "limit").map(f -> f.getReason().startsWith(
            "openflow:1 does not support Oko") && f.getReason().contains("filter_prog")).orElse(false),
            "the flow was not listed");
        assertEquals(List.of(NODE + " stats 0"), client.sent);
    }

    @Test
    void switchWithoutOkoNamedWithItsSoftwareLaterKeepsItsEntriesWithTheNewReason() throws Exception {
        client.refusals.put("stats", "BADEXPERIMENTER");
        probedAndReady();
        writeFlow(NODE, "limit", 30);
        waitFor(() -> refused(NODE, "limit").isPresent(), "the flow was not listed");
        final var first = refused(NODE, "limit").orElseThrow();
        // The inventory names its software now (SwitchOwnership.inventoryNodeAdded): ready again, not gone.
        ready();
        writeFlow(NODE, "second", 31);
        waitFor(() -> refused(NODE, "second").isPresent(), "the second flow was not listed");
        assertEquals(first.getRefusedAt(), refused(NODE, "limit").orElseThrow().getRefusedAt());
        assertEquals(List.of(NODE + " stats 0"), client.sent);
    }

    @Test
    void deletedFlowLeavesTheList() throws Exception {
        probedAndReady();
        client.refusals.put("flow", UNKNOWN_PROG);
        writeFlow(NODE, "limit", 30);
        waitFor(() -> refused(NODE, "limit").isPresent(), "the refused flow was not listed");
        final var tx = broker.newWriteOnlyTransaction();
        tx.delete(LogicalDatastoreType.CONFIGURATION, flowPath(NODE, "limit"));
        tx.commit().get(5, TimeUnit.SECONDS);
        waitFor(() -> refused(NODE, "limit").isEmpty(), "the deleted flow stayed listed");
    }

    @Test
    void flowWithoutFilterProgIsNotTouched() throws Exception {
        probedAndReady();
        final var tx = broker.newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, flowPath(NODE, "plain"),
            new FlowBuilder().setId(new FlowId("plain")).setTableId(Uint8.ZERO).setPriority(Uint16.TEN).build());
        tx.commit().get(5, TimeUnit.SECONDS);
        writeFlow(NODE, "marker", 31);
        waitFor(() -> client.sent.contains(NODE + " flow marker"), "the marker flow was not pushed");
        assertTrue(!client.sent.contains(NODE + " flow plain"), client.sent::toString);
    }

    @Test
    void flowsOfASwitchMasteredElsewhereAreLeftAlone() throws Exception {
        probedAndReady();
        writeFlow("openflow:2", "limit", 30);
        writeFlow(NODE, "marker", 31);
        waitFor(() -> client.sent.contains(NODE + " flow marker"), "the marker flow was not pushed");
        Thread.sleep(300);          // openflow:2's work would run on its own executor: give it the time
        assertTrue(client.sent.stream().noneMatch(m -> m.startsWith("openflow:2")), client.sent::toString);
    }

    @Test
    void reconnectPushesFlowsWhoseProgramIsMissingAndReplacesTheList() throws Exception {
        probedAndReady();
        installed(30);
        writeFlow(NODE, "limit", 30);
        writeFlow(NODE, "other", 31);
        waitFor(() -> client.sent.contains(NODE + " flow other"), "the flow of the missing program was not pushed");
        client.sent.clear();
        client.refusals.put("flow", "OKO_EC_UNKNOWN_PROG: filter_prog 31 is not loaded");
        ready();
        waitFor(() -> refused(NODE, "other").isPresent(), "the flow of the missing program was not listed");
        assertEquals(List.of(NODE + " flow other"), client.sent);

        // Another instance masters it now: the list stays for it to replace, and nothing more is sent from here.
        flows.switchForgotten(NODE);
        writeFlow(NODE, "third", 32);
        writeFlow("openflow:3", "ignored", 32);
        Thread.sleep(300);
        assertTrue(refused(NODE, "other").isPresent());
        assertEquals(List.of(NODE + " flow other"), client.sent);

        // Back here with program 31 installed meanwhile: the old list goes, the missing program's flow is pushed.
        client.refusals.remove("flow");
        loaded.put(NODE, 31, new LoadedPrograms.Loaded(null, LoadedPrograms.Origin.CONFIG, "x"));
        ready();
        waitFor(() -> refused(NODE, "other").isEmpty(), "the old list stayed");
        waitFor(() -> client.sent.contains(NODE + " flow third"), "the flow of program 32 was not pushed");
        assertTrue(!client.sent.subList(1, client.sent.size()).contains(NODE + " flow other"), client.sent::toString);
    }

    @Test
    void flowsTheSwitchDeletedWithAForcedUnloadAreListedAndPushedWhenTheProgramIsBack() throws Exception {
        probedAndReady();
        installed(30);
        writeFlow(NODE, "limit", 30);
        writeFlow(NODE, "marker", 31);
        waitFor(() -> client.sent.contains(NODE + " flow marker"), "the marker flow was not pushed");
        flows.programUnloaded(NODE, 30, false);
        flows.programUnloaded(NODE, 30, true);
        waitFor(() -> refused(NODE, "limit").map(f -> f.getReason().equals(
            "removed by the switch when program 30 was unloaded (force)")).orElse(false), "the flow was not listed");
        flows.programInstalled(NODE, 30);
        waitFor(() -> refused(NODE, "limit").isEmpty(), "the flow stayed listed");
        assertTrue(client.sent.contains(NODE + " flow limit"), client.sent::toString);
    }

    /** The switch answered the probe, is mastered here and its flows are checked. */
    private void probedAndReady() throws Exception {
        support.probe(NODE).get(5, TimeUnit.SECONDS);
        ready();
    }

    /** The switch is mastered here and its flows are checked (what switchReady queued has run). */
    private void ready() throws Exception {
        flows.switchReady(NODE);
        flows.flushed(NODE).get(5, TimeUnit.SECONDS);
    }

    /** The program is loaded on the switch, installed long enough ago for flows configured now. */
    private void installed(final long progId) {
        loaded.put(NODE, progId, new LoadedPrograms.Loaded(null, LoadedPrograms.Origin.CONFIG, "x"));
        flows.programInstalled(NODE, progId);
    }

    private void writeFlow(final String node, final String id, final long progId) throws Exception {
        final var extension = new ExtensionBuilder().addAugmentation(new OkoFilterProgNodesNodeTableFlowBuilder()
            .setOkoFilterProg(new OkoFilterProgBuilder().setProgId(new ProgramId(Uint32.valueOf(progId))).build())
            .build()).build();
        final var match = new MatchBuilder().addAugmentation(new GeneralAugMatchNodesNodeTableFlowBuilder()
            .setExtensionList(BindingMap.of(new ExtensionListBuilder().setExtensionKey(FilterProgKey.VALUE)
                .setExtension(extension).build())).build()).build();
        final var tx = broker.newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.CONFIGURATION, flowPath(node, id), new FlowBuilder()
            .setId(new FlowId(id)).setTableId(Uint8.ZERO).setPriority(Uint16.valueOf(300)).setMatch(match).build());
        tx.commit().get(5, TimeUnit.SECONDS);
    }

    private static DataObjectIdentifier<Flow> flowPath(final String node, final String id) {
        return DataObjectIdentifier.builder(Nodes.class).child(Node.class, new NodeKey(new NodeId(node)))
            .augmentation(FlowCapableNode.class).child(Table.class, new TableKey(Uint8.ZERO))
            .child(Flow.class, new FlowKey(new FlowId(id))).build();
    }

    private Optional<RefusedFlow> refused(final String node, final String flowId) {
        try (var tx = broker.newReadOnlyTransaction()) {
            return tx.read(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(node)).get(5, TimeUnit.SECONDS)
                .flatMap(sw -> sw.nonnullRefusedFlow().values().stream()
                    .filter(f -> f.getFlowId().equals(flowId)).findFirst());
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void waitFor(final BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what);
            }
            Thread.sleep(20);
        }
    }
}
