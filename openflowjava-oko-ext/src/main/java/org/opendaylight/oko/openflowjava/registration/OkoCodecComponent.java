/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.registration;

import java.util.List;
import org.opendaylight.openflowjava.protocol.spi.connection.SwitchConnectionProvider;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the Oko codecs with both of openflowjava's switch connection providers: the default one (port 6653)
 * and the legacy one (6633). A provider that is recreated (its configuration changed) comes back with empty
 * registries; the static references make DS deactivate and reactivate this component, which registers again.
 */
@Component(service = { }, immediate = true)
public final class OkoCodecComponent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OkoCodecComponent.class);

    private final OkoCodecRegistrar registrar = new OkoCodecRegistrar();
    private final List<SwitchConnectionProvider> providers;

    @Activate
    public OkoCodecComponent(
            @Reference(target = "(type=openflow-switch-connection-provider-default-impl)")
            final SwitchConnectionProvider defaultProvider,
            @Reference(target = "(type=openflow-switch-connection-provider-legacy-impl)")
            final SwitchConnectionProvider legacyProvider) {
        providers = List.of(defaultProvider, legacyProvider);
        providers.forEach(registrar::register);
        LOG.info("Oko OpenFlow codecs registered (experimenter 0x4F4B4F00, protocol v1)");
    }

    @Deactivate
    @Override
    public void close() {
        providers.forEach(registrar::unregister);
        LOG.info("Oko OpenFlow codecs unregistered");
    }
}
