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
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoReplayMapsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoReplayMapsRequestCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoReplayMapsRequestCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.oko.replay.maps.request._case.OkoReplayMapsRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoReplayMapsRequestSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoReplayMapsReplySal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoReplayMapsReplySalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.oko.replay.maps.reply.sal.OkoReplayMapsReplyBuilder;

/**
 * REPLAY_MAPS between openflowplugin's send-experimenter-mp-request RPC and the openflowjava bodies, as
 * {@link DumpMapsConvertor} does for DUMP_MAPS: the RPC input's request case becomes the request body, each reply
 * body (with its fragment, if any) becomes one item of the RPC output.
 */
public final class ReplayMapsConvertor implements ConvertorMessageFromOFJava<OkoReplayMapsReplyCase, MessagePath> {
    /**
     * The request body of an RPC input.
     *
     * @throws IllegalArgumentException if the input has no oko-replay-maps-request container
     */
    public OkoReplayMapsRequestCase toRequestBody(final OkoReplayMapsRequestSal input) {
        return new OkoReplayMapsRequestCaseBuilder()
            .setOkoReplayMapsRequest(new OkoReplayMapsRequestBuilder(
                MessageConvertor.present(input.getOkoReplayMapsRequest(), "oko-replay-maps-request")).build())
            .build();
    }

    /** One reply message's body as an item of the RPC output. */
    public OkoReplayMapsReplySal toReplyItem(final OkoReplayMapsReplyCase body) {
        return new OkoReplayMapsReplySalBuilder()
            .setOkoReplayMapsReply(new OkoReplayMapsReplyBuilder(body.getOkoReplayMapsReply()).build())
            .build();
    }

    @Override
    public OkoReplayMapsReplySal convert(final OkoReplayMapsReplyCase input, final MessagePath path) {
        return toReplyItem(input);
    }
}
