/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.common.api.LogicalDatastoreType;
import org.opendaylight.yang.gen.v1.urn.opendaylight.inventory.rev130819.NodeId;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.InstallStatus;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LibraryFilterName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramInputBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.LoadProgramOutput;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.ProgramName;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.Programs;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.load.program.input.what.ConfiguredBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.load.program.input.what.InlineBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.settings.ParameterBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.ElfBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.program.source.source.LibraryBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.Program;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramBuilder;
import org.opendaylight.yang.gen.v1.urn.opendaylight.oko.rev261123.programs.ProgramKey;
import org.opendaylight.yangtools.binding.DataObjectIdentifier;
import org.opendaylight.yangtools.binding.util.BindingMap;
import org.opendaylight.yangtools.yang.common.ErrorTag;

class LoadProgramImplTest extends RpcTestBase {
    private LoadProgramImpl rpc;

    @BeforeEach
    void setUp() {
        rpc = new LoadProgramImpl(targets, resolver, installer);
    }

    private static LoadProgramInputBuilder library(final String node, final long progId, final String filter) {
        return new LoadProgramInputBuilder().setNode(new NodeId(node)).setProgramId(progId(progId))
            .setWhat(new InlineBuilder().setSource(new LibraryBuilder()
                .setLibraryFilter(new LibraryFilterName(filter)).build()).build());
    }

    @Test
    void aLibraryFilterIsLoadedAndAnswersWithTheVerifiersInstructionCount() throws Exception {
        final LoadProgramOutput output = success(rpc.invoke(library(NODE, 7, "rate-limiter").build()));
        assertEquals(InstallStatus.Installed, output.getStatus());
        final long instructions = resolver.resolve("inline", new LibraryBuilder()
            .setLibraryFilter(new LibraryFilterName("rate-limiter")).build(), null).image().instructions();
        assertTrue(instructions > 10, "rate-limiter has " + instructions + " instructions");
        assertEquals(instructions, output.getInstructions().toJava());
        // LOAD_PROG alone: an inline library filter has no settings to write (its zero parameters are the
        // filter's own defaults); a program of /programs gets its parameters (next test).
        assertEquals(List.of("openflow:1 load 7"), client.sent);
        assertTrue(loaded.get(NODE, 7).isPresent());
    }

    @Test
    void replaceAndKeepMapsReachTheSwitch() throws Exception {
        success(rpc.invoke(library(NODE, 7, "baseline").setReplace(true).setKeepMaps(true).build()));
        assertEquals(List.of("openflow:1 load 7 replace keep-maps"), client.sent);
    }

    @Test
    void aConfiguredProgramIsLoadedWithItsParameters() throws Exception {
        final var tx = getDataBroker().newWriteOnlyTransaction();
        tx.put(LogicalDatastoreType.CONFIGURATION, DataObjectIdentifier.builder(Programs.class)
            .child(Program.class, new ProgramKey(new ProgramName("limiter"))).build(), new ProgramBuilder()
                .setName(new ProgramName("limiter"))
                .setSource(new LibraryBuilder().setLibraryFilter(new LibraryFilterName("rate-limiter")).build())
                .setParameter(BindingMap.of(new ParameterBuilder().setName("rate").setValue("5").build()))
                .build());
        tx.commit().get();
        success(rpc.invoke(new LoadProgramInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(8))
            .setWhat(new ConfiguredBuilder().setProgram(new ProgramName("limiter")).build()).build()));
        assertEquals(List.of("openflow:1 load 8", "openflow:1 update 8 map 0 00000000="
            + "05000000000000000500000000000000"), client.sent);
    }

    @Test
    void aProgramNotUnderProgramsIsRefusedByName() throws Exception {
        assertRefused(rpc.invoke(new LoadProgramInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(8))
            .setWhat(new ConfiguredBuilder().setProgram(new ProgramName("nothing")).build()).build()),
            ErrorTag.INVALID_VALUE, "program: 'nothing' is not configured under /programs");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void bytesThatAreNotAnElfObjectAreNeverSent() throws Exception {
        assertRefused(rpc.invoke(new LoadProgramInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(8))
            .setWhat(new InlineBuilder().setSource(new ElfBuilder().setElf(new byte[] { 1, 2, 3 }).build()).build())
            .build()), ErrorTag.INVALID_VALUE, "elf: not an ELF object");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void missingFieldsAreNamed() throws Exception {
        assertRefused(rpc.invoke(new LoadProgramInputBuilder().setProgramId(progId(8)).build()),
            ErrorTag.INVALID_VALUE, "node is required");
        assertRefused(rpc.invoke(new LoadProgramInputBuilder().setNode(new NodeId(NODE)).build()),
            ErrorTag.INVALID_VALUE, "program-id is required");
        assertRefused(rpc.invoke(new LoadProgramInputBuilder().setNode(new NodeId(NODE)).setProgramId(progId(8))
            .build()), ErrorTag.INVALID_VALUE, "one of program, elf or library-filter is required");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void anUnknownSwitchIsDataMissing() throws Exception {
        assertRefused(rpc.invoke(library("openflow:99", 7, "baseline").build()), ErrorTag.DATA_MISSING,
            "switch openflow:99 is unknown or not connected");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void aSwitchMasteredElsewhereNamesItsMaster() throws Exception {
        masteredBy(NODE, "member-2");
        assertRefused(rpc.invoke(library(NODE, 7, "baseline").build()), ErrorTag.RESOURCE_DENIED,
            "openflow:1 is mastered by member-2, not by this one (member-1): call the RPC on member-2's RESTCONF");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void aSwitchWithoutOkoIsSentNothing() throws Exception {
        withoutOko(NODE);
        assertRefused(rpc.invoke(library(NODE, 7, "baseline").build()), ErrorTag.OPERATION_NOT_SUPPORTED,
            "openflow:1 does not support Oko (the switch answered BADEXPERIMENTER)");
        assertEquals(List.of(), client.sent);
    }

    @Test
    void theVerifiersRejectionIsTheSwitchsText() throws Exception {
        client.refusals.put("load", "program refused by the verifier: instruction 3: r2 is not readable");
        assertRefused(rpc.invoke(library(NODE, 7, "baseline").build()), ErrorTag.OPERATION_FAILED,
            "openflow:1 rejected program 7: program refused by the verifier: instruction 3: r2 is not readable");
        assertTrue(loaded.get(NODE, 7).isEmpty());
    }
}
