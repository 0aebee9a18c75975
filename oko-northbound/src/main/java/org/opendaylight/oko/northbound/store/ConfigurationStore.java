/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.opendaylight.mdsal.common.api.LogicalDatastoreType.CONFIGURATION;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.opendaylight.mdsal.common.api.PostCanCommitStep;
import org.opendaylight.mdsal.common.api.PostPreCommitStep;
import org.opendaylight.mdsal.common.api.ThreePhaseCommitStep;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCandidate;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCommitCohort;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.oko.northbound.store.StoredConfiguration.Change;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.Nodes;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.util.concurrent.FluentFutures;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.model.api.EffectiveModelContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configuration Oko's operators write (stored programs, switch entries, and the inventory's flows), kept in
 * files of its own and written back into the datastore at every start.
 *
 * <p>Why: the persistent datastore of OpenDaylight 11.0.2 cannot be trusted across a hard stop (KILL, a crash, the
 * OOM killer). An acknowledged write can be missing after the next start, and a later start can fail for good
 * (docs/northbound.md, "Controller restarts"). `make up` therefore runs the configuration datastore without
 * persistence, and this store is what makes the configuration durable: as a commit cohort of each subtree it
 * forces every change to its log in the commit's pre-commit phase, before the datastore applies the change and
 * before the client gets its answer, so an acknowledged write is on disk; a change that cannot be written fails
 * the commit (the client gets the error, nothing is lost silently). At start, the stored subtrees are put into the
 * datastore before the rest of Oko starts (OkoNorthbound takes this component as a reference).
 *
 * <p>The store's directory is {@code oko-store} in Karaf's home, or the system property {@code oko.store.dir}.
 * Where none exists yet, the first start creates it from what the datastore holds (so a persistent datastore of an
 * earlier version is taken over). When the start has finished it writes {@code restored} there (a summary), which
 * `make up` waits for.
 */
