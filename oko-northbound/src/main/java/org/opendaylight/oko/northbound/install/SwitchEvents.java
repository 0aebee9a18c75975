/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.install;

import java.util.List;

/** What happens to switches and their programs here, for those that act on it (the flows that name programs). */
public interface SwitchEvents {
    /** Nobody listens. */
    SwitchEvents NONE = new SwitchEvents() {
        @Override
        public void programInstalled(final String node, final long progId) {
            // nobody listens
        }

        @Override
        public void programUnloaded(final String node, final long progId, final boolean force) {
            // nobody listens
        }

        @Override
        public void switchReady(final String node) {
            // nobody listens
        }

        @Override
        public void switchForgotten(final String node) {
            // nobody listens
        }
    };

    /** Tells every one of {@code listeners}, in order. */
    static SwitchEvents all(final SwitchEvents... listeners) {
        final var list = List.of(listeners);
        return new SwitchEvents() {
            @Override
            public void programInstalled(final String node, final long progId) {
                list.forEach(listener -> listener.programInstalled(node, progId));
            }

            @Override
            public void programUnloaded(final String node, final long progId, final boolean force) {
                list.forEach(listener -> listener.programUnloaded(node, progId, force));
            }

            @Override
            public void switchMastered(final String node) {
                list.forEach(listener -> listener.switchMastered(node));
            }

            @Override
            public void switchReady(final String node) {
                list.forEach(listener -> listener.switchReady(node));
            }

            @Override
            public void switchForgotten(final String node) {
                list.forEach(listener -> listener.switchForgotten(node));
            }
        };
    }

    /** A program was installed on a switch (loaded, with its map entries). */
    void programInstalled(String node, long progId);

    /** A program was unloaded from a switch; with {@code force} the switch deleted the rules that named it. */
    void programUnloaded(String node, long progId, boolean force);

    /**
     * A switch became mastered here, before anything is sent to it (openflowplugin's reconciliation, or its
     * becoming owner when reconciliation is off).
     */
    default void switchMastered(final String node) {
        // nothing to do by default
    }

    /** A switch mastered here has its configured programs: the forwarding rules manager pushes its flows next. */
    void switchReady(String node);

    /** The switch is no longer mastered here. */
    void switchForgotten(String node);
}
