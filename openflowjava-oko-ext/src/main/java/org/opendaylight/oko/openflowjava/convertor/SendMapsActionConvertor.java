/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.convertor;

import java.util.List;
import org.opendaylight.oko.openflowjava.codec.action.SendMapsActionCodec;
import org.opendaylight.openflowplugin.extension.api.ConvertorActionFromOFJava;
import org.opendaylight.openflowplugin.extension.api.ConvertorActionToOFJava;
import org.opendaylight.openflowplugin.extension.api.path.ActionPath;
import org.opendaylight.yang.gen.v1.urn.opendaylight.action.types.rev131112.action.Action;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.action.container.action.choice.OkoSendMapsActionCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoSendMapsGrouping;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.add.flow.input.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsRpcAddFlowApplyActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.add.flow.input.instructions.instruction.instruction.write.actions._case.write.actions.action.action.OkoSendMapsRpcAddFlowWriteActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.flows.statistics.update.flow.and.statistics.map.list.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsNotifUpdateFlowStatsApplyActionsCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.flows.statistics.update.flow.and.statistics.map.list.instructions.instruction.instruction.write.actions._case.write.actions.action.action.OkoSendMapsNotifUpdateFlowStatsWriteActionsCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.get.flow.statistics.output.flow.and.statistics.map.list.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsRpcGetFlowStatsApplyActionsCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.get.flow.statistics.output.flow.and.statistics.map.list.instructions.instruction.instruction.write.actions._case.write.actions.action.action.OkoSendMapsRpcGetFlowStatsWriteActionsCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.nodes.node.table.flow.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsNodesNodeTableFlowApplyActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.nodes.node.table.flow.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsNodesNodeTableFlowApplyActionsCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.nodes.node.table.flow.instructions.instruction.instruction.write.actions._case.write.actions.action.action.OkoSendMapsNodesNodeTableFlowWriteActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.nodes.node.table.flow.instructions.instruction.instruction.write.actions._case.write.actions.action.action.OkoSendMapsNodesNodeTableFlowWriteActionsCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.oko.send.maps.grouping.OkoSendMaps;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.oko.send.maps.grouping.OkoSendMapsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.remove.flow.input.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsRpcRemoveFlowApplyActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.remove.flow.input.instructions.instruction.instruction.write.actions._case.write.actions.action.action.OkoSendMapsRpcRemoveFlowWriteActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.update.flow.input.original.flow.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsRpcUpdateFlowOriginalApplyActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.update.flow.input.original.flow.instructions.instruction.instruction.write.actions._case.write.actions.action.action.OkoSendMapsRpcUpdateFlowOriginalWriteActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.update.flow.input.updated.flow.instructions.instruction.instruction.apply.actions._case.apply.actions.action.action.OkoSendMapsRpcUpdateFlowUpdatedApplyActionsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.update.flow.input.updated.flow.instructions.instruction.instruction.write.actions._case.write.actions.action.action.OkoSendMapsRpcUpdateFlowUpdatedWriteActionsCase;

/**
 * SEND_MAPS between the MD-SAL flow model (an action case of apply- or write-actions) and openflowjava's Action.
 */
public final class SendMapsActionConvertor implements ConvertorActionToOFJava<Action,
        org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.action.rev150203.actions.grouping.Action>,
        ConvertorActionFromOFJava<
            org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.action.rev150203.actions.grouping.Action,
            ActionPath> {
    /** Every MD-SAL action case the converter accepts: one registration each. */
    public static final List<Class<? extends Action>> MDSAL_CASES = List.of(
        OkoSendMapsNodesNodeTableFlowApplyActionsCase.class, OkoSendMapsNodesNodeTableFlowWriteActionsCase.class,
        OkoSendMapsRpcAddFlowApplyActionsCase.class, OkoSendMapsRpcAddFlowWriteActionsCase.class,
        OkoSendMapsRpcRemoveFlowApplyActionsCase.class, OkoSendMapsRpcRemoveFlowWriteActionsCase.class,
        OkoSendMapsRpcUpdateFlowOriginalApplyActionsCase.class, OkoSendMapsRpcUpdateFlowOriginalWriteActionsCase.class,
        OkoSendMapsRpcUpdateFlowUpdatedApplyActionsCase.class, OkoSendMapsRpcUpdateFlowUpdatedWriteActionsCase.class);

    @Override
    public org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.action.rev150203.actions.grouping.Action
            convert(final Action actionCase) {
        if (!(actionCase instanceof OkoSendMapsGrouping grouping) || grouping.getOkoSendMaps() == null
                || grouping.getOkoSendMaps().getMapMask() == null) {
            throw new IllegalArgumentException("not a SEND_MAPS action with a map-mask: " + actionCase);
        }
        return SendMapsActionCodec.action(grouping.getOkoSendMaps().getMapMask());
    }

    @Override
    public Action convert(
            final org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.common.action.rev150203.actions.grouping.Action
                input, final ActionPath path) {
        if (!(input.getActionChoice() instanceof OkoSendMapsActionCase sendMaps)) {
            throw new IllegalArgumentException("not a SEND_MAPS action: " + input);
        }
        final OkoSendMaps value = new OkoSendMapsBuilder()
            .setMapMask(sendMaps.getOkoSendMapsAction().getMapMask())
            .build();
        return switch (path) {
            case INVENTORY_FLOWNODE_TABLE_APPLY_ACTIONS ->
                new OkoSendMapsNodesNodeTableFlowApplyActionsCaseBuilder().setOkoSendMaps(value).build();
            case INVENTORY_FLOWNODE_TABLE_WRITE_ACTIONS ->
                new OkoSendMapsNodesNodeTableFlowWriteActionsCaseBuilder().setOkoSendMaps(value).build();
            case FLOWS_STATISTICS_UPDATE_APPLY_ACTIONS ->
                new OkoSendMapsNotifUpdateFlowStatsApplyActionsCaseBuilder().setOkoSendMaps(value).build();
            case FLOWS_STATISTICS_UPDATE_WRITE_ACTIONS ->
                new OkoSendMapsNotifUpdateFlowStatsWriteActionsCaseBuilder().setOkoSendMaps(value).build();
            case FLOWS_STATISTICS_RPC_APPLY_ACTIONS ->
                new OkoSendMapsRpcGetFlowStatsApplyActionsCaseBuilder().setOkoSendMaps(value).build();
            case FLOWS_STATISTICS_RPC_WRITE_ACTIONS ->
                new OkoSendMapsRpcGetFlowStatsWriteActionsCaseBuilder().setOkoSendMaps(value).build();
            default -> throw new IllegalArgumentException("SEND_MAPS does not appear in " + path);
        };
    }
}
