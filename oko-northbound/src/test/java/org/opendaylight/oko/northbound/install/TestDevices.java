/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import java.lang.reflect.Proxy;
import org.opendaylight.openflowplugin.api.openflow.device.DeviceInfo;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;

/** openflowplugin's view of a switch, as the tests need it: its node id only. */
final class TestDevices {
    private TestDevices() {
    }

    static DeviceInfo device(final String node) {
        return (DeviceInfo) Proxy.newProxyInstance(DeviceInfo.class.getClassLoader(), new Class<?>[] {
            DeviceInfo.class }, (proxy, method, args) -> switch (method.getName()) {
                case "getNodeId" -> new NodeId(node);
                case "toString" -> "DeviceInfo(" + node + ")";
                case "hashCode" -> node.hashCode();
                case "equals" -> proxy == args[0];
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }
}
