/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.convertor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.openflowjava.codec.action.SendMapsActionCodec;
import org.opendaylight.oko.openflowjava.codec.match.FilterProgCodec;
import org.opendaylight.oko.openflowjava.codec.message.LoadProgCodec;
import org.opendaylight.oko.openflowjava.codec.message.MarkInstalledCodec;
import org.opendaylight.oko.openflowjava.vectors.ProtocolVector;
import org.opendaylight.openflowplugin.extension.api.exception.ConversionException;
import org.opendaylight.openflowplugin.extension.api.path.ActionPath;
import org.opendaylight.openflowplugin.extension.api.path.MatchPath;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNodesNodeTableFlow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNodesNodeTableFlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.nodes.node.table.flow.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsNodesNodeTableFlowApplyActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.nodes.node.table.flow.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsNodesNodeTableFlowApplyActionsCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.oko.filter.prog.grouping.OkoFilterProgBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.oko.send.maps.grouping.OkoSendMapsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoLoadProgSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoLoadProgSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoMarkInstalledSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoMarkInstalledSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.oko.load.prog.sal.OkoLoadProgBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.oko.mark.installed.sal.OkoMarkInstalledBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.extension.general.rev140714.general.extension.grouping.ExtensionBuilder;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;

/**
 * MD-SAL objects, as RESTCONF writes them, convert to exactly the bytes of the protocol vectors, and back.
 */
class ConvertorsTest {
    private static final int EXPERIMENTER_HEADER = 16;

    private final OkoConvertors convertors = new OkoConvertors();

    private static byte[] vector(final String name) {
        return ProtocolVector.all().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow().bytes();
    }

    @Test
    void filterProgFromFlowExtensionIsTheOxmVector() {
        final var extension = new ExtensionBuilder()
            .addAugmentation(new OkoFilterProgNodesNodeTableFlowBuilder()
                .setOkoFilterProg(new OkoFilterProgBuilder().setProgId(new ProgramId(Uint32.valueOf(42))).build())
                .build())
            .build();
        final var entry = convertors.filterProg().convert(extension);
        final var out = Unpooled.buffer();
        new FilterProgCodec().serialize(entry, out);
        assertArrayEquals(vector("oxm_filter_prog"), ByteBufUtil.getBytes(out));

        final var back = convertors.filterProg().convert(entry, MatchPath.FLOWS_STATISTICS_UPDATE_MATCH);
        assertEquals(OkoFilterProgNodesNodeTableFlow.class, back.getAugmentationClass());
        assertEquals(42, ((OkoFilterProgNodesNodeTableFlow) back.getAugmentationObject()).getOkoFilterProg()
            .getProgId().getValue().intValue());
    }

    @Test
    void extensionWithoutFilterProgIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> convertors.filterProg().convert(new ExtensionBuilder()
            .build()));
    }

    @Test
    void sendMapsFromApplyActionsIsTheActionVector() {
        final var action = convertors.sendMapsAction().convert(
            new OkoSendMapsNodesNodeTableFlowApplyActionsCaseBuilder()
                .setOkoSendMaps(new OkoSendMapsBuilder().setMapMask(Uint64.valueOf(3)).build())
                .build());
        final var out = Unpooled.buffer();
        new SendMapsActionCodec().serialize(action, out);
        assertArrayEquals(vector("action_send_maps"), ByteBufUtil.getBytes(out));

        final var back = assertInstanceOf(OkoSendMapsNodesNodeTableFlowApplyActionsCase.class,
            convertors.sendMapsAction().convert(action, ActionPath.INVENTORY_FLOWNODE_TABLE_APPLY_ACTIONS));
        assertEquals(Uint64.valueOf(3), back.getOkoSendMaps().getMapMask());
    }

    @Test
    @SuppressWarnings("unchecked")
    void loadProgFromSendExperimenterIsTheMessageVector() throws ConversionException {
        final byte[] vector = vector("load_prog");
        final byte[] elf = Arrays.copyOfRange(vector, 32, vector.length);
        final var convertor = (MessageConvertor<OkoLoadProgSal>) convertors.messages().get(0);
        assertEquals(OkoLoadProgSal.class, convertor.salCase());
        final var body = convertor.convert(new OkoLoadProgSalBuilder()
            .setOkoLoadProg(new OkoLoadProgBuilder().setProgId(new ProgramId(Uint32.valueOf(7))).setElf(elf).build())
            .build(), null);
        final var out = Unpooled.buffer();
        new LoadProgCodec().serialize(body, out);
        assertArrayEquals(Arrays.copyOfRange(vector, EXPERIMENTER_HEADER, vector.length), ByteBufUtil.getBytes(out));
        assertEquals(1, convertor.getType().intValue());
        assertEquals(0x4F4B4F00L, convertor.getExperimenterId().getValue().longValue());
    }

    @Test
    @SuppressWarnings("unchecked")
    void markInstalledFromSendExperimenterIsTheMessageVector() throws ConversionException {
        final byte[] vector = vector("mark_installed");
        final byte[] mark = Arrays.copyOfRange(vector, 24, vector.length);
        final var convertor = (MessageConvertor<OkoMarkInstalledSal>) convertors.messages().stream()
            .filter(c -> c.salCase() == OkoMarkInstalledSal.class).findFirst().orElseThrow();
        final var body = convertor.convert(new OkoMarkInstalledSalBuilder()
            .setOkoMarkInstalled(new OkoMarkInstalledBuilder().setProgId(new ProgramId(Uint32.valueOf(7)))
                .setInstallMark(mark).build())
            .build(), null);
        final var out = Unpooled.buffer();
        new MarkInstalledCodec().serialize(body, out);
        assertArrayEquals(Arrays.copyOfRange(vector, EXPERIMENTER_HEADER, vector.length), ByteBufUtil.getBytes(out));
        assertEquals(9, convertor.getType().intValue());
    }

    @Test
    @SuppressWarnings("unchecked")
    void loadProgWithoutItsContainerIsAConversionError() {
        final var convertor = (MessageConvertor<OkoLoadProgSal>) convertors.messages().get(0);
        final var error = assertThrows(ConversionException.class,
            () -> convertor.convert(new OkoLoadProgSalBuilder().build(), null));
        assertEquals(true, error.getMessage().contains("oko-load-prog is missing"), error.getMessage());
    }
}
