/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv4Prefix;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Ipv6Prefix;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.Uri;
import org.opendaylight.yang.gen.v1.urn.opendaylight.action.types.rev131112.action.action.OutputActionCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.action.types.rev131112.action.action.output.action._case.OutputActionBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.action.types.rev131112.action.list.Action;
import org.opendaylight.yang.gen.v1.urn.opendaylight.action.types.rev131112.action.list.ActionBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.Flow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.tables.table.FlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.FlowCookie;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.flow.InstructionsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.flow.Match;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.flow.MatchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.instruction.instruction.ApplyActionsCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.instruction.instruction.GoToTableCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.instruction.instruction.apply.actions._case.ApplyActionsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.instruction.instruction.go.to.table._case.GoToTableBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.instruction.list.Instruction;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.types.rev131026.instruction.list.InstructionBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.l2.types.rev130827.EtherType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.model.match.types.rev131026.ethernet.match.fields.EthernetTypeBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.model.match.types.rev131026.match.EthernetMatchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.model.match.types.rev131026.match.IpMatchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.model.match.types.rev131026.match.layer._3.match.Ipv4MatchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.model.match.types.rev131026.match.layer._3.match.Ipv6MatchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.model.match.types.rev131026.match.layer._4.match.TcpMatchBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.FilterProgKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNodesNodeTableFlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.oko.filter.prog.grouping.OkoFilterProgBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.extension.general.rev140714.GeneralAugMatchNodesNodeTableFlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.extension.general.rev140714.general.extension.grouping.ExtensionBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.extension.general.rev140714.general.extension.list.grouping.ExtensionListBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint16;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.common.Uint8;

/**
 * The flows of a SYN guard in its table, per protected prefix and port (docs/syn-guard.md draws them):
 * <ul>
 * <li>{@code sample}, at the guard's priority: TCP to the destination whose syn-sampler matches (a SYN within
 * the sampling rate) goes to the controller (the first {@link #SAMPLE_BYTES} bytes) and on to next-table;</li>
 * <li>{@code pass}, one below: the rest of that TCP goes on to next-table;</li>
 * <li>{@code drop}, one above, only while the guard mitigates: what its p0f-syn-flood matches is dropped.</li>
 * </ul>
 * Every flow carries the guard's cookie: packet-ins with it are the guard's samples.
 */
public final class GuardFlows {
    /**
     * The bytes of a SYN sent to the controller: Ethernet and a VLAN tag (18), IPv4 with 40 bytes of options (60)
     * and TCP with 40 bytes of options (60) is 138, the most the p0f filter reads; a shorter copy would give the
     * controller a cut option list (and the {@code bad} quirk) where the switch sees the whole one.
     */
    public static final int SAMPLE_BYTES = 160;
    /** The top half of every guard's cookie. */
    public static final long COOKIE_TAG = 0x4f4b4f53L;
    private static final long ETH_P_IPV4 = 0x0800;
    private static final long ETH_P_IPV6 = 0x86dd;
    private static final int IPPROTO_TCP = 6;

    private GuardFlows() {
    }

    /** The kinds of flow, as their ids name them. */
    public enum Kind {
        SAMPLE("sample", 0), PASS("pass", -1), DROP("drop", 1);

        private final String text;
        private final int priorityOffset;

        Kind(final String text, final int priorityOffset) {
            this.text = text;
            this.priorityOffset = priorityOffset;
        }
    }

    /**
     * The guard's cookie: the top 32 bits are {@link #COOKIE_TAG} ("OKOS" in ASCII), the low 32 bits the first
     * bytes of the SHA-256 of its name, so that guards do not share one.
     */
    public static long cookie(final String guardName) {
        try {
            final byte[] digest = MessageDigest.getInstance("SHA-256")
                .digest(guardName.getBytes(StandardCharsets.UTF_8));
            long low = 0;
            for (int i = 0; i < 4; i++) {
                low = low << 8 | digest[i] & 0xff;
            }
            return COOKIE_TAG << 32 | low;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always there", e);
        }
    }

    public static String flowId(final GuardConfig config, final Kind kind, final int index) {
        return config.objectName(kind.text + "-" + index);
    }

