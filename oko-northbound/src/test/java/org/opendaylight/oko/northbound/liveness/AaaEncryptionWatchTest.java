/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.liveness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** When the watch starts AAA's encryption service configurator again, and when it leaves it alone. */
class AaaEncryptionWatchTest {
    /**
     * The component runtime as the watch sees it: a configurator that is active (or not) and a service that is
     * registered (or not); a restart starts the service when {@link #restartHelps} says so, as a configurator
     * whose new listener gets its first notification does.
     */
    private static final class Runtime implements AaaEncryptionWatch.Components {
        boolean active = true;
        boolean registered;
        boolean restartHelps;
        int restarts;

        @Override
        public boolean configuratorActive() {
            return active;
        }

        @Override
        public boolean serviceRegistered() {
            return registered;
        }

        @Override
        public void restartConfigurator() {
            restarts++;
            registered = restartHelps;
        }
    }

    private long now;

    private void after(final AaaEncryptionWatch watch, final long seconds) {
        now += TimeUnit.SECONDS.toNanos(seconds);
        watch.check();
    }

    @Test
    void aConfiguratorThatNeverStartsTheServiceIsStartedAgainAfterAMinute() {
        final var runtime = new Runtime();
        runtime.restartHelps = true;
        final var watch = new AaaEncryptionWatch(runtime, () -> now);
        after(watch, 0);
        after(watch, 55);
        assertEquals(0, runtime.restarts, "restarted before the minute was up");
        after(watch, 10);
        assertEquals(1, runtime.restarts);
        for (int i = 0; i < 100; i++) {
            after(watch, 5);
        }
        assertEquals(1, runtime.restarts, "restarted although the service came");
    }

    @Test
    void aServiceThatStartsIsLeftAloneAndSoIsAnInactiveConfigurator() {
        final var runtime = new Runtime();
        final var watch = new AaaEncryptionWatch(runtime, () -> now);
        runtime.active = false;                 // no datastore yet: the configurator waits for its broker
        for (int i = 0; i < 100; i++) {
            after(watch, 5);
        }
        runtime.active = true;
        after(watch, 5);
        after(watch, 3);
        runtime.registered = true;              // the usual start: 1-3 s
        for (int i = 0; i < 100; i++) {
            after(watch, 5);
        }
        assertEquals(0, runtime.restarts);
    }

    @Test
    void theConfiguratorIsStartedAgainThreeTimesAtMost() {
        final var runtime = new Runtime();
        final var watch = new AaaEncryptionWatch(runtime, () -> now);
        for (int i = 0; i < 1000; i++) {
            after(watch, 5);
        }
        assertEquals(AaaEncryptionWatch.MAX_RESTARTS, runtime.restarts);
    }
}
