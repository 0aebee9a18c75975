/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.registration;

import static org.opendaylight.oko.openflowjava.OkoConstants.OF13;

import java.util.ArrayList;
import java.util.List;
import org.opendaylight.oko.openflowjava.convertor.MessageConvertor;
import org.opendaylight.oko.openflowjava.convertor.OkoConvertors;
import org.opendaylight.oko.openflowjava.convertor.SendMapsActionConvertor;
import org.opendaylight.openflowjava.protocol.api.keys.MessageTypeKey;
import org.opendaylight.openflowplugin.extension.api.ConverterExtensionKey;
import org.opendaylight.openflowplugin.extension.api.ExtensionConverterRegistrator;
import org.opendaylight.openflowplugin.extension.api.OpenFlowPluginExtensionRegistratorProvider;
import org.opendaylight.openflowplugin.extension.api.TypeVersionKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.experimenter.input.experimenter.data.of.choice.OkoSendMapsCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoDumpMapsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoProgStatsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowjava.rev261122.multipart.reply.message.multipart.reply.body.multipart.reply.experimenter._case.multipart.reply.experimenter.experimenter.data.of.choice.OkoReplayMapsReplyCase;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.FilterProgKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.openflowplugin.experimenter.types.rev151020.experimenter.core.message.ExperimenterMessageOfChoice;
import org.opendaylight.yangtools.concepts.Registration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the Oko converters with openflowplugin, so that flows in the MD-SAL model carry filter_prog and
 * SEND_MAPS to the wire and back, send-experimenter sends Oko messages, and SEND_MAPS messages from switches become
 * experimenter-message-from-dev notifications.
 */
@Component(service = { }, immediate = true)
public final class OkoConvertorComponent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OkoConvertorComponent.class);

    private final List<Registration> registrations = new ArrayList<>();

    @Activate
    public OkoConvertorComponent(@Reference final OpenFlowPluginExtensionRegistratorProvider provider) {
        final ExtensionConverterRegistrator registrator = provider.getExtensionConverterRegistrator();
        final OkoConvertors convertors = new OkoConvertors();

        registrations.add(registrator.registerMatchConvertor(new ConverterExtensionKey<>(FilterProgKey.VALUE, OF13),
            convertors.filterProg()));
        registrations.add(registrator.registerMatchConvertor(OkoCodecRegistrar.filterProgSerializerKey(),
            convertors.filterProg()));

        for (var actionCase : SendMapsActionConvertor.MDSAL_CASES) {
            registrations.add(registrator.registerActionConvertor(new TypeVersionKey<>(actionCase, OF13),
                convertors.sendMapsAction()));
        }
        registrations.add(registrator.registerActionConvertor(OkoCodecRegistrar.sendMapsActionSerializerKey(),
            convertors.sendMapsAction()));

        for (MessageConvertor<?> message : convertors.messages()) {
            registrations.add(registerMessage(registrator, message));
        }
        registrations.add(registrator.registerMessageConvertor(new MessageTypeKey<>(OF13, OkoSendMapsCase.class),
            convertors.sendMapsMessage()));
        // DUMP_MAPS, PROG_STATS and REPLAY_MAPS replies in multi-layer mode (single-layer mode decodes them with
        // codec.singlelayer).
        registrations.add(registrator.registerMessageConvertor(new MessageTypeKey<>(OF13, OkoDumpMapsReplyCase.class),
            convertors.dumpMaps()));
        registrations.add(registrator.registerMessageConvertor(new MessageTypeKey<>(OF13, OkoProgStatsReplyCase.class),
            convertors.progStats()));
        registrations.add(registrator.registerMessageConvertor(new MessageTypeKey<>(OF13, OkoReplayMapsReplyCase.class),
            convertors.replayMaps()));
        LOG.info("Oko openflowplugin converters registered: {} registrations", registrations.size());
    }

    private static <I extends ExperimenterMessageOfChoice> Registration registerMessage(
            final ExtensionConverterRegistrator registrator, final MessageConvertor<I> message) {
        return registrator.registerMessageConvertor(new TypeVersionKey<>(message.salCase(), OF13), message);
    }

    @Deactivate
    @Override
    public void close() {
        registrations.forEach(Registration::close);
        registrations.clear();
        LOG.info("Oko openflowplugin converters unregistered");
    }
}
