/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.IpPrefix;
import org.opendaylight.yang.gen.v1.urn.ietf.params.xml.ns.yang.ietf.inet.types.rev130715.PortNumber;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.P0fSignatureText;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.SynGuard;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.syn.guard.ProtectedDestination;

/**
 * A SYN guard's configuration, checked, with the model's defaults applied.
 *
 * @param name the guard's name
 * @param nodes its switches, sorted
 * @param destinations what it protects: one entry per prefix and port (port 0: every port), sorted
 */
public record GuardConfig(String name, List<String> nodes, List<Destination> destinations, long samplingRate,
        long threshold, long learningSeconds, long holdSeconds, int maxSignatures, double maxLegitimateShare,
        List<P0fSignature> pinned, Set<P0fSignature> vetoed, int table, int nextTable, int priority,
        long samplerProgramId, long filterProgramId) {
    /** One match of the guard's flows: an IPv4 or IPv6 prefix and a TCP port (0: any). */
    public record Destination(String prefix, boolean ipv6, int port) {
    }

    // oko-syn-guard.yang's defaults.
    static final int DEFAULT_SAMPLING_RATE = 100;
    static final int DEFAULT_THRESHOLD = 1000;
    static final int DEFAULT_LEARNING_SECONDS = 60;
    static final int DEFAULT_HOLD_SECONDS = 60;
    static final int DEFAULT_MAX_SIGNATURES = 4;
    static final double DEFAULT_MAX_LEGITIMATE_SHARE = 0.01;
    static final int DEFAULT_TABLE = 0;
    static final int DEFAULT_NEXT_TABLE = 1;
    static final int DEFAULT_PRIORITY = 1000;
    static final long DEFAULT_SAMPLER_ID = 65000;
    static final long DEFAULT_FILTER_ID = 65001;

    public GuardConfig {
        nodes = List.copyOf(nodes);
        destinations = List.copyOf(destinations);
        pinned = List.copyOf(pinned);
        vetoed = Set.copyOf(vetoed);
    }

    /** The configuration of a guard as the datastore holds it; fails with the operator's mistake. */
    public static GuardConfig of(final SynGuard guard) {
        final String name = guard.getName().getValue();
        final Set<String> nodes = new TreeSet<>();
        for (NodeId node : Objects.requireNonNullElse(guard.getNode(), Set.<NodeId>of())) {
            nodes.add(node.getValue());
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("no node");
        }
        final List<Destination> destinations = new ArrayList<>();
        for (ProtectedDestination destination : guard.nonnullProtectedDestination().values()) {
            final IpPrefix prefix = destination.getPrefix();
            final boolean ipv6 = prefix.getIpv6Prefix() != null;
            final String text = ipv6 ? prefix.getIpv6Prefix().getValue() : prefix.getIpv4Prefix().getValue();
            final Set<PortNumber> ports = destination.getPort();
            if (ports == null || ports.isEmpty()) {
                destinations.add(new Destination(text, ipv6, 0));
            } else {
                for (PortNumber port : ports) {
                    destinations.add(new Destination(text, ipv6, port.getValue().intValue()));
                }
            }
        }
        if (destinations.isEmpty()) {
            throw new IllegalArgumentException("no protected-destination");
        }
        destinations.sort(Comparator.comparing(Destination::prefix).thenComparingInt(Destination::port));
        final int table = orDefault(guard.getTable(), DEFAULT_TABLE);
        final int nextTable = orDefault(guard.getNextTable(), DEFAULT_NEXT_TABLE);
        if (nextTable <= table) {
            throw new IllegalArgumentException("next-table " + nextTable + " must be after table " + table);
        }
        final long samplerId = guard.getSamplerProgramId() == null ? DEFAULT_SAMPLER_ID
            : guard.getSamplerProgramId().getValue().longValue();
        final long filterId = guard.getFilterProgramId() == null ? DEFAULT_FILTER_ID
            : guard.getFilterProgramId().getValue().longValue();
        if (samplerId == filterId) {
            throw new IllegalArgumentException("sampler-program-id and filter-program-id are both " + samplerId);
        }
        final List<P0fSignature> pinned = new ArrayList<>();
        for (P0fSignatureText text : Objects.requireNonNullElse(guard.getPinnedSignature(),
                List.<P0fSignatureText>of())) {
            pinned.add(parse("pinned-signature", text));
        }
        final Set<P0fSignature> vetoed = new HashSet<>();
        for (P0fSignatureText text : Objects.requireNonNullElse(guard.getVetoedSignature(),
                Set.<P0fSignatureText>of())) {
            vetoed.add(parse("vetoed-signature", text));
        }
        return new GuardConfig(name, List.copyOf(nodes), destinations,
            orDefaultLong(guard.getSamplingRate(), DEFAULT_SAMPLING_RATE),
            orDefaultLong(guard.getDetectionThreshold(), DEFAULT_THRESHOLD),
            orDefaultLong(guard.getLearningPeriod(), DEFAULT_LEARNING_SECONDS),
            orDefaultLong(guard.getHoldTime(), DEFAULT_HOLD_SECONDS),
            orDefault(guard.getMaxSignatures(), DEFAULT_MAX_SIGNATURES),
            guard.getMaxLegitimateShare() == null ? DEFAULT_MAX_LEGITIMATE_SHARE
                : guard.getMaxLegitimateShare().doubleValue(),
            pinned, vetoed, table, nextTable, orDefault(guard.getPriority(), DEFAULT_PRIORITY), samplerId, filterId);
    }

    /** A leaf's value, or the model's default when it is not set (mdsal's binding does not fill defaults in). */
    private static int orDefault(final Number value, final int fallback) {
        return value == null ? fallback : value.intValue();
    }

    /** The same for a uint32 leaf: its values above 2^31 do not fit an int. */
    private static long orDefaultLong(final Number value, final long fallback) {
        return value == null ? fallback : value.longValue();
    }

    private static P0fSignature parse(final String leaf, final P0fSignatureText text) {
        try {
            return P0fSignature.parse(text.getValue());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(leaf + " '" + text.getValue() + "': " + e.getMessage(), e);
        }
    }

    /**
     * Whether the guard's switches need nothing new for {@code other}: the same programs, flows and switches (what
     * differs, if anything, is only how the guard decides).
     */
    public boolean sameInstallation(final GuardConfig other) {
        return name.equals(other.name) && nodes.equals(other.nodes) && destinations.equals(other.destinations)
            && samplingRate == other.samplingRate && table == other.table && nextTable == other.nextTable
            && priority == other.priority && samplerProgramId == other.samplerProgramId
            && filterProgramId == other.filterProgramId;
    }

    /** What the flood tracker needs. */
    public FloodTracker.Settings trackerSettings() {
        return new FloodTracker.Settings(threshold, TimeUnit.SECONDS.toNanos(learningSeconds),
            TimeUnit.SECONDS.toNanos(holdSeconds), maxSignatures, maxLegitimateShare, pinned, vetoed);
    }

    /** The name of the guard's programs in /oko:programs and the prefix of its flows' ids. */
    public String objectName(final String what) {
        return "syn-guard-" + name + "-" + what;
    }
}
