/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import java.util.Collection;
import org.apache.pekko.cluster.Cluster;
import org.opendaylight.controller.cluster.ActorSystemProvider;

/**
 * This controller's name in its cluster: the {@code member-N} role its configuration/initial/pekko.conf gives it
 * (a controller that is not clustered is member-1). A switch's operational entry names the member that masters it.
 */
public final class ClusterMember {
    private static final String MEMBER_ROLE_PREFIX = "member-";
    private static final String UNNAMED = "member-unnamed";

    private ClusterMember() {
        // names only
    }

    public static String name(final ActorSystemProvider provider) {
        return name(Cluster.get(provider.getActorSystem()).getSelfRoles());
    }

    /** The first role that names a member; the distribution's configuration always gives one. */
    static String name(final Collection<String> roles) {
        return roles.stream().filter(role -> role.startsWith(MEMBER_ROLE_PREFIX)).sorted().findFirst()
            .orElse(UNNAMED);
    }
}
