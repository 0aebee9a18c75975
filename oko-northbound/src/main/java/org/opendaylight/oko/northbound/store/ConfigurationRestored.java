/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import org.osgi.annotation.bundle.Capability;

/**
 * A service registered once this member's configuration store has put the stored configuration back into the
 * datastore: what waits for the configuration (Oko's northbound, which pushes it to the switches) references it.
 *
 * <p>Why a service of its own rather than the store: the store's start can wait minutes (a whole cluster's start
 * waits for every member's report). Done inside the store's activation, it held Declarative Services' lock on the
 * component for that long, and a component that asked for the store meanwhile failed after the 5 s lock timeout
 * and never started (seen as a cluster member whose OpenFlow listener never came up).
 *
 * <p>Registered by hand, so the bundle declares the capability itself: Karaf's resolver checks that the service
 * OkoNorthbound references is provided by some bundle.
 */
@Capability(namespace = "osgi.service",
    attribute = "objectClass:List<String>=\"org.opendaylight.oko.northbound.store.ConfigurationRestored\"")
public interface ConfigurationRestored {
}
