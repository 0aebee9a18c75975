/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.program;

import java.util.List;
import java.util.Optional;
import org.opendaylight.oko.filters.FilterCatalog;
import org.opendaylight.oko.northbound.switchio.SwitchClient.Entry;

/**
 * A program ready to be loaded: its ELF object, what the controller read from it, the library filter it comes from
 * (whose catalog layouts decode its maps), and the map writes that follow LOAD_PROG (parameters, initial entries).
 */
public record ResolvedProgram(String name, byte[] elf, ProgramImage image, Optional<FilterCatalog.Filter> filter,
        List<MapWrite> initialWrites) {

    /** Entries for one map, sizes as UPDATE_MAP carries them. */
    public record MapWrite(int mapIndex, String mapName, int keySize, int valueSize, List<Entry> entries) {
    }

    public ResolvedProgram {
        initialWrites = List.copyOf(initialWrites);
    }
}