    /** The guard's flows of one kind, one per destination entry, on any of its switches. */
    public static List<Flow> flows(final GuardConfig config, final Kind kind) {
        final List<Flow> out = new ArrayList<>();
        for (int i = 0; i < config.destinations().size(); i++) {
            out.add(flow(config, kind, i));
        }
        return out;
    }

    private static Flow flow(final GuardConfig config, final Kind kind, final int index) {
        final GuardConfig.Destination destination = config.destinations().get(index);
        final List<Instruction> instructions = new ArrayList<>();
        switch (kind) {
            case SAMPLE -> {
                instructions.add(applyActions(0, List.of(new ActionBuilder().setOrder(0)
                    .setAction(new OutputActionCaseBuilder().setOutputAction(new OutputActionBuilder()
                        .setOutputNodeConnector(new Uri("CONTROLLER")).setMaxLength(Uint16.valueOf(SAMPLE_BYTES))
                        .build()).build()).build())));
                instructions.add(goToTable(1, config.nextTable()));
            }
            case PASS -> instructions.add(goToTable(0, config.nextTable()));
            case DROP -> instructions.add(applyActions(0, List.of()));
            default -> throw new IllegalStateException(kind.toString());
        }
        final String id = flowId(config, kind, index);
        return new FlowBuilder()
            .setId(new FlowId(id))
            .setFlowName(id)
            .setTableId(Uint8.valueOf(config.table()))
            .setPriority(Uint16.valueOf(config.priority() + kind.priorityOffset))
            .setCookie(new FlowCookie(Uint64.fromLongBits(cookie(config.name()))))
            .setMatch(match(destination, kind == Kind.SAMPLE ? config.samplerProgramId()
                : kind == Kind.DROP ? config.filterProgramId() : 0))
            .setInstructions(new InstructionsBuilder().setInstruction(BindingMap.ordered(instructions)).build())
            .build();
    }

    private static Match match(final GuardConfig.Destination destination, final long progId) {
        final MatchBuilder match = new MatchBuilder()
            .setEthernetMatch(new EthernetMatchBuilder().setEthernetType(new EthernetTypeBuilder()
                .setType(new EtherType(Uint32.valueOf(destination.ipv6() ? ETH_P_IPV6 : ETH_P_IPV4))).build())
                .build())
            .setIpMatch(new IpMatchBuilder().setIpProtocol(Uint8.valueOf(IPPROTO_TCP)).build())
            .setLayer3Match(destination.ipv6()
                ? new Ipv6MatchBuilder().setIpv6Destination(new Ipv6Prefix(destination.prefix())).build()
                : new Ipv4MatchBuilder().setIpv4Destination(new Ipv4Prefix(destination.prefix())).build());
        if (destination.port() != 0) {
            match.setLayer4Match(new TcpMatchBuilder()
                .setTcpDestinationPort(new PortNumber(Uint16.valueOf(destination.port()))).build());
        }
        if (progId != 0) {
            final var extension = new ExtensionBuilder().addAugmentation(new OkoFilterProgNodesNodeTableFlowBuilder()
                .setOkoFilterProg(new OkoFilterProgBuilder().setProgId(new ProgramId(Uint32.valueOf(progId)))
                    .build()).build()).build();
            match.addAugmentation(new GeneralAugMatchNodesNodeTableFlowBuilder()
                .setExtensionList(BindingMap.of(new ExtensionListBuilder().setExtensionKey(FilterProgKey.VALUE)
                    .setExtension(extension).build())).build());
        }
        return match.build();
    }

    private static Instruction applyActions(final int order, final List<Action> actions) {
        return new InstructionBuilder().setOrder(order).setInstruction(new ApplyActionsCaseBuilder()
            .setApplyActions(new ApplyActionsBuilder().setAction(BindingMap.ordered(actions)).build()).build())
            .build();
    }

    private static Instruction goToTable(final int order, final int table) {
        return new InstructionBuilder().setOrder(order).setInstruction(new GoToTableCaseBuilder()
            .setGoToTable(new GoToTableBuilder().setTableId(Uint8.valueOf(table)).build()).build()).build();
    }
}
