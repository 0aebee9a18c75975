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
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoDumpMapsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoDumpMapsRequestCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.OkoDumpMapsRequestCaseBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.request.input.multipart.request.body.multipart.request.experimenter._case.multipart.request.experimenter.experimenter.data.of.choice.oko.dump.maps.request._case.OkoDumpMapsRequestBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.input.experimenter.message.of.choice.OkoDumpMapsRequestSal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoDumpMapsReplySal;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.OkoDumpMapsReplySalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.send.experimenter.mp.request.output.experimenter.core.message.item.experimenter.message.of.choice.oko.dump.maps.reply.sal.OkoDumpMapsReplyBuilder;

/**
 * DUMP_MAPS between openflowplugin's send-experimenter-mp-request RPC and the openflowjava bodies the codecs
 * read and write: the RPC input's request case becomes the request body, each reply body becomes one item of
 * the RPC output. Both serialization modes use it: in single-layer mode through the codecs of the
 * {@code codec.singlelayer} package, in multi-layer mode as the plugin's registered message converter.
 */
public final class DumpMapsConvertor implements ConvertorMessageFromOFJava<OkoDumpMapsReplyCase, MessagePath> {
    /**
     * The request body of an RPC input.
     *
     * @throws IllegalArgumentException if the input has no oko-dump-maps-request container
     */
    public OkoDumpMapsRequestCase toRequestBody(final OkoDumpMapsRequestSal input) {
        return new OkoDumpMapsRequestCaseBuilder()
            .setOkoDumpMapsRequest(new OkoDumpMapsRequestBuilder(
                MessageConvertor.present(input.getOkoDumpMapsRequest(), "oko-dump-maps-request")).build())
            .build();
    }

    /** One reply message's body as an item of the RPC output. */
    public OkoDumpMapsReplySal toReplyItem(final OkoDumpMapsReplyCase body) {
        return new OkoDumpMapsReplySalBuilder()
            .setOkoDumpMapsReply(new OkoDumpMapsReplyBuilder(body.getOkoDumpMapsReply()).build())
            .build();
    }

    @Override
    public OkoDumpMapsReplySal convert(final OkoDumpMapsReplyCase input, final MessagePath path) {
        return toReplyItem(input);
    }
}
