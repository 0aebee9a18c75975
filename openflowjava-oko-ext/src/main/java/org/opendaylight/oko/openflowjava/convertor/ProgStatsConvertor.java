/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.convertor;

import org.opendaylight.openflowplugin.extension.api.ConvertorMessageFromOFJava;
import org.opendaylight.openflowplugin.extension.api.path.MessagePath;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoProgStatsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoProgStatsRequestCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoProgStatsRequestCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.oko.prog.stats.request._case.OkoProgStatsRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoProgStatsRequestSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoProgStatsReplySal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoProgStatsReplySalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.oko.prog.stats.reply.sal.OkoProgStatsReplyBuilder;

/**
 * PROG_STATS between openflowplugin's send-experimenter-mp-request RPC and the openflowjava bodies, as
 * {@link DumpMapsConvertor} does for DUMP_MAPS: the RPC input's request case becomes the request body, each reply
 * body becomes one item of the RPC output.
 */
public final class ProgStatsConvertor implements ConvertorMessageFromOFJava<OkoProgStatsReplyCase, MessagePath> {
    /**
     * The request body of an RPC input.
     *
     * @throws IllegalArgumentException if the input has no oko-prog-stats-request container
     */
    public OkoProgStatsRequestCase toRequestBody(final OkoProgStatsRequestSal input) {
        return new OkoProgStatsRequestCaseBuilder()
            .setOkoProgStatsRequest(new OkoProgStatsRequestBuilder(
                MessageConvertor.present(input.getOkoProgStatsRequest(), "oko-prog-stats-request")).build())
            .build();
    }

    /** One reply message's body as an item of the RPC output. */
    public OkoProgStatsReplySal toReplyItem(final OkoProgStatsReplyCase body) {
        return new OkoProgStatsReplySalBuilder()
            .setOkoProgStatsReply(new OkoProgStatsReplyBuilder(body.getOkoProgStatsReply()).build())
            .build();
    }

    @Override
    public OkoProgStatsReplySal convert(final OkoProgStatsReplyCase input, final MessagePath path) {
        return toReplyItem(input);
    }
}
