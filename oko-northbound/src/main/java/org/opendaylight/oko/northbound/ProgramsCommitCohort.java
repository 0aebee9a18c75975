/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound;

import com.google.common.util.concurrent.FluentFuture;
import java.util.Collection;
import java.util.Optional;
import org.opendaylight.mdsal.common.api.DataValidationFailedException;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.mdsal.common.api.PostCanCommitStep;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCandidate;
import org.opendaylight.mdsal.dom.api.DOMDataTreeCommitCohort;
import org.opendaylight.mdsal.dom.api.DOMDataTreeIdentifier;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.FilterLibrary;
import org.opendaylight.oko.northbound.program.ProgramResolver;
import org.opendaylight.oko.northbound.program.ProgramsValidator;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
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
 * Refuses a configuration write of /programs that stores a program no switch could load (not an ELF object, an
 * unknown library filter, a parameter that does not fit, initial entries of the wrong size): the RESTCONF client
 * gets the reason and the datastore keeps its previous state. Where the datastore offers no commit cohorts, the
 * same reasons still show in the programs' operational info.
 */
@Component(service = { }, immediate = true)
public final class ProgramsCommitCohort implements DOMDataTreeCommitCohort, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProgramsCommitCohort.class);

    private final BindingNormalizedNodeSerializer codec;
    private final ProgramsValidator validator = new ProgramsValidator(new ProgramResolver(new FilterLibrary(),
        new FilterCatalog()));
    private final YangInstanceIdentifier programsPath;
    private final Registration registration;

    @Activate
    public ProgramsCommitCohort(@Reference final DOMDataBroker broker,
            @Reference final BindingNormalizedNodeSerializer codec) {
        this.codec = codec;
        programsPath = codec.toYangInstanceIdentifier(DataObjectReference.builder(Programs.class).build());
        final var cohorts = broker.extension(DOMDataBroker.CommitCohortExtension.class);
        if (cohorts == null) {
            registration = null;
            LOG.warn("The datastore takes no commit cohorts: invalid programs are reported in their info only");
        } else {
            registration = cohorts.registerCommitCohort(
                DOMDataTreeIdentifier.of(LogicalDatastoreType.CONFIGURATION, programsPath), this);
            LOG.info("Writes of /programs are checked before they commit");
        }
    }

    @Override
    public FluentFuture<PostCanCommitStep> canCommit(final Object txId, final EffectiveModelContext ctx,
            final Collection<DOMDataTreeCandidate> candidates) {
        for (DOMDataTreeCandidate candidate : candidates) {
            final var node = candidate.getRootNode();
            final Optional<String> problem = validator.problem(programs(node.dataBefore()),
                programs(node.dataAfter()));
            if (problem.isPresent()) {
                return FluentFutures.immediateFailedFluentFuture(new DataValidationFailedException(
                    YangInstanceIdentifier.class, candidate.getRootPath().path(), problem.orElseThrow()));
            }
        }
        return PostCanCommitStep.NOOP_SUCCESSFUL_FUTURE;
    }

    private Programs programs(final NormalizedNode data) {
        return data == null ? null : (Programs) codec.fromNormalizedNode(programsPath, data).getValue();
    }

    @Deactivate
    @Override
    public void close() {
        if (registration != null) {
            registration.close();
        }
    }
}
