/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.liveness;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.runtime.ServiceComponentRuntime;
import org.osgi.service.component.runtime.dto.ComponentConfigurationDTO;
import org.osgi.service.component.runtime.dto.ComponentDescriptionDTO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts AAA's encryption service configurator again when the service it should start never comes.
 *
 * <p>Why: in AAA 0.21.2, {@code OSGiEncryptionServiceConfigurator}'s constructor registers its listener on
 * {@code /aaa-encrypt-service-config} before it keeps the registration in the field its callback checks; a first
 * notification delivered in between on the datastore's thread, one that already holds the whole configuration
 * (a member that rejoins a running cluster: its replica has the data when the listener registers), is taken for
 * a shutdown and dropped. The configuration never changes again, so the encryption service never starts, nor
 * the certificate manager that waits for it, nor Shiro that waits for that: RESTCONF answers 401 to every
 * password, for good (seen after a member the cluster downed restarted itself, and in CI). Later AAA releases
 * have the same code.
 *
 * <p>The watch: once the configurator's component is active, the service must be registered within
 * {@link #GRACE_NANOS} (it takes 1-3 s at a start); if it is not, the configurator is disabled and enabled
 * again through the component runtime: a new instance, a new listener, a new first notification. At most
 * {@link #MAX_RESTARTS} times in this process, each said in karaf.log. Disabling the configurator only disposes
 * of an encryption service it started, and there is none.
 */
@Component(immediate = true, service = { })
public final class AaaEncryptionWatch implements AutoCloseable {
    static final String CONFIGURATOR = "org.opendaylight.aaa.encrypt.impl.OSGiEncryptionServiceConfigurator";
    static final String SERVICE = "org.opendaylight.aaa.encrypt.AAAEncryptionService";
    static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(60);
    static final int MAX_RESTARTS = 3;
    private static final long PERIOD_SECONDS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(AaaEncryptionWatch.class);

    /** What the watch sees of the component runtime and the service registry, and what it does there. */
    interface Components {
        /** Whether the configurator's component is active. */
        boolean configuratorActive();

        /** Whether an encryption service is registered. */
        boolean serviceRegistered();

        /** Disables the configurator's component and enables it again, each step finished when it returns. */
        void restartConfigurator() throws Exception;
    }

    private final Components runtime;
    private final LongSupplier clock;
    private final ScheduledExecutorService timer;
    /** When the configurator was first seen active without the service, in this stretch; -1 when not. */
    private long waitingSince = -1;
    private int restarts;
    private boolean gaveUpSaid;

    @Activate
    public AaaEncryptionWatch(@Reference final ServiceComponentRuntime scr, final BundleContext context) {
        this(new Osgi(scr, context), System::nanoTime, Executors.newSingleThreadScheduledExecutor(task -> {
            final Thread thread = new Thread(task, "oko-aaa-encryption-watch");
            thread.setDaemon(true);
            return thread;
        }));
        timer.scheduleWithFixedDelay(this::check, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
    }

    /** A watch the caller runs ({@link #check}); tests. */
    AaaEncryptionWatch(final Components runtime, final LongSupplier clock) {
        this(runtime, clock, null);
    }

    private AaaEncryptionWatch(final Components runtime, final LongSupplier clock,
            final ScheduledExecutorService timer) {
        this.runtime = runtime;
        this.clock = clock;
        this.timer = timer;
    }

    /** One look: what the timer runs every few seconds. */
    @SuppressWarnings("checkstyle:IllegalCatch")         // whatever the runtime throws, the watch goes on
    synchronized void check() {
        try {
            if (runtime.serviceRegistered() || !runtime.configuratorActive()) {
                waitingSince = -1;
                return;
            }
            final long now = clock.getAsLong();
            if (waitingSince < 0) {
                waitingSince = now;
                return;
            }
            if (now - waitingSince < GRACE_NANOS) {
                return;
            }
            if (restarts == MAX_RESTARTS) {
                if (!gaveUpSaid) {
                    gaveUpSaid = true;
                    LOG.error("AAA's encryption service has still not started after {} restarts of its configurator: "
                        + "RESTCONF refuses every password until Karaf is restarted", MAX_RESTARTS);
                }
                return;
            }
            restarts++;
            LOG.warn("AAA's encryption service has not started {} s after its configurator did (AAA 0.21.2 can drop "
                + "the configurator's first notification at a start, and RESTCONF then refuses every password): "
                + "the configurator is started again ({} of at most {})", TimeUnit.NANOSECONDS.toSeconds(
                    GRACE_NANOS), restarts, MAX_RESTARTS);
            waitingSince = -1;
            runtime.restartConfigurator();
        } catch (Exception e) {
            LOG.warn("Could not check or restart AAA's encryption service configurator", e);
        }
    }

    @Deactivate
    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    /** The runtime as Felix SCR and the framework answer. */
    private static final class Osgi implements Components {
        private final ServiceComponentRuntime scr;
        private final BundleContext context;

        Osgi(final ServiceComponentRuntime scr, final BundleContext context) {
            this.scr = scr;
            this.context = context;
        }

        private ComponentDescriptionDTO configurator() {
            return scr.getComponentDescriptionDTOs().stream().filter(description -> CONFIGURATOR.equals(
                description.name)).findFirst().orElse(null);
        }

        @Override
        public boolean configuratorActive() {
            final ComponentDescriptionDTO description = configurator();
            return description != null && scr.getComponentConfigurationDTOs(description).stream()
                .anyMatch(configuration -> configuration.state == ComponentConfigurationDTO.ACTIVE);
        }

        @Override
        public boolean serviceRegistered() {
            return context.getServiceReference(SERVICE) != null;
        }

        @Override
        public void restartConfigurator() throws Exception {
            final ComponentDescriptionDTO description = configurator();
            if (description != null) {
                scr.disableComponent(description).getValue();
                scr.enableComponent(description).getValue();
            }
        }
    }
}
