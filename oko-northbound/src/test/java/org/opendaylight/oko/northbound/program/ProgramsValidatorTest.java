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
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.openflow.types.rev261122.ProgramId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramsBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Switches;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.SwitchesBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.settings.ParameterBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.LibraryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches.SwitchBuilder;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.Uint32;

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

    @Test
    void deletingAProgramASwitchEntryNamesIsRefusedNamingTheEntry() {
        final Program limiter = limiter("limiter", "5");
        assertEquals(Optional.of("program 'limiter' is configured for openflow:1 as program 30: delete "
            + "/oko:switches/switch=openflow:1/program=30 first, or in the same request"),
            ProgramsValidator.stillConfigured(programs(limiter), null, switches("openflow:1", 30, "limiter")));
        assertEquals(Optional.of("program 'limiter' is configured for openflow:1 as program 30: delete "
            + "/oko:switches/switch=openflow:1/program=30 first, or in the same request"),
            ProgramsValidator.stillConfigured(programs(limiter, limiter("other", "1")), programs(limiter("other",
                "1")), switches("openflow:1", 30, "limiter")));
    }

    @Test
    void deletingAProgramNoSwitchEntryNamesMayCommit() {
        final Program limiter = limiter("limiter", "5");
        // The switch entry goes in the same request (or went before): the program may go.
        assertEquals(Optional.empty(), ProgramsValidator.stillConfigured(programs(limiter), null,
            new SwitchesBuilder().build()));
        assertEquals(Optional.empty(), ProgramsValidator.stillConfigured(programs(limiter), null, null));
        // Another program's deletion, or a change of the named one, is not blocked.
        assertEquals(Optional.empty(), ProgramsValidator.stillConfigured(programs(limiter, limiter("other", "1")),
            programs(limiter), switches("openflow:1", 30, "limiter")));
        assertEquals(Optional.empty(), ProgramsValidator.stillConfigured(programs(limiter),
            programs(limiter("limiter", "7")), switches("openflow:1", 30, "limiter")));
    }

    private static Switches switches(final String node, final long progId, final String program) {
        return new SwitchesBuilder().setSwitch(BindingMap.of(new SwitchBuilder().setNode(new NodeId(node))
            .setProgram(BindingMap.of(new org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.switches
                ._switch.ProgramBuilder().setProgramId(new ProgramId(Uint32.valueOf(progId)))
                .setProgram(new ProgramName(program)).build())).build())).build();
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
