/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.opendaylight.openflowplugin.api.openflow.device.DeviceInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gets a switch a master again after a race in openflowplugin 0.20 left it with none.
 *
 * <p>On every member a switch connects to, openflowplugin's role context starts a timer that sets the switch to
 * slave 20 s after the connection unless a role was set before. When the cluster makes that member the switch's
 * master in the same few milliseconds (a failover about 20 s after the switch connected, as when a master dies
 * shortly after a switch reconnected), the timer's SLAVE request is sent after the MASTER request and its callback
 * runs last: the switch takes the member for a slave and openflowplugin stops mastering it there, but the member
 * keeps the cluster singleton for the switch, so no other member takes over. Nobody masters the switch until its
 * connection to that member closes. Seen from Oko, openflowplugin says "lost ownership" (becomeSlaveOrDisconnect)
 * while the entity ownership service still says that this member runs the switch's singleton.
 *
 * <p>Normally the order is the other way round: a slave member's timer fires first, and the member's services for
 * the switch start later (a failover; or, under load, the member's own election: a thousand switches connecting at
 * once delay the start by seconds) or never. So only a "lost ownership" that arrives once openflowplugin started
 * the switch's services here is suspect (a real loss or a disconnection also says it then, but stops the services
 * right after). When after a grace period the same connection's services still run, the entity ownership service
 * still says the singleton runs here, and Oko was not told it masters the switch, the switch's connection to this
 * member is closed through openflowplugin ({@link Connections}). That ends the singleton here:
 * another member becomes the master, with openflowplugin's normal master path (Oko adopts the programs the switch
 * has), and the switch reconnects to this member as a slave.
 */
public final class MastershipRepair {
    /**
     * How long a suspect state must last before the connection is closed: longer than openflowplugin's own wait for
     * a role request (10 s), after which a MASTER request in flight has either succeeded or openflowplugin has
     * closed the chain itself.
     */
    public static final long DEFAULT_GRACE_MILLIS = 12_000;
    /** Checks of the entity ownership service that did not answer (under load it times out) before giving up. */
    static final int OWNERSHIP_TRIES = 3;
    private static final Logger LOG = LoggerFactory.getLogger(MastershipRepair.class);

    /**
     * Whether this member runs openflowplugin's cluster singleton for a switch (the entity ownership service); empty
     * when the service did not answer.
     */
    @FunctionalInterface
    public interface Singletons {
        Optional<Boolean> runsHere(String node);
    }

    /** The switches' connections to this member, as openflowplugin keeps them. */
    @FunctionalInterface
    public interface Connections {
        /** The switch's connection to this member as it is now; null when it has none. */
        Connection of(DeviceInfo device);
    }

    /** One connection of a switch to this member. */
    public interface Connection {
        /** openflowplugin has started, or is starting, its services for the switch on this connection. */
        boolean servicesStarted();

        /** Still the switch's connection to this member (not a later one), open, with all its services running. */
        boolean servicesRunning();

        /** Closes it, ending the switch's cluster singleton here; false when that is not possible from here. */
        boolean close(String reason);
    }

    private final String member;
    private final Singletons singletons;
    private final Connections connections;
    private final ScheduledExecutorService timer;
    private final Executor work;
    private final long graceMillis;
    private final Set<String> pending = ConcurrentHashMap.newKeySet();

    /**
     * Checks are scheduled on {@code timer} and run on {@code work}: they wait for the entity ownership service, and
     * a close runs openflowplugin's whole disconnection.
     */
    public MastershipRepair(final String member, final Singletons singletons, final Connections connections,
            final ScheduledExecutorService timer, final Executor work, final long graceMillis) {
        this.member = requireNonNull(member);
        this.singletons = requireNonNull(singletons);
        this.connections = requireNonNull(connections);
        this.timer = requireNonNull(timer);
        this.work = requireNonNull(work);
        this.graceMillis = graceMillis;
    }

    /**
     * openflowplugin said this member does not (or no longer) master the switch. {@code masteredHere} says, when the
     * grace period is over, whether Oko was told since that this member masters it after all.
     */
    public void slaveSet(final DeviceInfo device, final Predicate<String> masteredHere) {
        // Called on openflowplugin's threads: only local reads here, the entity ownership service is asked later,
        // on the timer (under load its answer takes seconds, and openflowplugin's threads would wait for it).
        final String node = device.getNodeId().getValue();
        final Connection connection = connections.of(device);
        if (connection == null || !connection.servicesStarted() || !pending.add(node)) {
            // Disconnected; or the timer came first and the services start later, when the master role follows
            // (under load that takes seconds: the normal order); or a check is already waiting.
            return;
        }
        LOG.debug("{}: set to slave after openflowplugin started its services on this member ({}); checking again "
            + "in {} ms", node, member, graceMillis);
        schedule(node, connection, masteredHere, OWNERSHIP_TRIES);
    }

    private void schedule(final String node, final Connection connection, final Predicate<String> masteredHere,
            final int triesLeft) {
        try {
            timer.schedule(() -> work.execute(() -> check(node, connection, masteredHere, triesLeft)), graceMillis,
                TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            pending.remove(node);
            LOG.debug("{}: shutting down, no check", node, e);
        }
    }

    @SuppressWarnings("checkstyle:IllegalCatch")
    private void check(final String node, final Connection connection, final Predicate<String> masteredHere,
            final int triesLeft) {
        try {
            confirm(node, connection, masteredHere, triesLeft);
        } catch (RuntimeException e) {
            pending.remove(node);
            LOG.error("{}: the check for a switch left with no master failed", node, e);
        }
    }

    private void confirm(final String node, final Connection connection, final Predicate<String> masteredHere,
            final int triesLeft) {
        if (masteredHere.test(node) || !connection.servicesRunning()) {
            // Mastered here after all, or this connection's services stopped or it is gone (its singleton was
            // closed: the "lost ownership" was a real loss, or a disconnection).
            pending.remove(node);
            return;
        }
        final Optional<Boolean> here = singletons.runsHere(node);
        if (here.isEmpty()) {
            if (triesLeft > 1) {
                LOG.debug("{}: the entity ownership service did not answer; asking again later", node);
                schedule(node, connection, masteredHere, triesLeft - 1);
            } else {
                pending.remove(node);
                LOG.warn("{}: set to slave while openflowplugin's services for it ran on this member ({}), and the "
                    + "entity ownership service did not say who masters it in {} tries: not repaired", node, member,
                    OWNERSHIP_TRIES);
            }
            return;
        }
        pending.remove(node);
        if (!here.orElseThrow()) {
            return;                             // mastered elsewhere
        }
        // The close checks again that the connection is the one seen here, still running.
        final String reason = "this member (" + member + ") holds the cluster's mastership of " + node
            + " but openflowplugin set the switch to slave (its 20 s slave timer raced the master election)";
        LOG.warn("{}: no member masters it: {}; closing its connection to this member so that the cluster elects a "
            + "master again (the switch reconnects here as a slave)", node, reason);
        if (!connection.close("Oko: " + reason)) {
            LOG.error("{}: no member masters it: {}, and the connection could not be closed from here. Restart "
                + "this member, or make the switch reconnect (ovs-vsctl set-controller with the same targets "
                + "again after del-controller)", node, reason);
        }
    }
}
