/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.switchio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.SettableFuture;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.binding.api.RpcService;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.SendExperimenter;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.SendExperimenterInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.SendExperimenterOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.SendExperimenterOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.mp.message.service.rev151020.SendExperimenterMpRequest;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.mp.message.service.rev151020.SendExperimenterMpRequestInput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.mp.message.service.rev151020.SendExperimenterMpRequestOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.mp.message.service.rev151020.SendExperimenterMpRequestOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.mp.message.service.rev151020.send.experimenter.mp.request.output.ExperimenterCoreMessageItemBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.transaction.rev150304.SendBarrier;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.transaction.rev150304.SendBarrierOutputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeRef;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapIndex;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.MapType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.entries.EntryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.sections.MapSectionBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.prog.stats.reply.ProgStatsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoDeleteMapEntriesSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoLoadProgSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoUpdateMapSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoDumpMapsRequestSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoDumpMapsReplySalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoProgStatsReplySalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.oko.dump.maps.reply.sal.OkoDumpMapsReplyBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.oko.prog.stats.reply.sal.OkoProgStatsReplyBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.experimenter.core.message.ExperimenterMessageOfChoice;
import org.opendaylight.yangtools.binding.Rpc;
import org.opendaylight.yangtools.yang.common.ErrorType;
import org.opendaylight.yangtools.yang.common.RpcResult;
import org.opendaylight.yangtools.yang.common.RpcResultBuilder;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * The client against openflowplugin's RPCs as a switch answers them: what is sent (message, node, the barrier
 * behind it, splitting), and how answers, refusals and silence come back.
 */
class OpenflowpluginSwitchClientTest {
    private static final String NODE = "openflow:1";
    private static final HexFormat HEX = HexFormat.of();

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final FakeRpcs rpcs = new FakeRpcs();
    private final OpenflowpluginSwitchClient client = new OpenflowpluginSwitchClient(rpcs, timer, 200);

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    /** openflowplugin's RPCs: records each call as "kind node", answers as the test says. */
    private static final class FakeRpcs implements RpcService {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<ExperimenterMessageOfChoice> sent = new CopyOnWriteArrayList<>();
        volatile Function<ExperimenterMessageOfChoice, ListenableFuture<RpcResult<SendExperimenterOutput>>> answer =
            message -> RpcResultBuilder.success(new SendExperimenterOutputBuilder().build()).buildFuture();
        volatile List<ExperimenterMessageOfChoice> replies = List.of();

        @Override
        public <R extends Rpc<?, ?>> R getRpc(final Class<R> type) {
            final Object rpc;
            if (type == SendExperimenter.class) {
                rpc = (SendExperimenter) this::experimenter;
            } else if (type == SendExperimenterMpRequest.class) {
                rpc = (SendExperimenterMpRequest) this::multipart;
            } else if (type == SendBarrier.class) {
                rpc = (SendBarrier) input -> {
                    calls.add("barrier " + node(input.getNode()));
                    return RpcResultBuilder.success(new SendBarrierOutputBuilder().build()).buildFuture();
                };
            } else {
                throw new UnsupportedOperationException(type.getName());
            }
            return type.cast(rpc);
        }

        private ListenableFuture<RpcResult<SendExperimenterOutput>> experimenter(final SendExperimenterInput input) {
            calls.add("experimenter " + node(input.getNode()));
            sent.add(input.getExperimenterMessageOfChoice());
            return answer.apply(input.getExperimenterMessageOfChoice());
        }

        private ListenableFuture<RpcResult<SendExperimenterMpRequestOutput>> multipart(
                final SendExperimenterMpRequestInput input) {
            calls.add("multipart " + node(input.getNode()));
            sent.add(input.getExperimenterMessageOfChoice());
            return RpcResultBuilder.success(new SendExperimenterMpRequestOutputBuilder()
                .setExperimenterCoreMessageItem(replies.stream().map(reply -> new ExperimenterCoreMessageItemBuilder()
                    .setExperimenterMessageOfChoice(reply).build()).toList()).build()).buildFuture();
        }

        private static String node(final NodeRef ref) {
            return ref.equals(OpenflowpluginSwitchClient.nodeRef(NODE)) ? NODE : "another node " + ref;
        }
    }

