/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.opendaylight.mdsal.common.api.LogicalDatastoreType.OPERATIONAL;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.mdsal.common.api.OptimisticLockFailedException;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.oko.northbound.DatastoreReads;
import org.opendaylight.oko.northbound.store.StoreLog.Version;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.common.Uint32;
import org.opendaylight.yangtools.yang.common.Uint64;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifierWithPredicates;
import org.opendaylight.yangtools.yang.data.api.schema.ContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapEntryNode;
import org.opendaylight.yangtools.yang.data.api.schema.MapNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.spi.node.ImmutableNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the members of a cluster (or a single controller) agree, at a start, on who puts the stored configuration
 * back into the empty datastore, through the operational {@code /oko:configuration-store}.
 *
 * <ol>
 *   <li>Every member reports its copy: whether it has one (a new store has none) and, per stored subtree, its
 *       {@link Version}.</li>
 *   <li>When the cluster runs already (the top-level state is {@code restored}), the member takes the
 *       configuration from the datastore. Otherwise it waits until every member of the cluster has reported
 *       (or an operator has named the members not to wait for, in {@code start-without} beside the store); the
 *       newest copy of each subtree is then restored by the member that holds it (ties by member name), never
 *       by a member without a copy. Every member computes the same choice from the same reports.</li>
 *   <li>A member that restores a subtree first leads the subtree's shard (its cohort is then the one asked,
 *       and it refuses every write other than the restore's own until the cluster has started), claims the
 *       subtree, puts back the entries the datastore does not hold, and marks the subtree restored. The first
 *       member by name marks the whole configuration restored, with the new life, once every subtree is.</li>
 * </ol>
 * A restorer that stops midway leaves its claim: the others go on waiting for it (it holds the newest copy),
 * and it finishes the restore when it comes back, putting back only what is missing; an operator who gives it
 * up ({@code start-without}) lets the next newest copy be restored. Nothing is ever restored over a running
 * cluster's configuration: a member that finds the top-level state {@code restored} only takes.
 */
