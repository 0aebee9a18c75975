/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import static java.util.Objects.requireNonNull;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.SettableFuture;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.oko.northbound.DatastoreReads;
import org.opendaylight.oko.northbound.switchio.SwitchClient;
import org.opendaylight.oko.northbound.switchio.SwitchException;
import org.opendaylight.yang.gen.v1.urn.opendaylight.flow.inventory.rev130819.FlowCapableNode;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.Node;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.nodes.NodeKey;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a switch speaks Oko, found out once per connection before anything Oko is sent to it: a PROG_STATS
 * request for every program (docs/protocol.md 4.3), which an Oko switch answers and a switch without Oko refuses
 * with OFPBRC_BAD_EXPERIMENTER. A switch that does not answer, or answers with another error, is taken to speak
 * Oko (its oko-support-message says why): what is sent to it afterwards reports its own failures.
 */
public final class OkoSupport {
    /** The switch's answer to the probe. {@code refusal} is the error name of a switch without Oko. */
    public record Verdict(boolean supported, String refusal) {
    }

    /** openflowplugin's names of OFPBRC_BAD_EXPERIMENTER (OpenFlow 1.3) and its 1.0 name. */
    private static final Set<String> NO_OKO_ERRORS = Set.of("BADEXPERIMENTER", "BADVENDOR");
    private static final Logger LOG = LoggerFactory.getLogger(OkoSupport.class);
    private static final long INVENTORY_TIMEOUT_MILLIS = 10_000;

    private final SwitchClient client;
    private final OperationalState state;
    private final DataBroker broker;
    private final Executor executor;
    /** The probe outstanding or answered for each switch since it connected; an answer to another is stale. */
    private final Map<String, Probe> probes = new ConcurrentHashMap<>();

    /** One connection's probe: done when its answer is recorded, with the verdict it gave. */
    private static final class Probe {
        final SettableFuture<Void> done = SettableFuture.create();
        volatile Verdict verdict;
        /** The programs the answer listed, by id: what the switch runs as it connects. */
        volatile Map<Long, SwitchClient.ProgramStatistics> running = Map.of();
    }

    /** {@code executor} runs what follows an answer (it reads the datastore: not on a switch's I/O thread). */
    public OkoSupport(final SwitchClient client, final OperationalState state, final DataBroker broker,
            final Executor executor) {
        this.client = requireNonNull(client);
        this.state = requireNonNull(state);
        this.broker = requireNonNull(broker);
        this.executor = requireNonNull(executor);
    }

    /**
     * Asks the switch; the future completes (never fails) when the verdict is recorded. A switch that refuses the
     * probe with another error, or does not answer, is taken to speak Oko (what is sent to it reports its own
     * failures), and says so.
     */
    public ListenableFuture<Void> probe(final String node) {
        final Probe probe = new Probe();
        probes.put(node, probe);
        FluentFuture.from(client.programStatistics(node, 0))
            .transform(programs -> {
                probe.running = programs.stream().collect(Collectors.toUnmodifiableMap(
                    SwitchClient.ProgramStatistics::progId, program -> program, (first, second) -> second));
                return new Verdict(true, null);
            }, executor)
            .catching(Throwable.class, OkoSupport::verdictOf, executor)
            .transform(verdict -> {
                record(node, probe, verdict);
                return (Void) null;
            }, executor)
            .catching(Throwable.class, e -> {
                LOG.warn("{}: the Oko probe's answer could not be recorded", node, e);
                return null;
            }, executor)
            .addListener(() -> probe.done.set(null), MoreExecutors.directExecutor());
        return probe.done;
    }

    private static Verdict verdictOf(final Throwable failure) {
        if (failure instanceof SwitchException e && e.kind() == SwitchException.Kind.REFUSED
                && NO_OKO_ERRORS.contains(e.getMessage().strip())) {
            return new Verdict(false, e.getMessage().strip());
        }
        return new Verdict(true, "no answer to the probe (" + failure.getMessage() + "); taken to speak Oko");
    }

