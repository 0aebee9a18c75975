/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static java.util.Objects.requireNonNull;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import org.opendaylight.openflowplugin.api.openflow.device.DeviceInfo;
import org.opendaylight.openflowplugin.api.openflow.lifecycle.ContextChain;
import org.opendaylight.openflowplugin.api.openflow.lifecycle.ContextChainHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A switch's connection to this member as openflowplugin keeps it (its context chain), closed the way openflowplugin
 * closes it when it cannot master a switch it must ({@link ContextChainHolder#onNotAbleToStartMastership}): the
 * context chain is destroyed, which ends the switch's cluster singleton here and closes the connection.
 *
 * <p>openflowplugin 0.20 does not publish its context-chain holder as a service: it is a field of its provider,
 * which is published (as the extension registrator provider Oko's codecs register with). It is read once, by
 * name; with another openflowplugin where that fails, {@link #find} says so in the log and the repair only reports.
 */
public final class OpenflowpluginConnections implements MastershipRepair.Connections {
    private static final Logger LOG = LoggerFactory.getLogger(OpenflowpluginConnections.class);
    private static final String HOLDER_FIELD = "contextChainHolder";

    private final ContextChainHolder holder;

    OpenflowpluginConnections(final ContextChainHolder holder) {
        this.holder = requireNonNull(holder);
    }

    /** The connections of openflowplugin's {@code provider} (its OpenFlowPluginProviderImpl), or unreachable ones. */
    @SuppressFBWarnings(value = "DP_DO_INSIDE_DO_PRIVILEGED",
        justification = "no security manager: Java 21 runs without one, and doPrivileged is deprecated for removal")
    @SuppressWarnings("checkstyle:IllegalCatch")
    public static MastershipRepair.Connections find(final Object provider) {
        try {
            final var field = provider.getClass().getDeclaredField(HOLDER_FIELD);
            field.setAccessible(true);
            if (field.get(provider) instanceof ContextChainHolder found) {
                LOG.info("openflowplugin's context chains are reachable: a switch its role timer race leaves with no "
                    + "master gets one again");
                return new OpenflowpluginConnections(found);
            }
            LOG.warn("{}.{} is not a context-chain holder: a switch openflowplugin's role timer race leaves with no "
                + "master is only reported", provider.getClass().getName(), HOLDER_FIELD);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("openflowplugin's context chains are not reachable ({}): a switch its role timer race leaves "
                + "with no master is only reported", e.toString());
        }
        return OpenflowpluginConnections::unreachable;
    }

    @Override
    public MastershipRepair.Connection of(final DeviceInfo device) {
        final ContextChain chain = holder.getContextChain(device);
        if (chain == null) {
            return null;
        }
        return new MastershipRepair.Connection() {
            @Override
            public boolean stillOpen() {
                // The same chain (not one of a later connection), not closing. Whether openflowplugin masters the
                // switch is what it told its mastership listeners (Oko among them), not the chain's own flags: the
                // race can leave those set by a late initial submit.
                return holder.getContextChain(device) == chain && !chain.isClosing();
            }

            @Override
            public boolean close(final String reason) {
                holder.onNotAbleToStartMastership(device, reason, true);
                return true;
            }
        };
    }

    private static MastershipRepair.Connection unreachable(final DeviceInfo device) {
        return new MastershipRepair.Connection() {
            @Override
            public boolean stillOpen() {
                return true;
            }

            @Override
            public boolean close(final String reason) {
                return false;
            }
        };
    }
}
