/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound;

import com.google.common.util.concurrent.FluentFuture;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.opendaylight.mdsal.binding.api.DataBroker;
import org.opendaylight.mdsal.binding.api.WriteTransaction;
import org.opendaylight.mdsal.common.api.DataValidationFailedException;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.common.api.PostCanCommitStep;
import org.opendaylight.mdsal.common.api.PostPreCommitStep;
import org.opendaylight.mdsal.common.api.ThreePhaseCommitStep;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCandidate;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCommitCohort;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.FilterLibrary;
import org.opendaylight.oko.northbound.install.OperationalState;
import org.opendaylight.oko.northbound.program.ProgramInfoPublisher;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.oko.northbound.program.ProgramsValidator;
import org.opendaylight.oko.northbound.synguard.GuardConfig;
import org.opendaylight.oko.northbound.synguard.GuardConflicts;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.InstallStatus;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.ProgramBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.SynGuards;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.syn.guard.rev261126.syn.guards.SynGuard;
import org.opendaylight.yangtools.binding.DataObjectReference;
import org.opendaylight.yangtools.binding.data.codec.api.BindingNormalizedNodeSerializer;
import org.opendaylight.yangtools.concepts.Registration;
import org.opendaylight.yangtools.util.concurrent.FluentFutures;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier.NodeIdentifier;
import org.opendaylight.yangtools.yang.data.api.schema.DataContainerNode;
import org.opendaylight.yangtools.yang.data.api.schema.NormalizedNode;
import org.opendaylight.yangtools.yang.data.tree.api.DataTreeCandidateNode;
import org.opendaylight.yangtools.yang.data.tree.api.ModificationType;
import org.opendaylight.yangtools.yang.model.api.EffectiveModelContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a configuration write that touches /programs, /switches or /syn-guards before it commits, and gives it
 * its operational entries as it commits.
 *
 * <p>Refused, with the reason as the RESTCONF client's error, and the datastore keeping its previous state: a
 * program no switch could load (not an ELF object, an unknown library filter, a parameter that does not fit,
 * initial entries of the wrong size), the deletion of a program a switch entry still names (the switch would
 * run it with nothing in the configuration saying so), and a SYN guard that could not run (a pinned or vetoed
 * signature that does not parse, no switch, no destination, next-table not after table, one program id for both
 * programs) or not beside the other guards and the switches' program entries (a program id or flow priorities
 * shared on a switch: {@link GuardConflicts}). The cohort sits on the datastore's root so that it sees
 * both subtrees of one transaction: a program and the switch entries that name it may go in the same request.
 * (The root belongs to the default shard, where the oko module's data lives unless modules.conf gives it its own
 * shard: then this cohort sees none of it.)
 *
 * <p>Committed: each new or changed program gets its operational info, and each new or changed switch program
 * entry the status {@code pending}, in the commit itself: a read right after the write sees them (the controller
 * then loads the program and records its outcome).
 */