    /**
     * The programs the switch ran when it connected, by id, as its answer to this connection's probe listed them
     * (empty before the answer, or when the switch refused the probe).
     */
    public Map<Long, SwitchClient.ProgramStatistics> running(final String node) {
        final Probe probe = probes.get(node);
        return probe == null ? Map.of() : probe.running;
    }

    /**
     * Waits (at most {@code timeoutMillis}) for the probe of a switch that is being asked: nothing Oko is sent to
     * a switch before it has answered.
     */
    public void awaitProbe(final String node, final long timeoutMillis) {
        final Probe probe = probes.get(node);
        if (probe == null) {
            return;
        }
        try {
            probe.done.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("{}: the Oko probe did not complete", node, e);
        }
    }

    private void record(final String node, final Probe probe, final Verdict verdict) {
        // The reads (the switch's description) before the lock; the check that the answer is current with it.
        final String message = verdict.supported()
            ? verdict.refusal() == null ? "answered PROG_STATS" : verdict.refusal()
            : answerOf(node, verdict);
        synchronized (this) {
            if (probes.get(node) != probe) {
                return;         // the switch went (or was probed again) meanwhile: this answer is stale
            }
            probe.verdict = verdict;
            state.okoSupported(node, verdict.supported(), message);
        }
        if (verdict.supported()) {
            LOG.info("{}: speaks Oko{}", node, verdict.refusal() == null ? "" : " (" + verdict.refusal() + ")");
        } else {
            LOG.warn("{} does not support Oko ({}); nothing Oko is sent to it", node, message);
        }
    }

    /**
     * Writes the verdict again, naming the switch's software: during reconciliation, when the probe is answered,
     * the switch's description is not in the inventory yet.
     */
    public void describe(final String node) {
        final Verdict verdict = verdict(node);
        if (verdict != null && !verdict.supported()) {
            final String message = answerOf(node, verdict);
            synchronized (this) {
                if (verdict(node) == verdict) {
                    state.okoSupported(node, false, message);
                }
            }
        }
    }

    /** The switch refused the probe: nothing Oko is to be sent to it. */
    public boolean unsupported(final String node) {
        final Verdict verdict = verdict(node);
        return verdict != null && !verdict.supported();
    }

    /** The switch answered the probe. */
    public boolean supported(final String node) {
        final Verdict verdict = verdict(node);
        return verdict != null && verdict.supported();
    }

    /** "openflow:170 does not support Oko (Open vSwitch 3.1.0 answered BADEXPERIMENTER)". */
    public String unsupportedMessage(final String node) {
        final Verdict verdict = verdict(node);
        return node + " does not support Oko (" + (verdict == null ? "unknown" : answerOf(node, verdict)) + ")";
    }

    private String answerOf(final String node, final Verdict verdict) {
        return description(node).orElse("the switch") + " answered " + verdict.refusal();
    }

    /** "Open vSwitch 3.1.0": the hardware and software the switch described itself with, once in the inventory. */
    private Optional<String> description(final String node) {
        try (var tx = broker.newReadOnlyTransaction()) {
            return DatastoreReads.await(tx.read(LogicalDatastoreType.OPERATIONAL, DataObjectIdentifier
                    .builder(Nodes.class).child(Node.class, new NodeKey(new NodeId(node)))
                    .augmentation(FlowCapableNode.class).build()), INVENTORY_TIMEOUT_MILLIS, "the inventory")
                .map(fcn -> ((fcn.getHardware() == null ? "" : fcn.getHardware()) + " "
                    + (fcn.getSoftware() == null ? "" : fcn.getSoftware())).strip())
                .filter(text -> !text.isEmpty());
        } catch (IllegalStateException e) {
            LOG.debug("{}: no description in the inventory", node, e);
            return Optional.empty();
        }
    }

    /** The verdict of the switch's current connection, once it answered. */
    private Verdict verdict(final String node) {
        final Probe probe = probes.get(node);
        return probe == null ? null : probe.verdict;
    }

    /** The switch is gone: the next connection asks again. */
    public synchronized void forget(final String node) {
        probes.remove(node);
    }
}