    @Test
    void loadProgIsSentToTheNodeWithABarrierBehindIt() throws Exception {
        final byte[] elf = HEX.parseHex("7f454c46");
        client.loadProgram(NODE, 7, elf, true, false).get(5, TimeUnit.SECONDS);
        assertEquals(List.of("experimenter openflow:1", "barrier openflow:1"), rpcs.calls);
        final var load = assertInstanceOf(OkoLoadProgSal.class, rpcs.sent.get(0)).getOkoLoadProg();
        assertEquals(7, load.getProgId().getValue().toJava());
        assertEquals(Boolean.TRUE, load.getReplace());
        assertEquals(Boolean.FALSE, load.getKeepMaps());
        assertArrayEquals(elf, load.getElf());
    }

    @Test
    void manyEntriesAreSplitIntoMessagesThatFitAndAllMustBeAccepted() throws Exception {
        // 16-byte entries: (65535 - 32) / 16 = 4093 a message.
        final List<SwitchClient.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            entries.add(new SwitchClient.Entry(HEX.parseHex(String.format("%016x", i)), new byte[8]));
        }
        client.updateMap(NODE, 7, 1, 8, 8, entries).get(5, TimeUnit.SECONDS);
        assertEquals(List.of(4093, 907), rpcs.sent.stream().map(m -> ((OkoUpdateMapSal) m).getOkoUpdateMap()
            .nonnullEntry().size()).toList());
        final var last = ((OkoUpdateMapSal) rpcs.sent.get(1)).getOkoUpdateMap();
        assertEquals(1, last.getMapIndex().getValue().intValue());
        assertEquals(String.format("%016x", 4999), HEX.formatHex(last.nonnullEntry().get(906).getKey()));

