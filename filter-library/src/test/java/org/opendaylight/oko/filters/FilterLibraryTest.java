/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.filters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class FilterLibraryTest {
    private static final int EM_BPF = 247;
    private static final int ET_REL = 1;

    private final FilterLibrary library = new FilterLibrary();

    @Test
    void baselineIsListed() {
        assertTrue(library.names().contains("baseline"), () -> "names: " + library.names());
    }

    @Test
    void baselineIsBpfRelocatableObject() {
        final byte[] elf = library.load("baseline").orElseThrow();
        final ByteBuffer buf = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0x7f, buf.get(0));
        assertEquals('E', buf.get(1));
        assertEquals('L', buf.get(2));
        assertEquals('F', buf.get(3));
        assertEquals(2, buf.get(4), "ELFCLASS64");
        assertEquals(ET_REL, buf.getShort(16));
        assertEquals(EM_BPF, buf.getShort(18));
    }

    @Test
    void unknownAndHostileNamesAreEmpty() {
        assertTrue(library.load("no_such_filter").isEmpty());
        assertTrue(library.load("../../../etc/passwd").isEmpty());
        assertTrue(library.load("INDEX").isEmpty());
    }

    @Test
    void everyListedFilterLoads() {
        // Names with a hyphen (rate-limiter) were once refused by the name check.
        for (String name : library.names()) {
            assertTrue(library.load(name).isPresent(), name);
        }
    }
}
