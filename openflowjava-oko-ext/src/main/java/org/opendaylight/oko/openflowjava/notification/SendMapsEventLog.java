/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.notification;

import org.opendaylight.mdsal.binding.api.NotificationService;
import org.opendaylight.yang.gen.v1.urn.opendaylight.experimenter.message.service.rev151020.ExperimenterMessageFromDev;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeRef;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflowplugin.rev261122.experimenter.message.from.dev.experimenter.message.of.choice.OkoSendMapsSal;
import org.opendaylight.yangtools.concepts.Registration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs each SEND_MAPS fragment a switch sends, as openflowplugin publishes it (experimenter-message-from-dev with
 * the oko-send-maps-sal case), at DEBUG: one line per fragment with the program, event, fragment, maps and the
 * count of events the switch suppressed. Operators enable it with
 * {@code log:set DEBUG org.opendaylight.oko.openflowjava.notification}; consumers of the maps subscribe to the
 * same notification.
 */
@Component(service = { }, immediate = true)
public final class SendMapsEventLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SendMapsEventLog.class);

    private final Registration registration;

    @Activate
    public SendMapsEventLog(@Reference final NotificationService notifications) {
        registration = notifications.registerListener(ExperimenterMessageFromDev.class, this::onMessage);
    }

    private void onMessage(final ExperimenterMessageFromDev message) {
        if (LOG.isDebugEnabled() && message.getExperimenterMessageOfChoice() instanceof OkoSendMapsSal sal) {
            final var event = sal.getOkoSendMapsMessage();
            final var sections = event.nonnullMapSection();
            LOG.debug("SEND_MAPS from {}: program {} event {} fragment {}{}, cookie {}, table {}, {} map sections"
                + " ({} entries), {} suppressed", nodeName(message.getNode()), event.getProgId().getValue(),
                event.getEventId(), event.getFragment(), Boolean.TRUE.equals(event.getLastFragment()) ? " (last)" : "",
                event.getCookie(), event.getTableId(), sections.size(),
                sections.stream().mapToInt(section -> section.nonnullEntry().size()).sum(), event.getSuppressed());
        }
    }

    /** The inventory id of the node, or the whole reference if it names none. */
    private static String nodeName(final NodeRef ref) {
        final String id = NodeRefs.nodeId(ref);
        return id != null ? id : String.valueOf(ref.getValue());
    }

    @Deactivate
    @Override
    public void close() {
        registration.close();
    }
}