@Component(service = ConfigurationStore.class, immediate = true)
public final class ConfigurationStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigurationStore.class);
    private static final long DATASTORE_TIMEOUT_SECONDS = 120;

    private final StoreFiles files;
    private final StoredConfiguration stored;
    private final List<Registration> registrations = new ArrayList<>();

    @Activate
    public ConfigurationStore(@Reference final DOMDataBroker broker,
            @Reference final BindingNormalizedNodeSerializer codec) throws IOException {
        this(broker, List.of(
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Programs.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Switches.class).build()),
            codec.toYangInstanceIdentifier(DataObjectReference.builder(Nodes.class).build())), directory());
    }

    @SuppressWarnings("checkstyle:IllegalCatch")         // closes what it opened, whatever stops the start
    ConfigurationStore(final DOMDataBroker broker, final List<YangInstanceIdentifier> roots, final Path dir)
            throws IOException {
        stored = new StoredConfiguration(roots);
        files = StoreFiles.open(dir);
        final var cohorts = broker.extension(DOMDataBroker.CommitCohortExtension.class);
        if (cohorts == null) {
            files.close();
            throw new IOException("the datastore takes no commit cohorts: the Oko configuration store cannot work");
        }
        final List<String> summary = new ArrayList<>();
        final Set<YangInstanceIdentifier> notRestored = new HashSet<>();
        try {
            if (files.created()) {
                takeOver(broker, summary);
            } else {
                restore(broker, summary, notRestored);
            }
            for (YangInstanceIdentifier root : roots) {
                registrations.add(cohorts.registerCommitCohort(DOMDataTreeIdentifier.of(CONFIGURATION, root),
                    new Cohort(root)));
            }
            catchUp(broker, summary, notRestored);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        final String line = String.join("; ", summary);
        Files.writeString(dir.resolve("restored"), Instant.now() + " " + line + "\n", StandardCharsets.UTF_8);
        LOG.info("Oko configuration store {}: {}", dir, line);
    }

    private static Path directory() {
        final String configured = System.getProperty("oko.store.dir");
        return configured != null ? Path.of(configured)
            : Path.of(System.getProperty("karaf.home", "."), "oko-store");
    }

    /** A new store: whatever the datastore holds becomes its first snapshot. */
    private void takeOver(final DOMDataBroker broker, final List<String> summary) throws IOException {
        for (YangInstanceIdentifier root : stored.roots()) {
            stored.apply(new Change(root, read(broker, root).orElse(null)));
        }
        files.compact(stored.snapshot());
        summary.add("created from what the datastore held (" + stored.size() + " entries)");
    }

    /** The stored configuration replaces what the datastore holds, one root at a time. */
    private void restore(final DOMDataBroker broker, final List<String> summary,
            final Set<YangInstanceIdentifier> notRestored) throws IOException {
        if (files.snapshot() != null) {
            stored.applyAll(StoredConfiguration.decode(files.snapshot()));
        }
        for (byte[] change : files.changes()) {
            stored.applyAll(StoredConfiguration.decode(change));
        }
        for (YangInstanceIdentifier root : stored.roots()) {
            final var data = stored.root(root);
            final var tx = broker.newWriteOnlyTransaction();
            if (data.isPresent()) {
                tx.put(CONFIGURATION, root, data.orElseThrow());
            } else if (read(broker, root).isPresent()) {
                tx.delete(CONFIGURATION, root);
            } else {
                continue;
            }
            final String name = root.getLastPathArgument().getNodeType().getLocalName();
            try {
                tx.commit().get(DATASTORE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                summary.add(name + ": " + stored.size(root) + " restored");
            } catch (ExecutionException | TimeoutException e) {
                // A stored program that this version's filter library refuses, for one: the other roots still
                // restore, and the store keeps these entries (the next start tries again).
                notRestored.add(root);
                summary.add(name + " NOT restored (" + e.getMessage() + "; kept in the store)");
                LOG.error("Could not restore {} from the configuration store; its {} entries stay stored and the "
                    + "next start tries again", root, stored.size(root), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while restoring " + root, e);
            }
        }
        if (summary.isEmpty()) {
            summary.add("nothing stored");
        }
    }

    /**
     * A write committed between the restore and the registration of the cohorts went past the store: if the
     * datastore differs from it now, its content is stored.
     */
    private void catchUp(final DOMDataBroker broker, final List<String> summary,
            final Set<YangInstanceIdentifier> notRestored) throws IOException {
        for (YangInstanceIdentifier root : stored.roots()) {
            if (notRestored.contains(root)) {
                continue;
            }
            final Optional<NormalizedNode> now = read(broker, root);
            if (!now.equals(stored.root(root).map(NormalizedNode.class::cast))) {
                final var change = List.of(new Change(root, now.orElse(null)));
                synchronized (this) {
                    files.append(StoredConfiguration.encode(change));
                    stored.applyAll(change);
                }
                summary.add(root.getLastPathArgument().getNodeType().getLocalName()
                    + " changed during the start: stored");
                LOG.warn("{} was written while the configuration store started: its current content is stored",
                    root);
            }
        }
    }

    private static Optional<NormalizedNode> read(final DOMDataBroker broker, final YangInstanceIdentifier path)
            throws IOException {
        try (var tx = broker.newReadOnlyTransaction()) {
            return tx.read(CONFIGURATION, path).get(DATASTORE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("could not read " + path + " from the datastore: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + path, e);
        }
    }

    /** Forces {@code changes} to the log (the durability point), then takes them into the stored model. */
    private synchronized void write(final List<Change> changes) throws IOException {
        files.append(StoredConfiguration.encode(changes));
        stored.applyAll(changes);
        if (files.wantsCompaction()) {
            files.compact(stored.snapshot());
        }
    }

    @Deactivate
    @Override
    public synchronized void close() {
        registrations.forEach(Registration::close);
        registrations.clear();
        try {
            files.close();
        } catch (IOException e) {
            LOG.warn("Could not close the configuration store", e);
        }
    }

    /** The store's commit cohort for one root. */
    private final class Cohort implements DOMDataTreeCommitCohort {
        private final YangInstanceIdentifier root;

        Cohort(final YangInstanceIdentifier root) {
            this.root = root;
        }

        @Override
        public FluentFuture<PostCanCommitStep> canCommit(final Object txId, final EffectiveModelContext ctx,
                final Collection<DOMDataTreeCandidate> candidates) {
            final List<Change> changes = new ArrayList<>();
            final List<Change> undo = new ArrayList<>();
            for (DOMDataTreeCandidate candidate : candidates) {
                final YangInstanceIdentifier path = candidate.getRootPath().path();
                changes.addAll(StoredConfiguration.changes(path, candidate.getRootNode()));
                undo.add(new Change(path, candidate.getRootNode().dataBefore()));
            }
            if (changes.isEmpty()) {
                return PostCanCommitStep.NOOP_SUCCESSFUL_FUTURE;
            }
            return FluentFutures.immediateFluentFuture(new PostCanCommitStep() {
                @Override
                public ListenableFuture<? extends PostPreCommitStep> preCommit() {
                    try {
                        write(changes);
                    } catch (IOException e) {
                        LOG.error("Could not store a change of {}: the write is refused", root, e);
                        return Futures.immediateFailedFuture(new IOException(
                            "the Oko configuration store could not write the change: " + e.getMessage(), e));
                    }
                    return Futures.immediateFuture(new PostPreCommitStep() {
                        @Override
                        public ListenableFuture<?> commit() {
                            return PostPreCommitStep.NOOP_COMMIT_FUTURE;
                        }

                        @Override
                        public ListenableFuture<?> abort() {
                            return undo(undo);
                        }
                    });
                }

                @Override
                public ListenableFuture<?> abort() {
                    return ThreePhaseCommitStep.NOOP_ABORT_FUTURE;
                }
            });
        }

        /** A commit that failed after its pre-commit: the store goes back to what the datastore still holds. */
        private ListenableFuture<?> undo(final List<Change> undo) {
            try {
                write(undo);
            } catch (IOException e) {
                LOG.error("Could not undo an aborted change of {} in the configuration store", root, e);
            }
            return ThreePhaseCommitStep.NOOP_ABORT_FUTURE;
        }
    }
}
