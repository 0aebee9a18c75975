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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
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
 * Oko: what is sent to it afterwards reports its own failures, as before the probe existed.
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
    private final Map<String, Verdict> verdicts = new ConcurrentHashMap<>();
    /** The probe outstanding or answered for each switch since it connected; an answer to another is stale. */
    private final Map<String, Object> probes = new ConcurrentHashMap<>();

    /** {@code executor} runs what follows an answer (it reads the datastore: not on a switch's I/O thread). */
    public OkoSupport(final SwitchClient client, final OperationalState state, final DataBroker broker,
            final Executor executor) {
        this.client = requireNonNull(client);
        this.state = requireNonNull(state);
        this.broker = requireNonNull(broker);
        this.executor = requireNonNull(executor);
    }

    /** Asks the switch; the future completes (never fails) when the verdict is recorded, or none could be made. */
    public ListenableFuture<Void> probe(final String node) {
        verdicts.remove(node);
        final Object probe = new Object();
        probes.put(node, probe);
        return FluentFuture.from(client.programStatistics(node, 0))
            .transform(ignored -> {
                record(node, probe, new Verdict(true, null));
                return (Void) null;
            }, executor)
            .catching(SwitchException.class, e -> {
                final String refusal = e.getMessage().strip();
                if (e.kind() == SwitchException.Kind.REFUSED && NO_OKO_ERRORS.contains(refusal)) {
                    record(node, probe, new Verdict(false, refusal));
                } else {
                    LOG.info("{}: the Oko probe (PROG_STATS) failed: {}; taken to speak Oko", node, e.getMessage());
                }
                return null;
            }, executor);
    }

    private void record(final String node, final Object probe, final Verdict verdict) {
        if (probes.get(node) != probe) {
            return;         // the switch went (or was probed again) meanwhile: this answer is stale
        }
        verdicts.put(node, verdict);
        if (verdict.supported()) {
            LOG.info("{}: speaks Oko", node);
            state.okoSupported(node, true, "answered PROG_STATS");
        } else {
            final String message = unsupportedMessage(node);
            LOG.warn("{}; nothing Oko is sent to it", message);
            state.okoSupported(node, false, answer(node));
        }
    }

    /**
     * Writes the verdict again, naming the switch's software: during reconciliation, when the probe is answered,
     * the switch's description is not in the inventory yet.
     */
    public void describe(final String node) {
        final Verdict verdict = verdicts.get(node);
        if (verdict != null && !verdict.supported()) {
            state.okoSupported(node, false, answer(node));
        }
    }

    /** The switch refused the probe: nothing Oko is to be sent to it. */
    public boolean unsupported(final String node) {
        final Verdict verdict = verdicts.get(node);
        return verdict != null && !verdict.supported();
    }

    /** The switch answered the probe. */
    public boolean supported(final String node) {
        final Verdict verdict = verdicts.get(node);
        return verdict != null && verdict.supported();
    }

    /** "openflow:170 does not support Oko (Open vSwitch 3.1.0 answered BADEXPERIMENTER)". */
    public String unsupportedMessage(final String node) {
        return node + " does not support Oko (" + answer(node) + ")";
    }

    private String answer(final String node) {
        final Verdict verdict = verdicts.get(node);
        return description(node).orElse("the switch") + " answered "
            + (verdict == null || verdict.refusal() == null ? "PROG_STATS" : verdict.refusal());
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

    /** The switch is gone: the next connection asks again. */
    public void forget(final String node) {
        probes.remove(node);
        verdicts.remove(node);
    }
}
