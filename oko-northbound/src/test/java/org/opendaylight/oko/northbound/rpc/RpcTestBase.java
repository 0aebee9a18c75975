/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.ListenableFuture;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.opendaylight.mdsal.binding.dom.adapter.test.AbstractConcurrentDataBrokerTest;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.FilterLibrary;
import org.opendaylight.oko.northbound.install.FakeSwitchClient;
import org.opendaylight.oko.northbound.install.LoadedPrograms;
import org.opendaylight.oko.northbound.install.OkoSupport;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.install.ProgramInstaller;
import org.opendaylight.oko.northbound.install.SwitchEvents;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.load.program.input.what.InlineBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.LibraryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchBuilder;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.ErrorTag;
import org.opendaylight.yangtools.yang.common.RpcError;
import org.opendaylight.yangtools.yang.common.RpcResult;
import org.opendaylight.yangtools.yang.common.Uint32;

/**
 * The RPCs against an in-memory datastore and a fake switch: a connected switch {@value #NODE} mastered by this
 * member, and helpers to make it unknown, mastered elsewhere or without Oko.
 */
abstract class RpcTestBase extends AbstractConcurrentDataBrokerTest {
    static final String NODE = "openflow:1";
    static final String MEMBER = "member-1";

    final FakeSwitchClient client = new FakeSwitchClient();
    final LoadedPrograms loaded = new LoadedPrograms();
    final Set<String> mastered = ConcurrentHashMap.newKeySet();
    final ExecutorService pool = Executors.newCachedThreadPool();
    ProgramResolver resolver;
    ProgramInstaller installer;
    OkoSupport support;
    RpcTargets targets;

    @BeforeEach
    final void setUpSwitch() throws Exception {
        setup();
        final OperationalState state = new OperationalState(getDataBroker());
        resolver = new ProgramResolver(new FilterLibrary(), new FilterCatalog());
        installer = new ProgramInstaller(client, loaded, state, SwitchEvents.NONE);
        support = new OkoSupport(client, state, getDataBroker(), pool);
        targets = new RpcTargets(getDataBroker(), loaded, support, mastered::contains, MEMBER, 5_000);
        connect(NODE);
    }

    @AfterEach
    final void stopPool() {
        pool.shutdownNow();
    }

    /** The switch appears in the operational inventory, mastered by this member. */
    final void connect(final String node) throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier.builder(Nodes.class)
            .child(Node.class, new NodeKey(new NodeId(node))).build(), new NodeBuilder().setId(new NodeId(node))
                .build());
        tx.commit().get();
        mastered.add(node);
    }

    /** Another member masters the switch, as the operational /switches says. */
    final void masteredBy(final String node, final String member) throws Exception {
        mastered.remove(node);
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, OperationalState.switchPath(node),
            new SwitchBuilder().setNode(new NodeId(node)).setConnected(true).setMaster(member).build());
        tx.commit().get();
    }

    /** The switch answered the Oko probe as a switch without Oko does. */
    final void withoutOko(final String node) throws Exception {
        client.refusals.put("stats", "BADEXPERIMENTER");
        support.probe(node).get(10, TimeUnit.SECONDS);
        client.refusals.remove("stats");
        client.sent.clear();
    }

    /** Loads a library filter on {@value #NODE} through load-program, as an operator would first. */
    final void loadFilter(final long progId, final String filter) throws Exception {
        final RpcResult<?> result = new LoadProgramImpl(targets, resolver, installer).invoke(
            new LoadProgramInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(progId))
                .setWhat(new InlineBuilder().setSource(new LibraryBuilder()
                    .setLibraryFilter(new LibraryFilterName(filter)).build()).build())
                .build()).get(10, TimeUnit.SECONDS);
        assertTrue(result.isSuccessful(), () -> "loading " + filter + ": " + result.getErrors());
        client.sent.clear();
    }

    static ProgramId progId(final long id) {
        return new ProgramId(Uint32.valueOf(id));
    }

    static <O> O success(final ListenableFuture<RpcResult<O>> future) throws Exception {
        final RpcResult<O> result = future.get(10, TimeUnit.SECONDS);
        assertTrue(result.isSuccessful(), () -> "failed: " + result.getErrors());
        return result.getResult();
    }

    /** The RPC failed with this one error: its tag and message, as the RESTCONF caller reads them. */
    static void assertRefused(final ListenableFuture<? extends RpcResult<?>> future, final ErrorTag tag,
            final String message) throws Exception {
        final RpcResult<?> result = future.get(10, TimeUnit.SECONDS);
        assertFalse(result.isSuccessful(), "the RPC succeeded");
        assertEquals(1, result.getErrors().size(), () -> "errors: " + result.getErrors());
        final RpcError error = result.getErrors().iterator().next();
        assertEquals(tag, error.getTag(), () -> "tag of '" + error.getMessage() + "'");
        assertEquals(message, error.getMessage());
    }
}
