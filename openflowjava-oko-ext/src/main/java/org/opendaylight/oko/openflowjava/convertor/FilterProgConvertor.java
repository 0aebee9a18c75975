/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.convertor;

import org.opendaylight.oko.openflowjava.codec.match.FilterProgCodec;
import org.opendaylight.openflowplugin.extension.api.ConvertorFromOFJava;
import org.opendaylight.openflowplugin.extension.api.ConvertorToOFJava;
import org.opendaylight.openflowplugin.extension.api.ExtensionAugment;
import org.opendaylight.openflowplugin.extension.api.GroupingLooseResolver;
import org.opendaylight.openflowplugin.extension.api.path.MatchPath;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.FilterProgKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgGrouping;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNodesNodeTableFlow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNodesNodeTableFlowBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNotifSwitchFlowRemoved;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNotifSwitchFlowRemovedBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgNotifUpdateFlowStats;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgRpcAddFlow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgRpcGetFlowStats;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgRpcGetFlowStatsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgRpcRemoveFlow;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgRpcUpdateFlowOriginal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.OkoFilterProgRpcUpdateFlowUpdated;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.oko.filter.prog.grouping.OkoFilterProg;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.oko.filter.prog.grouping.OkoFilterProgBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflow.oxm.rev150225.match.entries.grouping.MatchEntry;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.extension.general.rev140714.general.extension.grouping.Extension;
import org.opendaylight.yangtools.binding.Augmentation;

/**
 * filter_prog between the MD-SAL flow model (an entry of a match's extension list) and openflowjava's MatchEntry.
 */
public final class FilterProgConvertor
        implements ConvertorToOFJava<MatchEntry>, ConvertorFromOFJava<MatchEntry, MatchPath> {
    private final GroupingLooseResolver<OkoFilterProgGrouping> resolver = new GroupingLooseResolver<>(
        OkoFilterProgGrouping.class,
        OkoFilterProgNodesNodeTableFlow.class, OkoFilterProgRpcAddFlow.class, OkoFilterProgRpcRemoveFlow.class,
        OkoFilterProgRpcUpdateFlowOriginal.class, OkoFilterProgRpcUpdateFlowUpdated.class,
        OkoFilterProgNotifSwitchFlowRemoved.class, OkoFilterProgNotifUpdateFlowStats.class,
        OkoFilterProgRpcGetFlowStats.class);

    @Override
    public MatchEntry convert(final Extension extension) {
        final OkoFilterProg filter = resolver.getExtension(extension)
            .map(OkoFilterProgGrouping::getOkoFilterProg)
            .orElseThrow(() -> new IllegalArgumentException("extension has no oko-filter-prog: " + extension));
        if (filter.getProgId() == null) {
            throw new IllegalArgumentException("oko-filter-prog without prog-id");
        }
        return FilterProgCodec.matchEntry(filter.getProgId());
    }

    @Override
    public ExtensionAugment<? extends Augmentation<Extension>> convert(final MatchEntry input, final MatchPath path) {
        final OkoFilterProg filter = new OkoFilterProgBuilder().setProgId(FilterProgCodec.programId(input)).build();
        return switch (path) {
            // Flow statistics land in the inventory's flows: the augmentation of nodes/node/table/flow makes
            // them compare equal to the configured flow.
            case FLOWS_STATISTICS_UPDATE_MATCH -> new ExtensionAugment<>(OkoFilterProgNodesNodeTableFlow.class,
                new OkoFilterProgNodesNodeTableFlowBuilder().setOkoFilterProg(filter).build(), FilterProgKey.VALUE);
            case FLOWS_STATISTICS_RPC_MATCH -> new ExtensionAugment<>(OkoFilterProgRpcGetFlowStats.class,
                new OkoFilterProgRpcGetFlowStatsBuilder().setOkoFilterProg(filter).build(), FilterProgKey.VALUE);
            case SWITCH_FLOW_REMOVED_MATCH -> new ExtensionAugment<>(OkoFilterProgNotifSwitchFlowRemoved.class,
                new OkoFilterProgNotifSwitchFlowRemovedBuilder().setOkoFilterProg(filter).build(),
                FilterProgKey.VALUE);
            default -> throw new IllegalArgumentException("filter_prog does not appear in " + path);
        };
    }
}
