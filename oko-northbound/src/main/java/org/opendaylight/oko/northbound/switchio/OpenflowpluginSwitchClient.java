/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.switchio;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.opendaylight.mdsal.binding.api.RpcService;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.SendExperimenter;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.SendExperimenterInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.mp.message.service.rev151020.SendExperimenterMpRequest;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.mp.message.service.rev151020.SendExperimenterMpRequestInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.Table;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.service.rev130819.AddFlow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.service.rev130819.AddFlowInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.service.rev130819.FlowTableRef;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.transaction.rev150304.SendBarrier;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.transaction.rev150304.SendBarrierInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.transaction.rev150304.SendBarrierOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.FlowRef;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeRef;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapIndex;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.SendMaps;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.entries.EntryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.prog.stats.reply.ProgStats;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoDeleteMapEntriesSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoLoadProgSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoMarkInstalledSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoUnloadProgSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoUpdateMapSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.oko.delete.map.entries.sal.OkoDeleteMapEntriesBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.oko.load.prog.sal.OkoLoadProgBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.oko.mark.installed.sal.OkoMarkInstalledBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.oko.unload.prog.sal.OkoUnloadProgBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.oko.update.map.sal.OkoUpdateMapBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoDumpMapsRequestSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoProgStatsRequestSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoReplayMapsRequestSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.oko.dump.maps.request.sal.OkoDumpMapsRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.oko.prog.stats.request.sal.OkoProgStatsRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.oko.replay.maps.request.sal.OkoReplayMapsRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoDumpMapsReplySal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoProgStatsReplySal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoReplayMapsReplySal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.experimenter.core.message.ExperimenterMessageOfChoice;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.yang.common.RpcError;
import org.opendaylight.yangtools.yang.common.RpcResult;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SwitchClient} over openflowplugin's routed experimenter RPCs (send-experimenter, which completes when
 * the switch answers the barrier behind the message, and send-experimenter-mp-request), with the Oko cases of
 * openflowjava-oko-ext. Only the controller instance that masters a switch has its RPCs; elsewhere the call fails
 * with "not connected".
 */
public final class OpenflowpluginSwitchClient implements SwitchClient {
    /** Largest OpenFlow message; UPDATE_MAP and DELETE_MAP_ENTRIES are split to fit. */
    static final int MAX_MESSAGE = 65535;
    static final int MAP_MESSAGE_HEADER = 32;
    private static final Logger LOG = LoggerFactory.getLogger(OpenflowpluginSwitchClient.class);
    private static final String DEVICE_ERROR_CODE = " code ";

    private final RpcService rpcs;
    private final ScheduledExecutorService timer;
    private final long timeoutMillis;

