/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.registration;

import java.util.List;
import org.opendaylight.infrautils.ready.SystemReadyMonitor;
import org.opendaylight.openflowjava.protocol.spi.connection.SwitchConnectionProvider;
import org.opendaylight.openflowplugin.extension.api.OpenFlowPluginExtensionRegistratorProvider;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Installs the single-layer Oko multipart reply decoder (DUMP_MAPS, PROG_STATS, REPLAY_MAPS) on both switch
 * connection providers once openflowplugin has started them. The plugin starts its providers from its
 * SystemReadyListener, which it registers when it is activated; this component needs the plugin's service, so it is
 * activated later, and its own listener, queued behind the plugin's, runs after the plugin has installed its
 * decoders. When the system is already up (odl-oko installed into a running controller) the listener runs at once.
 */
@Component(service = { }, immediate = true)
public final class SingleLayerReplyComponent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SingleLayerReplyComponent.class);

    private final OkoCodecRegistrar registrar = new OkoCodecRegistrar();
    private final List<SwitchConnectionProvider> providers;
    private boolean closed;

    @Activate
    public SingleLayerReplyComponent(
            @Reference(target = "(type=openflow-switch-connection-provider-default-impl)")
            final SwitchConnectionProvider defaultProvider,
            @Reference(target = "(type=openflow-switch-connection-provider-legacy-impl)")
            final SwitchConnectionProvider legacyProvider,
            @Reference final OpenFlowPluginExtensionRegistratorProvider plugin,
            @Reference final SystemReadyMonitor systemReady) {
        providers = List.of(defaultProvider, legacyProvider);
        systemReady.registerListener(this::install);
    }

    private synchronized void install() {
        if (closed) {
            return;
        }
        providers.forEach(registrar::registerSingleLayerReplyDecoder);
        LOG.info("Oko multipart reply decoder (DUMP_MAPS, PROG_STATS, REPLAY_MAPS) installed for single-layer "
            + "serialization on {} providers", providers.size());
    }

    @Deactivate
    @Override
    public synchronized void close() {
        // The decoder stays installed (openflowjava cannot remove it); it hands other experimenters' replies to
        // their codecs, so it is harmless once Oko is gone.
        closed = true;
    }
}
