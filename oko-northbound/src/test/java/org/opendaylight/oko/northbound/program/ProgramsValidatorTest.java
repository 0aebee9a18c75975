/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.program;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.FilterLibrary;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.settings.ParameterBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.LibraryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;

class ProgramsValidatorTest {
    private final ProgramsValidator validator = new ProgramsValidator(new ProgramResolver(new FilterLibrary(),
        new FilterCatalog()));

    @Test
    void validNewProgramMayCommit() {
        assertEquals(Optional.empty(), validator.problem(null, programs(limiter("limiter", "5"))));
    }

    @Test
    void invalidNewProgramIsRefusedNamingProgramAndField() {
        assertEquals(Optional.of("program 'bad': parameter 'rate': 'fast' is not a number"),
            validator.problem(programs(limiter("limiter", "5")),
                programs(limiter("limiter", "5"), limiter("bad", "fast"))));
    }

    @Test
    void onlyChangedProgramsAreChecked() {
        // A program stored before (when it still resolved) does not block writes of other programs.
        final Program old = limiter("old", "x");
        assertEquals(Optional.empty(), validator.problem(programs(old), programs(old, limiter("new", "1"))));
    }

    @Test
    void deletingEverythingMayCommit() {
        assertEquals(Optional.empty(), validator.problem(programs(limiter("limiter", "5")), null));
    }

    private static Program limiter(final String name, final String rate) {
        return new ProgramBuilder()
            .setName(new ProgramName(name))
            .setSource(new LibraryBuilder().setLibraryFilter(new LibraryFilterName("rate-limiter")).build())
            .setParameter(BindingMap.of(new ParameterBuilder().setName("rate").setValue(rate).build()))
            .build();
    }

    private static Programs programs(final Program... programs) {
        return new ProgramsBuilder().setProgram(BindingMap.of(programs)).build();
    }
}