    public OpenflowpluginSwitchClient(final RpcService rpcs, final ScheduledExecutorService timer,
            final long timeoutMillis) {
        this.rpcs = requireNonNull(rpcs);
        this.timer = requireNonNull(timer);
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public ListenableFuture<Void> loadProgram(final String node, final long progId, final byte[] elf,
            final boolean replace, final boolean keepMaps) {
        return send(node, new OkoLoadProgSalBuilder().setOkoLoadProg(new OkoLoadProgBuilder()
            .setProgId(programId(progId)).setReplace(replace).setKeepMaps(keepMaps).setElf(elf).build()).build());
    }

    @Override
    public ListenableFuture<Void> unloadProgram(final String node, final long progId, final boolean force) {
        return send(node, new OkoUnloadProgSalBuilder().setOkoUnloadProg(new OkoUnloadProgBuilder()
            .setProgId(programId(progId)).setForce(force).build()).build());
    }

    @Override
    public ListenableFuture<Void> markInstalled(final String node, final long progId, final byte[] installMark) {
        return send(node, new OkoMarkInstalledSalBuilder().setOkoMarkInstalled(new OkoMarkInstalledBuilder()
            .setProgId(programId(progId)).setInstallMark(installMark.clone()).build()).build());
    }

    @Override
    public ListenableFuture<Void> updateMap(final String node, final long progId, final int mapIndex,
            final int keySize, final int valueSize, final List<Entry> entries) {
        final List<ListenableFuture<Void>> sent = new ArrayList<>();
        for (List<Entry> batch : batches(entries, keySize + valueSize)) {
            sent.add(send(node, new OkoUpdateMapSalBuilder().setOkoUpdateMap(new OkoUpdateMapBuilder()
                .setProgId(programId(progId))
                .setMapIndex(new MapIndex(Uint8.valueOf(mapIndex)))
                .setKeySize(Uint16.valueOf(keySize))
                .setValueSize(Uint16.valueOf(valueSize))
                .setEntry(batch.stream().map(e -> new EntryBuilder().setKey(e.key()).setValue(e.value()).build())
                    .toList())
                .build()).build()));
        }
        return allOf(sent);
    }

    @Override
    public ListenableFuture<Void> deleteMapEntries(final String node, final long progId, final int mapIndex,
            final int keySize, final boolean all, final List<byte[]> keys) {
        final List<List<Entry>> batches = all ? List.of(List.of())
            : batches(keys.stream().map(k -> new Entry(k, new byte[0])).toList(), keySize);
        final List<ListenableFuture<Void>> sent = new ArrayList<>();
        for (List<Entry> batch : batches) {
            sent.add(send(node, new OkoDeleteMapEntriesSalBuilder().setOkoDeleteMapEntries(
                new OkoDeleteMapEntriesBuilder()
                    .setProgId(programId(progId))
                    .setMapIndex(new MapIndex(Uint8.valueOf(mapIndex)))
                    .setDeleteAll(all)
                    .setKeySize(Uint16.valueOf(all ? 0 : keySize))
                    .setEntry(batch.stream().map(e -> new EntryBuilder().setKey(e.key()).build()).toList())
                    .build()).build()));
        }
        return allOf(sent);
    }

    @Override
    public ListenableFuture<List<MapSection>> dumpMaps(final String node, final long progId, final long mapMask) {
        return Futures.transform(multipart(node, new OkoDumpMapsRequestSalBuilder().setOkoDumpMapsRequest(
            new OkoDumpMapsRequestBuilder().setProgId(programId(progId)).setMapMask(Uint64.fromLongBits(mapMask))
                .build()).build()), replies -> {
                    final List<MapSection> sections = new ArrayList<>();
                    for (ExperimenterMessageOfChoice choice : replies) {
                        if (!(choice instanceof OkoDumpMapsReplySal reply)) {
                            continue;
                        }
                        for (var section : reply.getOkoDumpMapsReply().nonnullMapSection()) {
                            sections.add(new MapSection(section.getMapIndex().getValue().intValue(),
                                section.getMapType().getIntValue(), section.getKeySize().intValue(),
                                section.getValueSize().intValue(), section.nonnullEntry().stream()
                                    .map(e -> new Entry(e.getKey(), e.getValue() == null ? new byte[0] : e.getValue()))
                                    .toList()));
                        }
                    }
                    return sections;
                }, MoreExecutors.directExecutor());
    }

    @Override
    public ListenableFuture<List<ProgramStatistics>> programStatistics(final String node, final long progId) {
        return Futures.transform(multipart(node, new OkoProgStatsRequestSalBuilder().setOkoProgStatsRequest(
            new OkoProgStatsRequestBuilder().setProgId(Uint32.valueOf(progId)).build()).build()), replies -> {
                final List<ProgramStatistics> programs = new ArrayList<>();
                for (ExperimenterMessageOfChoice choice : replies) {
                    if (choice instanceof OkoProgStatsReplySal reply) {
                        reply.getOkoProgStatsReply().nonnullProgStats().forEach(p -> programs.add(statistics(p)));
                    }
                }
                return programs;
            }, MoreExecutors.directExecutor());
    }

    @Override
    public ListenableFuture<Replay> replayMaps(final String node, final long progId, final Long afterEventId) {
        return Futures.transformAsync(multipart(node, new OkoReplayMapsRequestSalBuilder().setOkoReplayMapsRequest(
            new OkoReplayMapsRequestBuilder()
                .setProgId(programId(progId))
                .setAfterEventId(Uint32.valueOf(afterEventId == null ? 0 : afterEventId))
                .setAll(afterEventId == null)
                .build()).build()), replies -> {
                    long next = -1;
                    final List<SendMaps> fragments = new ArrayList<>();
                    for (ExperimenterMessageOfChoice choice : replies) {
                        if (choice instanceof OkoReplayMapsReplySal sal) {
                            final var reply = sal.getOkoReplayMapsReply();
                            next = reply.requireNextEventId().toJava();
                            if (reply.getEvent() != null) {
                                fragments.add(reply.getEvent());
                            }
                        }
                    }
                    return next < 0 ? Futures.immediateFailedFuture(new SwitchException(
                        node + ": REPLAY_MAPS answered without a reply", SwitchException.Kind.NO_ANSWER))
                        : Futures.immediateFuture(new Replay(next, fragments));
                }, MoreExecutors.directExecutor());
    }

    /**
     * send-experimenter-mp-request: each reply message's item, in order. A request the switch refuses, or that
     * gets no answer in time, fails the future with a {@link SwitchException}.
     */
    private ListenableFuture<List<ExperimenterMessageOfChoice>> multipart(final String node,
            final ExperimenterMessageOfChoice request) {
        final var input = new SendExperimenterMpRequestInputBuilder()
            .setNode(nodeRef(node))
            .setExperimenterMessageOfChoice(request)
            .build();
        return Futures.transformAsync(withTimeout(node, rpcs.getRpc(SendExperimenterMpRequest.class).invoke(input)),
            result -> result.isSuccessful()
                ? Futures.immediateFuture(result.getResult().nonnullExperimenterCoreMessageItem().stream()
                    .map(item -> item.getExperimenterMessageOfChoice()).toList())
                : Futures.immediateFailedFuture(failure(node, result)), MoreExecutors.directExecutor());
    }

    @Override
    public ListenableFuture<Void> addFlow(final String node, final DataObjectIdentifier<Flow> path, final Flow flow) {
        // The input the forwarding rules manager builds for a configured flow: openflowplugin then knows the flow
        // by its configuration id (flow-ref), and Oko's match and action converters see the same classes.
        final var input = new AddFlowInputBuilder(flow)
            .setNode(nodeRef(node))
            .setFlowRef(new FlowRef(path))
            .setFlowTable(new FlowTableRef(path.trimTo(Table.class)))
            .build();
        return answeredAtBarrier(node, rpcs.getRpc(AddFlow.class).invoke(input));
    }

    private static ProgramStatistics statistics(final ProgStats prog) {
        return new ProgramStatistics(prog.getProgId().getValue().toJava(), Boolean.TRUE.equals(prog.getJit()),
            prog.requireRuns().longValue(), prog.requireMatches().longValue(), prog.requireErrors().longValue(),
            prog.requireTimedRuns().longValue(), prog.requireTimedNs().longValue(), prog.requireRules().toJava(),
            prog.requireDatapathFlows().toJava(), prog.requireInstructions().toJava(),
            prog.requireMemory().longValue(), prog.nonnullMapStats().stream()
                .map(m -> new MapStatistics(m.requireMapType().getIntValue(), m.requireUsed().toJava(),
                    m.requireMaxEntries().toJava(), m.requireEvictions().longValue(),
                    m.requireRefusedFull().longValue()))
                .toList(),
            prog.getElfSha256() == null ? null : HexFormat.of().formatHex(prog.getElfSha256()),
            prog.getInstallMark() == null ? null : HexFormat.of().formatHex(prog.getInstallMark()));
    }

    /** Entries in groups that fit one message each. */
    static List<List<Entry>> batches(final List<Entry> entries, final int entrySize) {
        final int perMessage = Math.max(1, (MAX_MESSAGE - MAP_MESSAGE_HEADER) / Math.max(1, entrySize));
        final List<List<Entry>> batches = new ArrayList<>();
        for (int start = 0; start < entries.size(); start += perMessage) {
            batches.add(entries.subList(start, Math.min(entries.size(), start + perMessage)));
        }
        return batches;
    }

    private ListenableFuture<Void> send(final String node, final ExperimenterMessageOfChoice message) {
        final var input = new SendExperimenterInputBuilder()
            .setNode(nodeRef(node))
            .setExperimenterMessageOfChoice(message)
            .build();
        return answeredAtBarrier(node, rpcs.getRpc(SendExperimenter.class).invoke(input));
    }

    /** A call openflowplugin completes at the next barrier: a barrier right behind it, the switch's verdict. */
    private <T> ListenableFuture<Void> answeredAtBarrier(final String node,
            final ListenableFuture<RpcResult<T>> call) {
        final var answered = withTimeout(node, call);
        requestBarrier(node);
        return Futures.transformAsync(answered,
            result -> result.isSuccessful() ? Futures.immediateVoidFuture()
                : Futures.immediateFailedFuture(failure(node, result)),
            MoreExecutors.directExecutor());
    }

    /**
     * openflowplugin completes a send-experimenter call when the switch answers the next barrier, and sends
     * barriers on its own only every barrier-interval-timeout-limit (500 ms by default): every Oko message would
     * take half a second. A barrier requested right behind it answers it at once. Its own result does not matter:
     * a switch that does not answer fails the message's call, which has its own timeout.
     */
    private void requestBarrier(final String node) {
        Futures.addCallback(rpcs.getRpc(SendBarrier.class).invoke(new SendBarrierInputBuilder()
            .setNode(nodeRef(node)).build()), new FutureCallback<RpcResult<SendBarrierOutput>>() {
                @Override
                public void onSuccess(final RpcResult<SendBarrierOutput> result) {
                    if (!result.isSuccessful()) {
                        LOG.debug("{}: barrier after an Oko message not answered: {}", node, result.getErrors());
                    }
                }

                @Override
                public void onFailure(final Throwable cause) {
                    LOG.debug("{}: barrier after an Oko message failed", node, cause);
                }
            }, MoreExecutors.directExecutor());
    }

    private <T> ListenableFuture<RpcResult<T>> withTimeout(final String node,
            final ListenableFuture<RpcResult<T>> call) {
        return FluentFuture.from(call)
            .withTimeout(timeoutMillis, TimeUnit.MILLISECONDS, timer)
            .catchingAsync(TimeoutException.class, e -> Futures.immediateFailedFuture(new SwitchException(
                node + " did not answer within " + timeoutMillis + " ms", SwitchException.Kind.NO_ANSWER)),
                MoreExecutors.directExecutor());
    }

    private static ListenableFuture<Void> allOf(final List<ListenableFuture<Void>> futures) {
        return Futures.transform(Futures.allAsList(futures), ignored -> null, MoreExecutors.directExecutor());
    }

    /**
     * The switch's words from a failed RPC result. openflowplugin reports a switch error as "Device reported error
     * type OKO code OKO_EC_...: text"; the part after "code" is the Oko error name and text.
     */
    static SwitchException failure(final String node, final RpcResult<?> result) {
        final String text = result.getErrors().stream().map(OpenflowpluginSwitchClient::describe)
            .collect(Collectors.joining("; "));
        final int code = text.indexOf(DEVICE_ERROR_CODE);
        if (text.startsWith("Device reported error") && code >= 0) {
            return new SwitchException(text.substring(code + DEVICE_ERROR_CODE.length()), SwitchException.Kind.REFUSED);
        }
        if (text.contains("No implementation of RPC")) {
            return new SwitchException(node + " is not connected to this controller",
                SwitchException.Kind.NOT_CONNECTED);
        }
        return new SwitchException(text.isEmpty() ? node + " failed the request" : text,
            SwitchException.Kind.NO_ANSWER);
    }

    private static String describe(final RpcError error) {
        final String message = error.getMessage();
        return message != null ? message : String.valueOf(error.getCause());
    }

    static NodeRef nodeRef(final String node) {
        return new NodeRef(DataObjectIdentifier.builder(Nodes.class)
            .child(Node.class, new NodeKey(new NodeId(node))).build());
    }

    private static ProgramId programId(final long progId) {
        return new ProgramId(Uint32.valueOf(progId));
    }
}