        // The switch refuses the second message: the call fails with its words.
        rpcs.sent.clear();
        rpcs.answer = message -> rpcs.sent.size() == 2 ? refused("Device reported error type OKO code"
            + " OKO_EC_MAP_FULL: map 1 is full") : RpcResultBuilder.success(new SendExperimenterOutputBuilder()
                .build()).buildFuture();
        final var failure = assertThrows(ExecutionException.class,
            () -> client.updateMap(NODE, 7, 1, 8, 8, entries).get(5, TimeUnit.SECONDS));
        final SwitchException cause = assertInstanceOf(SwitchException.class, failure.getCause());
        assertEquals(SwitchException.Kind.REFUSED, cause.kind());
        assertEquals("OKO_EC_MAP_FULL: map 1 is full", cause.getMessage());
    }

    @Test
    void deletingAllIsOneMessageWithoutKeys() throws Exception {
        client.deleteMapEntries(NODE, 7, 2, 4, true, List.of()).get(5, TimeUnit.SECONDS);
        assertEquals(1, rpcs.sent.size());
        final var delete = ((OkoDeleteMapEntriesSal) rpcs.sent.get(0)).getOkoDeleteMapEntries();
        assertEquals(Boolean.TRUE, delete.getDeleteAll());
        assertEquals(0, delete.getKeySize().intValue());
        assertEquals(0, delete.nonnullEntry().size());
    }

    @Test
    void aSwitchThatDoesNotAnswerFailsTheCallInTime() throws Exception {
        rpcs.answer = message -> SettableFuture.create();
        final var failure = assertThrows(ExecutionException.class,
            () -> client.unloadProgram(NODE, 7, false).get(5, TimeUnit.SECONDS));
        final SwitchException cause = assertInstanceOf(SwitchException.class, failure.getCause());
        assertEquals(SwitchException.Kind.NO_ANSWER, cause.kind());
        assertEquals("openflow:1 did not answer within 200 ms", cause.getMessage());
    }

    @Test
    void openflowpluginsWordsAreSortedIntoRefusedDisconnectedAndOther() {
        final SwitchException refused = OpenflowpluginSwitchClient.failure(NODE, RpcResultBuilder.failed()
            .withError(ErrorType.APPLICATION, "Device reported error type OKO code OKO_EC_VERIFIER: insn 3: r2"
                + " is not readable").build());
        assertEquals(SwitchException.Kind.REFUSED, refused.kind());
        assertEquals("OKO_EC_VERIFIER: insn 3: r2 is not readable", refused.getMessage());

        final SwitchException gone = OpenflowpluginSwitchClient.failure(NODE, RpcResultBuilder.failed()
            .withError(ErrorType.APPLICATION, "No implementation of RPC AbsoluteSchemaPath{...} available").build());
        assertEquals(SwitchException.Kind.NOT_CONNECTED, gone.kind());
        assertEquals("openflow:1 is not connected to this controller", gone.getMessage());

        final SwitchException other = OpenflowpluginSwitchClient.failure(NODE, RpcResultBuilder.failed().build());
        assertEquals(SwitchException.Kind.NO_ANSWER, other.kind());
        assertEquals("openflow:1 failed the request", other.getMessage());
    }

    @Test
    void dumpRepliesBecomeSectionsInOrder() throws Exception {
        rpcs.replies = List.of(
            new OkoDumpMapsReplySalBuilder().setOkoDumpMapsReply(new OkoDumpMapsReplyBuilder()
                .setProgId(new ProgramId(Uint32.valueOf(7)))
                .setMapSection(List.of(section(1, "0a000001", "01"), section(0, "00000000", null))).build()).build(),
            new OkoDumpMapsReplySalBuilder().setOkoDumpMapsReply(new OkoDumpMapsReplyBuilder()
                .setProgId(new ProgramId(Uint32.valueOf(7)))
                .setMapSection(List.of(section(1, "0a000002", "02"))).build()).build());
        final List<SwitchClient.MapSection> sections = client.dumpMaps(NODE, 7, 0b10).get(5, TimeUnit.SECONDS);
        assertEquals(List.of("multipart openflow:1"), rpcs.calls);
        assertEquals(2, ((OkoDumpMapsRequestSal) rpcs.sent.get(0)).getOkoDumpMapsRequest().getMapMask().longValue());
        assertEquals(List.of("1 0a000001=01", "0 00000000=", "1 0a000002=02"), sections.stream()
            .map(s -> s.mapIndex() + " " + HEX.formatHex(s.entries().get(0).key()) + "="
                + HEX.formatHex(s.entries().get(0).value())).toList());
    }

    @Test
    void statisticsNameTheElfBySha256() throws Exception {
        rpcs.replies = List.of(new OkoProgStatsReplySalBuilder().setOkoProgStatsReply(new OkoProgStatsReplyBuilder()
            .setProgStats(List.of(new ProgStatsBuilder().setProgId(new ProgramId(Uint32.valueOf(7))).setJit(true)
                .setRuns(Uint64.valueOf(10)).setMatches(Uint64.valueOf(4)).setErrors(Uint64.ZERO)
                .setTimedRuns(Uint64.ONE).setTimedNs(Uint64.valueOf(80)).setRules(Uint32.ONE)
                .setDatapathFlows(Uint32.valueOf(2)).setInstructions(Uint32.valueOf(47)).setMemory(Uint64.ZERO)
                .setElfSha256(new byte[32]).build())).build()).build());
        final var programs = client.programStatistics(NODE, 0).get(5, TimeUnit.SECONDS);
        assertEquals(1, programs.size());
        final SwitchClient.ProgramStatistics program = programs.get(0);
        assertEquals(List.of(7L, 10L, 4L, 47L), List.of(program.progId(), program.runs(), program.matches(),
            program.instructions()));
        assertEquals("00".repeat(32), program.elfSha256());
    }

    @Test
    void aReplayWithoutAReplyIsNoAnswer() {
        final var failure = assertThrows(ExecutionException.class,
            () -> client.replayMaps(NODE, 7, null).get(5, TimeUnit.SECONDS));
        final SwitchException cause = assertInstanceOf(SwitchException.class, failure.getCause());
        assertEquals(SwitchException.Kind.NO_ANSWER, cause.kind());
        assertEquals("openflow:1: REPLAY_MAPS answered without a reply", cause.getMessage());
    }

    private static org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.map.sections.MapSection
            section(final int index, final String key, final String value) {
        return new MapSectionBuilder().setMapIndex(new MapIndex(Uint8.valueOf(index))).setMapType(MapType.Hash)
            .setKeySize(Uint16.valueOf(key.length() / 2)).setValueSize(Uint16.valueOf(value == null ? 0
                : value.length() / 2))
            .setEntry(List.of(new EntryBuilder().setKey(HEX.parseHex(key))
                .setValue(value == null ? null : HEX.parseHex(value)).build()))
            .build();
    }

    private static ListenableFuture<RpcResult<SendExperimenterOutput>> refused(final String text) {
        return Futures.immediateFuture(RpcResultBuilder.<SendExperimenterOutput>failed()
            .withError(ErrorType.APPLICATION, text).build());
    }
}
