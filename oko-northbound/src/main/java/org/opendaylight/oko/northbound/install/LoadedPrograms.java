/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.opendaylight.oko.northbound.program.ResolvedProgram;

/**
 * The programs this controller instance has loaded onto the switches it masters, and whether configuration or an
 * RPC loaded them. The RPCs resolve map names with it, SEND_MAPS contents are decoded with it, and configuration
 * sync compares against it. Forgotten for a switch when the controller loses it (it may restart meanwhile).
 */
public final class LoadedPrograms {
    /** Who asked for the program. */
    public enum Origin { CONFIG, RPC }

    /** One loaded program. */
    public record Loaded(ResolvedProgram program, Origin origin, String fingerprint) {
    }

    /** Per switch, its programs by id: a poll or a sync of one switch looks at that switch only. */
    private final Map<String, Map<Long, Loaded>> loaded = new ConcurrentHashMap<>();

    public void put(final String node, final long progId, final Loaded program) {
        // Inside compute, as remove(): a put cannot land in a switch's map that remove() just dropped.
        loaded.compute(node, (n, programs) -> {
            final Map<Long, Loaded> map = programs != null ? programs : new ConcurrentHashMap<>();
            map.put(progId, program);
            return map;
        });
    }

    public Optional<Loaded> get(final String node, final long progId) {
        final Map<Long, Loaded> programs = loaded.get(node);
        return Optional.ofNullable(programs == null ? null : programs.get(progId));
    }

    public void remove(final String node, final long progId) {
        loaded.computeIfPresent(node, (n, programs) -> {
            programs.remove(progId);
            return programs.isEmpty() ? null : programs;
        });
    }

    /** Program ids loaded on a switch, with what is loaded (a copy, in id order). */
    public Map<Long, Loaded> onSwitch(final String node) {
        final Map<Long, Loaded> programs = loaded.get(node);
        return programs == null ? new TreeMap<>() : new TreeMap<>(programs);
    }

    public void forgetSwitch(final String node) {
        loaded.remove(node);
    }
}
