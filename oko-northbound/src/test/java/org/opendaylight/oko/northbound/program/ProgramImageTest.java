/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.filters.FilterLibrary;

/** Against the real clang objects of the filter library and the catalog that describes them. */
class ProgramImageTest {
    private static final Map<String, Integer> TYPE_CODES = Map.of("hash", 1, "array", 2, "lru_hash", 3, "bloom", 4,
        "count_min", 5, "lpm", 6);

    private final FilterLibrary library = new FilterLibrary();
    private final FilterCatalog catalog = new FilterCatalog();

    @Test
    void mapsOfEveryLibraryFilterAreTheCatalogs() {
        for (var filter : catalog.filters()) {
            final ProgramImage image = ProgramImage.read(library.load(filter.name()).orElseThrow());
            final List<String> expected = filter.maps().stream()
                .map(m -> m.index() + " " + m.name() + " " + TYPE_CODES.get(m.type()) + " " + m.keySize() + " "
                    + m.valueSize() + " " + m.maxEntries())
                .toList();
            final List<String> read = image.maps().stream()
                .map(m -> m.index() + " " + m.name() + " " + m.type() + " " + m.keySize() + " " + m.valueSize() + " "
                    + m.maxEntries())
                .toList();
            assertEquals(expected, read, filter.name());
            assertTrue(image.instructions() > 0, filter.name());
        }
    }

    @Test
    void baselineIsTwoInstructionsWithoutMaps() {
        final ProgramImage image = ProgramImage.read(library.load("baseline").orElseThrow());
        assertEquals(2, image.instructions());
        assertEquals(List.of(), image.maps());
        assertEquals(64, image.sha256().length());
    }

    @Test
    void refusesWhatIsNotAnOkoObject() {
        assertEquals("not an ELF object", refusal(new byte[] { 1, 2, 3 }));
        final byte[] elf = library.load("rate-limiter").orElseThrow();
        final byte[] otherMachine = elf.clone();
        otherMachine[18] = 62;   // EM_X86_64
        assertEquals("not a BPF relocatable object (compile with clang -target bpf -c)", refusal(otherMachine));
        final byte[] cut = Arrays.copyOf(elf, elf.length / 2);
        assertTrue(refusal(cut).contains("lies outside the object"), refusal(cut));
    }

    @Test
    void damagedObjectsAreRefusedWithAReasonNeverACrash() {
        final byte[] elf = library.load("port-scan").orElseThrow();
        final Random random = new Random(42);
        int refused = 0;
        for (int round = 0; round < 50_000; round++) {
            final byte[] damaged = elf.clone();
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
            }
            try {
                ProgramImage.read(damaged);
            } catch (InvalidProgramException e) {
                assertTrue(!e.getMessage().isEmpty());
                refused++;
            }
        }
        assertTrue(refused > 0, "no damaged object was refused");
    }

    private static String refusal(final byte[] bytes) {
        return assertThrows(InvalidProgramException.class, () -> ProgramImage.read(bytes)).getMessage();
    }
}
