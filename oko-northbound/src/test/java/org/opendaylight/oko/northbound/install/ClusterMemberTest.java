/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterMemberTest {
    @Test
    void theMemberRoleNamesTheMember() {
        // Pekko adds a data-centre role beside the ones the configuration gives.
        assertEquals("member-2", ClusterMember.name(List.of("dc-default", "member-2")));
        assertEquals("member-1", ClusterMember.name(List.of("member-1")));
    }

    @Test
    void aConfigurationWithoutAMemberRoleIsSaidSo() {
        assertEquals("member-unnamed", ClusterMember.name(List.of("dc-default")));
    }
}
