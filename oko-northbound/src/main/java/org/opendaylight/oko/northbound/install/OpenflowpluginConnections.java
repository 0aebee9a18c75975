/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.Service;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import java.lang.reflect.Field;
import java.util.List;
import org.opendaylight.openflowplugin.api.openflow.device.DeviceInfo;
import org.opendaylight.openflowplugin.api.openflow.lifecycle.ContextChain;
import org.opendaylight.openflowplugin.api.openflow.lifecycle.ContextChainHolder;
import org.opendaylight.openflowplugin.api.openflow.lifecycle.GuardedContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A switch's connection to this member as openflowplugin keeps it: its context chain, whose guarded contexts
 * (device, RPC, statistics, role) say whether the switch's services run here, closed the way openflowplugin closes
 * it when it cannot master a switch it must ({@link ContextChainHolder#onNotAbleToStartMastership}): the context
 * chain is destroyed, which ends the switch's cluster singleton here and closes the connection.
 *
 * <p>openflowplugin 0.20 publishes neither: the holder is a field of its provider, which is published (as the
 * extension registrator provider Oko's codecs register with), and a chain's contexts are a field of the chain,
 * typed with its public {@link GuardedContext}. Both are read by name; with another openflowplugin where that
 * fails, {@link #find} says so in the log and nothing is repaired.
 */
public final class OpenflowpluginConnections implements MastershipRepair.Connections {
    private static final Logger LOG = LoggerFactory.getLogger(OpenflowpluginConnections.class);
    private static final String HOLDER_FIELD = "contextChainHolder";
    private static final String CHAIN_CLASS = "org.opendaylight.openflowplugin.impl.lifecycle.ContextChainImpl";
    private static final String CONTEXTS_FIELD = "contexts";

    private final ContextChainHolder holder;
    private final Field contexts;

    OpenflowpluginConnections(final ContextChainHolder holder, final Field contexts) {
        this.holder = requireNonNull(holder);
        this.contexts = requireNonNull(contexts);
    }

    /** The connections of openflowplugin's {@code provider} (its OpenFlowPluginProviderImpl), or none. */
    @SuppressFBWarnings(value = "DP_DO_INSIDE_DO_PRIVILEGED",
        justification = "no security manager: Java 21 runs without one, and doPrivileged is deprecated for removal")
    @SuppressWarnings("checkstyle:IllegalCatch")
    public static MastershipRepair.Connections find(final Object provider) {
        try {
            final Field holderField = provider.getClass().getDeclaredField(HOLDER_FIELD);
            holderField.setAccessible(true);
            if (holderField.get(provider) instanceof ContextChainHolder found) {
                final Field contexts = Class.forName(CHAIN_CLASS, false, provider.getClass().getClassLoader())
                    .getDeclaredField(CONTEXTS_FIELD);
                contexts.setAccessible(true);
                LOG.info("openflowplugin's context chains are reachable: a switch its role timer race leaves with no "
                    + "master gets one again");
                return new OpenflowpluginConnections(found, contexts);
            }
            LOG.warn("{}.{} is not a context-chain holder: a switch openflowplugin's role timer race leaves with no "
                + "master keeps none until it reconnects", provider.getClass().getName(), HOLDER_FIELD);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("openflowplugin's context chains are not reachable ({}): a switch its role timer race leaves "
                + "with no master keeps none until it reconnects", e.toString());
        }
        return device -> null;
    }

    @Override
    public MastershipRepair.Connection of(final DeviceInfo device) {
        final ContextChain chain = holder.getContextChain(device);
        if (chain == null) {
            return null;
        }
        return new MastershipRepair.Connection() {
            @Override
            public boolean servicesStarted() {
                return states(chain).stream().anyMatch(state -> state == Service.State.STARTING
                    || state == Service.State.RUNNING);
            }

            @Override
            public boolean servicesRunning() {
                if (holder.getContextChain(device) != chain || chain.isClosing()) {
                    return false;
                }
                final List<Service.State> states = states(chain);
                return !states.isEmpty() && states.stream().allMatch(state -> state == Service.State.RUNNING);
            }

            @Override
            @SuppressWarnings("checkstyle:IllegalCatch")
            public boolean close(final String reason) {
                if (!servicesRunning()) {
                    // Replaced or closing since the check: a later connection has its own course.
                    return true;
                }
                try {
                    holder.onNotAbleToStartMastership(device, reason, true);
                } catch (RuntimeException e) {
                    LOG.warn("{}: openflowplugin failed to close the connection", device.getNodeId().getValue(), e);
                    return false;
                }
                return holder.getContextChain(device) != chain || chain.isClosing();
            }
        };
    }

    /** The states of the chain's services; none when they cannot be read. */
    private List<Service.State> states(final ContextChain chain) {
        final Object list;
        try {
            list = contexts.get(chain);
        } catch (IllegalAccessException | IllegalArgumentException e) {
            LOG.debug("{}: contexts not readable", chain, e);
            return List.of();
        }
        if (!(list instanceof List<?> items)) {
            return List.of();
        }
        return items.stream().filter(GuardedContext.class::isInstance)
            .map(item -> ((GuardedContext) item).state()).toList();
    }
}