final class ClusterStart {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterStart.class);
    static final String START_WITHOUT_FILE = "start-without";
    private static final long DATASTORE_TIMEOUT_SECONDS = 120;
    private static final long WAITING_LOG_MILLIS = 30_000;
    static final String RESTORING = "restoring";
    static final String RESTORED = "restored";

    private static final QName STORE = QName.create(Programs.QNAME, "configuration-store").intern();
    private static final QName RESTORED_BY = QName.create(STORE, "restored-by").intern();
    private static final QName RESTORED_AT = QName.create(STORE, "restored-at").intern();
    private static final QName STATE = QName.create(STORE, "state").intern();
    private static final QName SUMMARY = QName.create(STORE, "summary").intern();
    private static final QName LIFE = QName.create(STORE, "life").intern();
    private static final QName SUBTREE = QName.create(STORE, "subtree").intern();
    private static final QName NAME = QName.create(STORE, "name").intern();
    private static final QName ENTRIES = QName.create(STORE, "entries").intern();
    private static final QName MEMBER = QName.create(STORE, "member").intern();
    private static final QName HAS_COPY = QName.create(STORE, "has-copy").intern();
    private static final QName COPY = QName.create(STORE, "copy").intern();
    private static final QName COPY_SUBTREE = QName.create(STORE, "subtree").intern();
    private static final QName TERM = QName.create(STORE, "term").intern();
    private static final QName COMMITS = QName.create(STORE, "commits").intern();
    private static final QName FOLLOWED = QName.create(STORE, "followed").intern();
    static final YangInstanceIdentifier STORE_PATH = YangInstanceIdentifier.of(STORE);

    /** The cluster's members and this member's part in each root's shard. */
    interface Shards extends ConfigurationStore.ShardTerms {
        /** Every member holding a replica of the shards of the stored subtrees. */
        List<String> members() throws IOException;

        /** Makes this member the leader of the shard that holds {@code root} (returns when it is). */
        void lead(YangInstanceIdentifier root) throws IOException;

        /**
         * The Raft term in which this member's replica leads the shard that holds {@code root}, once it has
         * applied every entry of the earlier terms (Leader, not PreLeader); empty while it does not lead.
         */
        OptionalLong leadingTerm(YangInstanceIdentifier root) throws IOException;
    }

    /** Puts a subtree back; returns how many entries it put. */
    @FunctionalInterface
    interface Restorer {
        int restore(YangInstanceIdentifier root) throws IOException;
    }

    /** What one member reported. */
    record Report(String member, boolean hasCopy, Map<String, Version> copies) {
    }

    /** The state of the operational /oko:configuration-store. */
    record Status(@Nullable String state, long life, String restoredBy, Map<String, Report> reports,
            Map<String, SubtreeState> subtrees) {
    }

    record SubtreeState(String restoredBy, String state, long entries) {
    }

    /** The outcome of a start: the cluster's life, and who restored what. */
    record Outcome(long life, boolean joined, Map<String, String> restorers, Map<String, Integer> restored) {
    }

    private final DOMDataBroker broker;
    private final Shards shards;
    private final String member;
    private final Path dir;
    private final Map<String, YangInstanceIdentifier> roots = new LinkedHashMap<>();
    private final long pollMillis;

    ClusterStart(final DOMDataBroker broker, final Shards shards, final String member, final Path dir,
            final List<YangInstanceIdentifier> roots, final long pollMillis) {
        this.broker = broker;
        this.shards = shards;
        this.member = member;
        this.dir = dir;
        roots.forEach(root -> this.roots.put(name(root), root));
        this.pollMillis = pollMillis;
    }

    static String name(final YangInstanceIdentifier root) {
        return root.getLastPathArgument().getNodeType().getLocalName();
    }

    /**
     * Runs this member's part of the start: reports its copy ({@code versions}: none when {@code hasCopy} is
     * false), waits for the choice, restores what it is chosen for, and returns once the whole configuration is
     * back.
     */
    Outcome run(final boolean hasCopy, final Map<String, Version> versions, final Restorer restorer)
            throws IOException {
        final Report mine = new Report(member, hasCopy, hasCopy ? Map.copyOf(versions) : Map.of());
        final Status status = read();
        if (RESTORED.equals(status.state())) {
            report(mine);
            retireStartWithout();
            return new Outcome(status.life(), true, Map.of(), Map.of());
        }
        report(mine);
        long lastLog = System.currentTimeMillis();
        final Map<String, Integer> restored = new TreeMap<>();
        // Subtrees this member would restore but another member claimed first: the others chose without this
        // member's copy (an operator's start-without, written while it was away). Theirs is the start: this member
        // waits for them rather than fail, and tries its claim again at every turn (said once in karaf.log).
        final Set<String> yielded = new HashSet<>();
        while (true) {
            final Status now = read();
            if (RESTORED.equals(now.state())) {
                retireStartWithout();
                return new Outcome(now.life(), false, restorers(now), restored);
            }
            final Set<String> without = startWithout();
            final List<String> awaited = shards.members().stream()
                .filter(name -> !now.reports().containsKey(name) && !without.contains(name)).toList();
            if (!awaited.isEmpty()) {
                if (System.currentTimeMillis() - lastLog > WAITING_LOG_MILLIS) {
                    lastLog = System.currentTimeMillis();
                    LOG.warn("The configuration store waits for {} to report its copy before the cluster's "
                        + "configuration is restored. A member gone for good: write its name into {} on every "
                        + "member that waits (docs/northbound.md, 'Durability')", awaited,
                        dir.resolve(START_WITHOUT_FILE));
                }
                sleep();
                continue;
            }
            final Map<String, Report> counted = new TreeMap<>(now.reports());
            counted.keySet().removeAll(without);
            final Map<String, String> chosen = choose(counted, roots.keySet());
            final long life = counted.values().stream().flatMap(report -> report.copies().values().stream())
                .mapToLong(Version::life).max().orElse(0) + 1;
            boolean allRestored = true;
            for (var entry : chosen.entrySet()) {
                final String subtree = entry.getKey();
                final SubtreeState state = now.subtrees().get(subtree);
                final boolean done = state != null && RESTORED.equals(state.state());
                if (!done && member.equals(entry.getValue()) && !restored.containsKey(subtree)) {
                    // A claim is taken over only from a member left out that has not reported: one that is back
                    // and restoring keeps its claim.
                    final Set<String> gone = new HashSet<>(without);
                    gone.removeAll(now.reports().keySet());
                    final Integer entries = restoreSubtree(subtree, restorer, gone, yielded.add(subtree));
                    if (entries != null) {
                        restored.put(subtree, entries);
                    } else {
                        allRestored = false;
                    }
                } else if (!done) {
                    allRestored = false;
                }
            }
            if (!allRestored) {
                if (System.currentTimeMillis() - lastLog > WAITING_LOG_MILLIS) {
                    lastLog = System.currentTimeMillis();
                    LOG.warn("The configuration store waits for the members that hold the newest copies to restore "
                        + "them: {}", chosen);
                }
                sleep();
                continue;
            }
            final String coordinator = counted.keySet().iterator().next();
            if (member.equals(coordinator)) {
                markRestored(life, chosen, now.subtrees(), restored);
            } else {
                sleep();
            }
        }
    }

    /**
     * The member that restores each subtree: the one with the newest copy, by name when two are as new (never
     * one without a copy); no entry for a subtree no member has a copy of.
     */
    static Map<String, String> choose(final Map<String, Report> reports, final Set<String> subtrees) {
        final Map<String, String> chosen = new TreeMap<>();
        for (String subtree : subtrees) {
            reports.values().stream().filter(Report::hasCopy)
                .filter(report -> report.copies().containsKey(subtree))
                .max(Comparator.<Report, Version>comparing(report -> report.copies().get(subtree))
                    .thenComparing(Report::member, Comparator.reverseOrder()))
                .ifPresent(report -> chosen.put(subtree, report.member()));
        }
        return chosen;
    }

    private static Map<String, String> restorers(final Status status) {
        final Map<String, String> out = new TreeMap<>();
        status.subtrees().forEach((name, state) -> out.put(name, state.restoredBy()));
        return out;
    }

    /**
     * Leads the subtree's shard, claims the subtree and puts back what the datastore misses: the number of entries
     * put back, or null when another member had claimed it.
     */
    private @Nullable Integer restoreSubtree(final String subtree, final Restorer restorer, final Set<String> gone,
            final boolean firstTry) throws IOException {
        final YangInstanceIdentifier root = roots.get(subtree);
        while (true) {
            if (!claim(subtree, gone)) {
                if (firstTry) {
                    LOG.warn("Another member claimed the restore of {} although this member holds the newest copy it "
                        + "knows of: the others chose without this member's copy (start-without); it waits for "
                        + "theirs", subtree);
                }
                return null;
            }
            shards.lead(root);
            try {
                final int entries = restorer.restore(root);
                mark(subtree, RESTORED, entries);
                LOG.info("Restored {} ({} entries put back) as the member with its newest copy", subtree, entries);
                return entries;
            } catch (LeadershipLostException e) {
                LOG.info("Leadership of the shard holding {} moved while restoring it: leading it again", subtree,
                    e);
            }
        }
    }

    /** The restore's writes were refused by another member's cohort: that member leads the shard now. */
    static final class LeadershipLostException extends IOException {
        private static final long serialVersionUID = 1L;

        LeadershipLostException(final String message) {
            super(message);
        }
    }

    /**
     * Claims the restore of a subtree: true when it is this member's (new, its own unfinished claim, or one of a
     * member in {@code gone}: left out by the operator and not reported).
     */
    private boolean claim(final String subtree, final Set<String> gone) throws IOException {
        for (int attempt = 1; attempt <= 10; attempt++) {
            final var tx = broker.newReadWriteTransaction();
            final YangInstanceIdentifier path = subtreePath(subtree);
            final Optional<NormalizedNode> current = await(tx.read(OPERATIONAL, path), path);
            if (current.isPresent() && current.orElseThrow() instanceof MapEntryNode entry) {
                final String by = leaf(entry, RESTORED_BY);
                if (!by.equals(member) && !gone.contains(by)) {
                    tx.cancel();
                    return false;
                }
            }
            tx.put(OPERATIONAL, path, subtreeEntry(subtree, RESTORING, 0));
            if (commit(tx, false)) {
                return true;
            }
        }
        throw new IOException("could not claim the restore of " + subtree + " in 10 attempts");
    }

    private void mark(final String subtree, final String state, final long entries) throws IOException {
        final var tx = broker.newWriteOnlyTransaction();
        tx.put(OPERATIONAL, subtreePath(subtree), subtreeEntry(subtree, state, entries));
        commit(tx, true);
    }

    private void markRestored(final long life, final Map<String, String> chosen,
            final Map<String, SubtreeState> subtrees, final Map<String, Integer> restoredHere) throws IOException {
        final List<String> summary = new ArrayList<>();
        for (String subtree : roots.keySet()) {
            final SubtreeState state = subtrees.get(subtree);
            final long entries = state != null ? state.entries() : restoredHere.getOrDefault(subtree, 0);
            summary.add(subtree + ": " + entries + " restored" + (chosen.containsKey(subtree)
                ? " by " + chosen.get(subtree) : ""));
        }
        final var tx = broker.newWriteOnlyTransaction();
        tx.merge(OPERATIONAL, STORE_PATH, ImmutableNodes.newContainerBuilder()
            .withNodeIdentifier(new NodeIdentifier(STORE))
            .withChild(ImmutableNodes.leafNode(RESTORED_BY, String.join(",", new HashSet<>(chosen.values()))))
            .withChild(ImmutableNodes.leafNode(RESTORED_AT, Instant.now().toString()))
            .withChild(ImmutableNodes.leafNode(STATE, RESTORED))
            .withChild(ImmutableNodes.leafNode(SUMMARY, String.join("; ", summary)))
            .withChild(ImmutableNodes.leafNode(LIFE, Uint64.valueOf(life)))
            .build());
        commit(tx, true);
    }

    private void report(final Report report) throws IOException {
        final var copies = ImmutableNodes.newSystemMapBuilder().withNodeIdentifier(new NodeIdentifier(COPY));
        report.copies().forEach((subtree, version) -> copies.withChild(ImmutableNodes.newMapEntryBuilder()
            .withNodeIdentifier(NodeIdentifierWithPredicates.of(COPY, COPY_SUBTREE, subtree))
            .withChild(ImmutableNodes.leafNode(COPY_SUBTREE, subtree))
            .withChild(ImmutableNodes.leafNode(LIFE, Uint64.valueOf(version.life())))
            .withChild(ImmutableNodes.leafNode(TERM, Uint64.valueOf(version.term())))
            .withChild(ImmutableNodes.leafNode(COMMITS, Uint64.valueOf(version.commits())))
            .withChild(ImmutableNodes.leafNode(FOLLOWED, Uint64.valueOf(version.followed())))
            .build()));
        final var tx = broker.newWriteOnlyTransaction();
        tx.put(OPERATIONAL, memberPath(report.member()), ImmutableNodes.newMapEntryBuilder()
            .withNodeIdentifier(NodeIdentifierWithPredicates.of(MEMBER, NAME, report.member()))
            .withChild(ImmutableNodes.leafNode(NAME, report.member()))
            .withChild(ImmutableNodes.leafNode(HAS_COPY, report.hasCopy()))
            .withChild(copies.build())
            .build());
        commit(tx, true);
    }

    /** The operational /oko:configuration-store as it is now. */
    Status read() throws IOException {
        final Optional<NormalizedNode> node;
        try (var tx = broker.newReadOnlyTransaction()) {
            node = await(tx.read(OPERATIONAL, STORE_PATH), STORE_PATH);
        }
        if (node.isEmpty() || !(node.orElseThrow() instanceof ContainerNode store)) {
            return new Status(null, 0, "", Map.of(), Map.of());
        }
        final Map<String, Report> reports = new TreeMap<>();
        for (MapEntryNode entry : entries(store, MEMBER)) {
            final Map<String, Version> copies = new TreeMap<>();
            final var copyList = entry.childByArg(new NodeIdentifier(COPY));
            if (copyList instanceof MapNode map) {
                for (MapEntryNode copy : map.body()) {
                    copies.put(leaf(copy, COPY_SUBTREE), new Version(number(copy, LIFE), number(copy, TERM),
                        number(copy, COMMITS), number(copy, FOLLOWED)));
                }
            }
            reports.put(leaf(entry, NAME), new Report(leaf(entry, NAME), Boolean.parseBoolean(leaf(entry,
                HAS_COPY)), copies));
        }
        final Map<String, SubtreeState> subtrees = new TreeMap<>();
        for (MapEntryNode entry : entries(store, SUBTREE)) {
            subtrees.put(leaf(entry, NAME), new SubtreeState(leaf(entry, RESTORED_BY), leaf(entry, STATE),
                number(entry, ENTRIES)));
        }
        final String state = leaf(store, STATE);
        return new Status(state.isEmpty() ? null : state, number(store, LIFE), leaf(store, RESTORED_BY), reports,
            subtrees);
    }

    /**
     * An operator's {@code start-without} is for the start it was written for: once the configuration is back it is
     * renamed ({@code start-without.used-<time>}), so that a later start waits for every member again (a member left
     * out for good would otherwise never be counted, even when it holds the newest copy).
     */
    private void retireStartWithout() {
        final Path file = dir.resolve(START_WITHOUT_FILE);
        if (Files.exists(file)) {
            final Path used = dir.resolve(START_WITHOUT_FILE + ".used-" + System.currentTimeMillis());
            try {
                Files.move(file, used);
                LOG.info("{} was used by this start: renamed {}", file, used.getFileName());
            } catch (IOException e) {
                // The configuration is back: the start is not failed for this. The operator removes the file.
                LOG.error("{} was used by this start and could not be renamed: delete it, or the next start of the "
                    + "whole cluster leaves those members out again", file, e);
            }
        }
    }

    private Set<String> startWithout() throws IOException {
        final Path file = dir.resolve(START_WITHOUT_FILE);
        if (!Files.exists(file)) {
            return Set.of();
        }
        final Set<String> names = new HashSet<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank() && !line.strip().startsWith("#")) {
                names.add(line.strip());
            }
        }
        names.remove(member);
        return names;
    }

    private static List<MapEntryNode> entries(final ContainerNode container, final QName list) {
        final var child = container.childByArg(new NodeIdentifier(list));
        return child instanceof MapNode map ? List.copyOf(map.body()) : List.of();
    }

    private static String leaf(final ContainerNode container, final QName name) {
        final var child = container.childByArg(new NodeIdentifier(name));
        return child == null ? "" : String.valueOf(child.body());
    }

    private static String leaf(final MapEntryNode entry, final QName name) {
        final var child = entry.childByArg(new NodeIdentifier(name));
        return child == null ? "" : String.valueOf(child.body());
    }

    private static long number(final MapEntryNode entry, final QName name) {
        final String text = leaf(entry, name);
        return text.isEmpty() ? 0 : Long.parseLong(text);
    }

    private static long number(final ContainerNode container, final QName name) {
        final String text = leaf(container, name);
        return text.isEmpty() ? 0 : Long.parseLong(text);
    }

    private static YangInstanceIdentifier subtreePath(final String subtree) {
        return YangInstanceIdentifier.of(new NodeIdentifier(STORE), new NodeIdentifier(SUBTREE),
            NodeIdentifierWithPredicates.of(SUBTREE, NAME, subtree));
    }

    private static YangInstanceIdentifier memberPath(final String name) {
        return YangInstanceIdentifier.of(new NodeIdentifier(STORE), new NodeIdentifier(MEMBER),
            NodeIdentifierWithPredicates.of(MEMBER, NAME, name));
    }

    private MapEntryNode subtreeEntry(final String subtree, final String state, final long entries) {
        return ImmutableNodes.newMapEntryBuilder()
            .withNodeIdentifier(NodeIdentifierWithPredicates.of(SUBTREE, NAME, subtree))
            .withChild(ImmutableNodes.leafNode(NAME, subtree))
            .withChild(ImmutableNodes.leafNode(RESTORED_BY, member))
            .withChild(ImmutableNodes.leafNode(STATE, state))
            .withChild(ImmutableNodes.leafNode(ENTRIES, Uint32.valueOf(entries)))
            .build();
    }

    private static Optional<NormalizedNode> await(
            final com.google.common.util.concurrent.ListenableFuture<Optional<NormalizedNode>> read,
            final YangInstanceIdentifier path) throws IOException {
        try {
            return DatastoreReads.await(read, TimeUnit.SECONDS.toMillis(DATASTORE_TIMEOUT_SECONDS), path.toString());
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Commits {@code tx}: true when it committed, false when another member's write got there first (only when
     * {@code mustCommit} is false).
     */
    private static boolean commit(final DOMDataTreeWriteTransaction tx, final boolean mustCommit)
            throws IOException {
        try {
            tx.commit().get(DATASTORE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException e) {
            if (!mustCommit && e.getCause() instanceof OptimisticLockFailedException) {
                return false;
            }
            throw new IOException("could not write " + STORE_PATH + ": " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new IOException("the datastore did not commit within " + DATASTORE_TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing " + STORE_PATH, e);
        }
    }

    private void sleep() throws IOException {
        try {
            Thread.sleep(pollMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the configuration store", e);
        }
    }
}
