/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.notification;

import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeRef;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;

/** The switch an openflowplugin notification comes from. */
public final class NodeRefs {
    private NodeRefs() {
        // static helpers only
    }

    /** The inventory id of the node ("openflow:1"), or null if the reference names none. */
    public static String nodeId(final NodeRef ref) {
        if (ref != null && ref.getValue() instanceof DataObjectIdentifier<?> path) {
            final NodeKey key = path.toLegacy().firstKeyOf(Node.class);
            if (key != null) {
                return key.getId().getValue();
            }
        }
        return null;
    }
}
