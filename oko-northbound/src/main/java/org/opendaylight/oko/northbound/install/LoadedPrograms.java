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

    private record Key(String node, long progId) {
    }

    private final Map<Key, Loaded> loaded = new ConcurrentHashMap<>();

    public void put(final String node, final long progId, final Loaded program) {
        loaded.put(new Key(node, progId), program);
    }

    public Optional<Loaded> get(final String node, final long progId) {
        return Optional.ofNullable(loaded.get(new Key(node, progId)));
    }

    public void remove(final String node, final long progId) {
        loaded.remove(new Key(node, progId));
    }

    /** Program ids loaded on a switch, with what is loaded. */
    public Map<Long, Loaded> onSwitch(final String node) {
        final Map<Long, Loaded> result = new TreeMap<>();
        loaded.forEach((key, value) -> {
            if (key.node().equals(node)) {
                result.put(key.progId(), value);
            }
        });
        return result;
    }

    public void forgetSwitch(final String node) {
        loaded.keySet().removeIf(key -> key.node().equals(node));
    }
}
