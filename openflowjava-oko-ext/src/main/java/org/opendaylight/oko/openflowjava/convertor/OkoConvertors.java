/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.convertor;

import java.util.List;
import org.opendaylight.oko.openflowjava.OkoConstants;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoDeleteMapEntriesCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoLoadProgCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoMarkInstalledCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoUnloadProgCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoUpdateMapCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.delete.map.entries._case.OkoDeleteMapEntriesBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.load.prog._case.OkoLoadProgBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.mark.installed._case.OkoMarkInstalledBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.unload.prog._case.OkoUnloadProgBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.oko.update.map._case.OkoUpdateMapBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoDeleteMapEntriesSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoLoadProgSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoMarkInstalledSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoUnloadProgSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.input.experimenter.message.of.choice.OkoUpdateMapSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoDumpMapsRequestSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoProgStatsRequestSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoReplayMapsRequestSal;

/**
 * The converters of the Oko extension, one instance each.
 */
public final class OkoConvertors {
    private final FilterProgConvertor filterProg = new FilterProgConvertor();
    private final SendMapsActionConvertor sendMapsAction = new SendMapsActionConvertor();
    private final SendMapsMessageConvertor sendMapsMessage = new SendMapsMessageConvertor();
    private final DumpMapsConvertor dumpMaps = new DumpMapsConvertor();
    private final ProgStatsConvertor progStats = new ProgStatsConvertor();
    private final ReplayMapsConvertor replayMaps = new ReplayMapsConvertor();
    private final List<MessageConvertor<?>> messages = List.of(
        new MessageConvertor<>(OkoLoadProgSal.class, OkoConstants.EXP_TYPE_LOAD_PROG,
            sal -> new OkoLoadProgCaseBuilder()
                .setOkoLoadProg(new OkoLoadProgBuilder(
                    MessageConvertor.present(sal.getOkoLoadProg(), "oko-load-prog")).build()).build()),
        new MessageConvertor<>(OkoUnloadProgSal.class, OkoConstants.EXP_TYPE_UNLOAD_PROG,
            sal -> new OkoUnloadProgCaseBuilder()
                .setOkoUnloadProg(new OkoUnloadProgBuilder(
                    MessageConvertor.present(sal.getOkoUnloadProg(), "oko-unload-prog")).build()).build()),
        new MessageConvertor<>(OkoUpdateMapSal.class, OkoConstants.EXP_TYPE_UPDATE_MAP,
            sal -> new OkoUpdateMapCaseBuilder()
                .setOkoUpdateMap(new OkoUpdateMapBuilder(
                    MessageConvertor.present(sal.getOkoUpdateMap(), "oko-update-map")).build()).build()),
        new MessageConvertor<>(OkoDeleteMapEntriesSal.class, OkoConstants.EXP_TYPE_DELETE_MAP_ENTRIES,
            sal -> new OkoDeleteMapEntriesCaseBuilder()
                .setOkoDeleteMapEntries(new OkoDeleteMapEntriesBuilder(
                    MessageConvertor.present(sal.getOkoDeleteMapEntries(), "oko-delete-map-entries")).build())
                .build()),
        new MessageConvertor<>(OkoMarkInstalledSal.class, OkoConstants.EXP_TYPE_MARK_INSTALLED,
            sal -> new OkoMarkInstalledCaseBuilder()
                .setOkoMarkInstalled(new OkoMarkInstalledBuilder(
                    MessageConvertor.present(sal.getOkoMarkInstalled(), "oko-mark-installed")).build()).build()),
        // Multi-layer mode only: single-layer mode serializes the request with codec.singlelayer.
        new MessageConvertor<>(OkoDumpMapsRequestSal.class, OkoConstants.EXP_TYPE_DUMP_MAPS, dumpMaps::toRequestBody),
        new MessageConvertor<>(OkoProgStatsRequestSal.class, OkoConstants.EXP_TYPE_PROG_STATS,
            progStats::toRequestBody),
        new MessageConvertor<>(OkoReplayMapsRequestSal.class, OkoConstants.EXP_TYPE_REPLAY_MAPS,
            replayMaps::toRequestBody));

    public FilterProgConvertor filterProg() {
        return filterProg;
    }

    public SendMapsActionConvertor sendMapsAction() {
        return sendMapsAction;
    }

    public SendMapsMessageConvertor sendMapsMessage() {
        return sendMapsMessage;
    }

    public DumpMapsConvertor dumpMaps() {
        return dumpMaps;
    }

    public ProgStatsConvertor progStats() {
        return progStats;
    }

    public ReplayMapsConvertor replayMaps() {
        return replayMaps;
    }

    public List<MessageConvertor<?>> messages() {
        return messages;
    }
}
