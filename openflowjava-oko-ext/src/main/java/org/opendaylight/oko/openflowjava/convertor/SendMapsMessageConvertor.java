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
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoSendMapsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.OkoSendMapsSalBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.oko.send.maps.sal.OkoSendMapsMessageBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.experimenter.core.message.ExperimenterMessageOfChoice;

/**
 * A SEND_MAPS fragment from a switch becomes the experimenter-message-from-dev notification's Oko case.
 */
public final class SendMapsMessageConvertor implements ConvertorMessageFromOFJava<OkoSendMapsCase, MessagePath> {
    @Override
    public ExperimenterMessageOfChoice convert(final OkoSendMapsCase input, final MessagePath path) {
        return new OkoSendMapsSalBuilder()
            .setOkoSendMapsMessage(new OkoSendMapsMessageBuilder(input.getOkoSendMaps()).build())
            .build();
    }
}