@Component(service = { }, immediate = true)
public final class ProgramsCommitCohort implements DOMDataTreeCommitCohort, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProgramsCommitCohort.class);
    /** How long a commit waits for its operational entries (the controller writes them again moments later). */
    private static final long RECORD_TIMEOUT_MILLIS = 2_000;

    private final BindingNormalizedNodeSerializer codec;
    private final DataBroker broker;
    private final ProgramResolver resolver = new ProgramResolver(new FilterLibrary(), new FilterCatalog());
    private final ProgramsValidator validator = new ProgramsValidator(resolver);
    private final ProgramInfoPublisher programInfo;
    private final YangInstanceIdentifier programsPath;
    private final YangInstanceIdentifier switchesPath;
    private final YangInstanceIdentifier synGuardsPath;
    private final Registration registration;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        final Thread thread = new Thread(runnable, "oko-commit-cohort-timer");
        thread.setDaemon(true);
        return thread;
    });

    @Activate
    public ProgramsCommitCohort(@Reference final DOMDataBroker domBroker, @Reference final DataBroker broker,
            @Reference final BindingNormalizedNodeSerializer codec) {
        this.codec = codec;
        this.broker = broker;
        programInfo = new ProgramInfoPublisher(broker, resolver);
        programsPath = codec.toYangInstanceIdentifier(DataObjectReference.builder(Programs.class).build());
        switchesPath = codec.toYangInstanceIdentifier(DataObjectReference.builder(Switches.class).build());
        synGuardsPath = codec.toYangInstanceIdentifier(DataObjectReference.builder(SynGuards.class).build());
        final var cohorts = domBroker.extension(DOMDataBroker.CommitCohortExtension.class);
        if (cohorts == null) {
            registration = null;
            LOG.warn("The datastore takes no commit cohorts: invalid programs are reported in their info only");
        } else {
            registration = cohorts.registerCommitCohort(
                DOMDataTreeIdentifier.of(LogicalDatastoreType.CONFIGURATION, YangInstanceIdentifier.of()), this);
            LOG.info("Writes of /programs, /switches and /syn-guards are checked before they commit");
        }
    }

    @Override
    public FluentFuture<PostCanCommitStep> canCommit(final Object txId, final EffectiveModelContext ctx,
            final Collection<DOMDataTreeCandidate> candidates) {
        final List<Change> changes = new ArrayList<>();
        for (DOMDataTreeCandidate candidate : candidates) {
            final var root = candidate.getRootNode();
            final DataTreeCandidateNode guards = changed(candidate, synGuardsPath);
            final DataTreeCandidateNode programs = changed(candidate, programsPath);
            final DataTreeCandidateNode switches = changed(candidate, switchesPath);
            if (guards != null || switches != null) {
                final Optional<String> problem = guardProblem(
                    decode(synGuardsPath, child(candidate, root.dataAfter(), synGuardsPath)),
                    decode(switchesPath, child(candidate, root.dataAfter(), switchesPath)));
                if (problem.isPresent()) {
                    LOG.warn("Configuration write refused: {}", problem.orElseThrow());
                    return FluentFutures.immediateFailedFluentFuture(new DataValidationFailedException(
                        YangInstanceIdentifier.class, guards != null ? synGuardsPath : switchesPath,
                        problem.orElseThrow()));
                }
            }
            if (programs == null && switches == null) {
                continue;
            }
            final Programs programsBefore = programs == null ? null : decode(programsPath, programs.dataBefore());
            final Programs programsAfter = programs == null ? null : decode(programsPath, programs.dataAfter());
            Optional<String> problem = validator.problem(programsBefore, programsAfter);
            if (problem.isEmpty() && programs != null) {
                problem = ProgramsValidator.stillConfigured(programsBefore, programsAfter,
                    decode(switchesPath, child(candidate, root.dataAfter(), switchesPath)));
            }
            if (problem.isPresent()) {
                // RESTCONF answers a refused DELETE without the reason: karaf.log has it in one line.
                LOG.warn("Configuration write refused: {}", problem.orElseThrow());
                return FluentFutures.immediateFailedFluentFuture(new DataValidationFailedException(
                    YangInstanceIdentifier.class, programs != null ? programsPath : switchesPath,
                    problem.orElseThrow()));
            }
            changes.add(new Change(programsBefore, programsAfter,
                switches == null ? null : decode(switchesPath, switches.dataBefore()),
                switches == null ? null : decode(switchesPath, switches.dataAfter())));
        }
        if (changes.isEmpty()) {
            return PostCanCommitStep.NOOP_SUCCESSFUL_FUTURE;
        }
        return FluentFutures.immediateFluentFuture(new PostCanCommitStep() {
            @Override
            public ListenableFuture<? extends PostPreCommitStep> preCommit() {
                // Written in the pre-commit, which the commit awaits (waiting for a write of the operational
                // datastore in the commit step itself held every such write for 5 s).
                return Futures.transform(recordCommitted(changes), ignored -> new PostPreCommitStep() {
                    @Override
                    public ListenableFuture<?> commit() {
                        return PostPreCommitStep.NOOP_COMMIT_FUTURE;
                    }

                    @Override
                    public ListenableFuture<?> abort() {
                        return undoRecorded(changes);
                    }
                }, MoreExecutors.directExecutor());
            }

            @Override
            public ListenableFuture<?> abort() {
                return ThreePhaseCommitStep.NOOP_ABORT_FUTURE;
            }
        });
    }

    /**
     * The first reason a SYN guard could not run as configured (a signature that does not parse...), or beside
     * the other guards and the switches' program entries ({@link GuardConflicts}).
     */
    private static Optional<String> guardProblem(final SynGuards guards, final Switches switches) {
        if (guards == null) {
            return Optional.empty();
        }
        final List<GuardConfig> configs = new ArrayList<>();
        for (SynGuard guard : guards.nonnullSynGuard().values()) {
            try {
                configs.add(GuardConfig.of(guard));
            } catch (IllegalArgumentException e) {
                return Optional.of("syn-guard " + guard.getName().getValue() + ": " + e.getMessage());
            }
        }
        return GuardConflicts.problem(configs, switches);
    }

    /** What a transaction did to /programs and /switches (null: that subtree is untouched, or absent). */
    private record Change(Programs programsBefore, Programs programsAfter, Switches switchesBefore,
            Switches switchesAfter) {
    }

    /**
     * The operational side of a commit, written while it commits: the info of changed programs and 'pending' for
     * changed switch program entries. A failure to write it does not fail the commit (the controller writes both
     * again moments later), it is logged.
     */
    private ListenableFuture<?> recordCommitted(final List<Change> changes) {
        final var tx = broker.newWriteOnlyTransaction();
        boolean any = false;
        for (Change change : changes) {
            any |= recordPrograms(tx, change.programsBefore(), change.programsAfter());
            any |= recordSwitchPrograms(tx, change.switchesBefore(), change.switchesAfter());
        }
        if (!any) {
            return PostPreCommitStep.NOOP_COMMIT_FUTURE;
        }
        // Bounded: without an operational leader the configuration write must not wait (nor fail) for it.
        return Futures.catching(Futures.withTimeout(tx.commit(), RECORD_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS,
            timer), Exception.class, cause -> {
                LOG.warn("Could not record the operational state of a configuration write as it committed", cause);
                return null;
            }, MoreExecutors.directExecutor());
    }

    /**
     * The write failed after its pre-commit (another cohort refused it): the programs' info goes back to what was
     * configured before, and the 'pending' entries written for it go (a changed entry's earlier status is not
     * known here; the controller records it again at the switch's next sync).
     */
    private ListenableFuture<?> undoRecorded(final List<Change> changes) {
        final var tx = broker.newWriteOnlyTransaction();
        for (Change change : changes) {
            recordPrograms(tx, change.programsAfter(), change.programsBefore());
            for (WrittenEntry written : writtenEntries(change.switchesBefore(), change.switchesAfter())) {
                tx.delete(LogicalDatastoreType.OPERATIONAL, OperationalState.programPath(written.node(),
                    written.entry().getProgramId().getValue().toJava()));
            }
        }
        LOG.info("A configuration write of /programs or /switches was aborted after its pre-commit");
        return Futures.catching(tx.commit(), Exception.class, cause -> {
            LOG.warn("Could not undo the operational state of an aborted configuration write", cause);
            return null;
        }, MoreExecutors.directExecutor());
    }

    private boolean recordPrograms(final WriteTransaction tx, final Programs before, final Programs after) {
        final Map<ProgramKey, Program> old = before == null ? Map.of() : before.nonnullProgram();
        final Map<ProgramKey, Program> now = after == null ? Map.of() : after.nonnullProgram();
        boolean any = false;
        for (Program program : now.values()) {
            if (!program.equals(old.get(program.key()))) {
                programInfo.write(tx, old.get(program.key()), program);
                any = true;
            }
        }
        for (Program program : old.values()) {
            if (!now.containsKey(program.key())) {
                programInfo.write(tx, program, null);
                any = true;
            }
        }
        return any;
    }

    private static boolean recordSwitchPrograms(final WriteTransaction tx, final Switches before,
            final Switches after) {
        final List<WrittenEntry> written = writtenEntries(before, after);
        for (WrittenEntry one : written) {
            final var entry = one.entry();
            tx.mergeParentStructurePut(LogicalDatastoreType.OPERATIONAL, OperationalState.programPath(one.node(),
                entry.getProgramId().getValue().toJava()), new ProgramBuilder().setProgramId(entry.getProgramId())
                    .setProgram(entry.getProgram()).setStatus(InstallStatus.Pending)
                    .setStatusMessage("configured; the controller loads it next")
                    .setStatusTime(OperationalState.now()).build());
        }
        return !written.isEmpty();
    }

    /** A switch program entry a transaction wrote (new, or different from before). */
    private record WrittenEntry(String node,
            org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches._switch.Program entry) {
    }

    private static List<WrittenEntry> writtenEntries(final Switches before, final Switches after) {
        final List<WrittenEntry> written = new ArrayList<>();
        if (after == null) {
            return written;
        }
        for (var sw : after.nonnullSwitch().values()) {
            final var oldSwitch = before == null ? null : before.nonnullSwitch().get(sw.key());
            for (var entry : sw.nonnullProgram().values()) {
                if (!entry.equals(oldSwitch == null ? null : oldSwitch.nonnullProgram().get(entry.key()))) {
                    written.add(new WrittenEntry(sw.getNode().getValue(), entry));
                }
            }
        }
        return written;
    }

    /** The candidate node of a top-level container, when the transaction touched it. */
    private static DataTreeCandidateNode changed(final DOMDataTreeCandidate candidate,
            final YangInstanceIdentifier path) {
        final YangInstanceIdentifier root = candidate.getRootPath().path();
        if (root.equals(path)) {
            return candidate.getRootNode();
        }
        if (!root.isEmpty()) {
            return null;
        }
        final var node = candidate.getRootNode().modifiedChild(path.getLastPathArgument());
        return node == null || node.modificationType() == ModificationType.UNMODIFIED ? null : node;
    }

    /** A top-level container's data in a root node's data. */
    private static NormalizedNode child(final DOMDataTreeCandidate candidate, final NormalizedNode rootData,
            final YangInstanceIdentifier path) {
        if (candidate.getRootPath().path().equals(path)) {
            return rootData;
        }
        return rootData instanceof DataContainerNode container
            && path.getLastPathArgument() instanceof NodeIdentifier id ? container.childByArg(id) : null;
    }

    @SuppressWarnings("unchecked")
    private <T> T decode(final YangInstanceIdentifier path, final NormalizedNode data) {
        return data == null ? null : (T) codec.fromNormalizedNode(path, data).getValue();
    }

    @Deactivate
    @Override
    public void close() {
        if (registration != null) {
            registration.close();
        }
        timer.shutdownNow();
    }
}
