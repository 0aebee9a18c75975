/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jdt.annotation.Nullable;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps RESTCONF's configuration data closed until this member's configuration store has put the stored
 * configuration back into the datastore.
 *
 * <p>Why: the datastore runs without persistence, so it starts empty, and RESTCONF serves it as soon as it is up.
 * A read before the restore has finished would answer "no programs, no switches" for a configuration that exists
 * (a client that acts on that answer, creating what it thinks is missing, overwrites the operator's entries), and a
 * write would be refused by the store's cohorts with a less useful error. Until the store runs, every request under
 * {@code /rests/data} is answered {@code 503 Service Unavailable} with a RESTCONF error that says why and a
 * {@code Retry-After}, except what an operator needs to watch the start: reads of operational data
 * ({@code content=nonconfig}) and of {@code /oko:configuration-store}. A store that could not start keeps the gate
 * closed, with its reason. Once open, the gate stays open: a store that fails later refuses writes in its cohorts,
 * and the datastore it filled is still right to read.
 *
 * <p>Registered as a servlet filter of AAA's filter chain ({@code org.opendaylight.aaa.filterchain.filter}). RESTCONF's
 * endpoint runs that chain before its authentication (seen: a wrong password gets this 503, not 401), so what the
 * refusal says is for anyone who can reach the port: that the store starts, or did not start, and no more (the
 * reason is in karaf.log and in the errors of refused writes, which only an authenticated client gets). The
 * component has no references, so it is registered as soon as the bundle starts, before RESTCONF
 * (which waits for the datastore) serves anything.
 */
@Component(service = { Filter.class, StartGate.class }, immediate = true,
    property = "org.opendaylight.aaa.filterchain.filter=true")
public final class StartGate implements Filter {
    private static final Logger LOG = LoggerFactory.getLogger(StartGate.class);
    /** The data resource of RESTCONF's endpoint, as `make up` and the docs configure it. */
    static final String DATA_PATH = "/rests/data";
    /** RESTCONF's RPCs. */
    static final String OPERATIONS_PATH = "/rests/operations/";
    /** Where a member reports how the start goes (operational, written by the start itself). */
    static final String STATUS_PATH = DATA_PATH + "/oko:configuration-store";
    /** Distinguishes this refusal from the datastore's own errors (a client may retry it safely). */
    static final String APP_TAG = "oko-configuration-store-not-running";
    static final String STARTING = "Oko is putting the stored configuration back into the datastore";
    /** Distinguishes a read refused because no shard leader confirmed it (a majority down, an election). */
    static final String NOT_CONFIRMED_APP_TAG = "oko-configuration-read-not-confirmed";
    static final String NOT_CONFIRMED = "The cluster could not confirm that this member's configuration is current "
        + "(no shard leader answered)";
    private static final int RETRY_AFTER_SECONDS = 5;
    private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");
    /** Operational state clients read when they connect (not configuration): served while the store starts. */
    private static final List<String> SERVED_WHILE_STARTING = List.of(DATA_PATH + "/ietf-yang-library:",
        DATA_PATH + "/ietf-restconf-monitoring:");

    private static final long REFUSAL_LOG_INTERVAL_NANOS = 10_000_000_000L;
    /** When a refusal for want of confirmation was last logged (racy on purpose: a rate limit, not a count). */
    private volatile long lastRefusalLogged = System.nanoTime() - REFUSAL_LOG_INTERVAL_NANOS;
    /** What requests for the configuration pass first, once open (in a cluster); null: nothing. */
    private volatile ReadBarrier readBarrier;
    /** Why requests are refused; null once the store runs. */
    private volatile String refusal = STARTING;
    private volatile boolean retry = true;

    /** Lets every request through from now on: the stored configuration is in the datastore. */
    void open() {
        open(null);
    }

    /**
     * Lets every request through from now on, those for the configuration once {@code reads} confirmed them (in a
     * cluster; null: at once).
     */
    void open(final @Nullable ReadBarrier reads) {
        readBarrier = reads;
        if (refusal != null) {
            LOG.info("RESTCONF's configuration data is open: the stored configuration is in the datastore{}",
                reads == null ? "" : "; reads of it are confirmed by the shards' leaders first");
        }
        refusal = null;
    }

    /**
     * Refuses the configuration data for good (until Karaf restarts) with {@code why}, unless the gate was opened:
     * the store could not start, so the datastore does not hold the configuration.
     */
    void failed(final String why) {
        if (refusal != null) {
            retry = false;
            refusal = why;
        }
    }

    /** Whether requests are let through. */
    boolean isOpen() {
        return refusal == null;
    }

    @Override
    public void init(final FilterConfig filterConfig) {
        // Nothing to set up.
    }

    @Override
    public void doFilter(final ServletRequest request, final ServletResponse response, final FilterChain chain)
            throws IOException, ServletException {
        final String why = refusal;
        if (why != null && request instanceof HttpServletRequest http && response instanceof HttpServletResponse out
                && isGuarded(http.getMethod(), http.getRequestURI(), http.getQueryString())) {
            out.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            if (retry) {
                out.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
            }
            out.setContentType("application/yang-data+json");
            out.setCharacterEncoding(StandardCharsets.UTF_8.name());
            out.getWriter().write(errorBody(why + (retry ? ": try again in a few seconds" : "")));
            return;
        }
        final ReadBarrier reads = readBarrier;
        if (why == null && reads != null && request instanceof HttpServletRequest http
                && response instanceof HttpServletResponse out && isConfirmed(http)) {
            final String unconfirmed = reads.pass();
            if (unconfirmed != null) {
                final long now = System.nanoTime();
                if (now - lastRefusalLogged > REFUSAL_LOG_INTERVAL_NANOS) {
                    lastRefusalLogged = now;
                    LOG.warn("Requests for the configuration are refused (503): {} (logged at most every 10 s)",
                        unconfirmed);
                }
                out.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
                out.setHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
                out.setContentType("application/yang-data+json");
                out.setCharacterEncoding(StandardCharsets.UTF_8.name());
                // Before authentication: what it says is that the cluster has no leader, nothing more (the reason is in
                // karaf.log).
                out.getWriter().write(errorBody("resource-denied", NOT_CONFIRMED_APP_TAG, NOT_CONFIRMED
                    + ": try again in a few seconds"));
                return;
            }
        }
        chain.doFilter(request, response);
    }

    @Override
    public void destroy() {
        // Nothing to release.
    }

    /**
     * Whether a request is confirmed by the shards' leaders first (in a cluster): every request the gate guards
     * (reads of the configuration, and writes, which read it too: a DELETE answers "missing", a POST creates only
     * what is absent) and every RPC (load-program reads the stored programs). Not operational reads, the start's
     * status, OPTIONS. Decided before authentication: a request without valid credentials waits for a commit like
     * any other (they are shared, and their waiters capped).
     */
    static boolean isConfirmed(final HttpServletRequest http) {
        final String method = http.getMethod();
        if ("OPTIONS".equals(method)) {
            return false;
        }
        final String path = decodePath(http.getRequestURI());
        return path != null && path.startsWith(OPERATIONS_PATH)
            || isGuarded(method, http.getRequestURI(), http.getQueryString());
    }

    /**
     * Whether a request reaches the configuration: anything whose path starts with {@link #DATA_PATH} (path
     * parameters included) but reads of operational data and of the start's own status. Decided on the decoded
     * path, so an encoded colon or slash does not get a configuration read past the gate; a path it cannot decode
     * or that has dot segments is refused.
     */
    static boolean isGuarded(final String method, final String requestUri, final String query) {
        final String path = decodePath(requestUri);
        if (path == null) {
            // Not a plain path (a path parameter, a dot segment, an encoding it cannot read): whatever the server
            // would make of it, it is refused when it could name RESTCONF.
            return requestUri == null || requestUri.toLowerCase(Locale.ROOT).contains("rests");
        }
        if (!path.startsWith(DATA_PATH)) {
            return false;
        }
        if (!READS.contains(method)) {
            return true;
        }
        if (path.equals(STATUS_PATH) || path.startsWith(STATUS_PATH + "/")
                || SERVED_WHILE_STARTING.stream().anyMatch(path::startsWith)) {
            return false;
        }
        return !onlyOperational(query);
    }

    /**
     * The percent-decoded path; null when it is not a plain one: path parameters ({@code ;}), dot segments
     * (including {@code ..;}), empty segments, backslashes.
     */
    static String decodePath(final String uri) {
        final String path = decode(uri);
        if (path == null || path.indexOf(';') >= 0 || path.indexOf('\\') >= 0 || !path.startsWith("/")) {
            return null;
        }
        for (String segment : path.substring(1).split("/", -1)) {
            if (segment.isEmpty() && !path.endsWith("/") || segment.equals(".") || segment.equals("..")) {
                return null;
            }
        }
        return path;
    }

    /** Whether the query asks for operational data only ({@code content=nonconfig}, given once). */
    private static boolean onlyOperational(final String query) {
        if (query == null) {
            return false;
        }
        String content = null;
        for (String parameter : query.split("&", -1)) {
            final String decoded = decode(parameter);
            if (decoded == null) {
                return false;
            }
            if (decoded.startsWith("content=")) {
                if (content != null) {
                    return false;
                }
                content = decoded.substring("content=".length());
            }
        }
        return "nonconfig".equals(content);
    }

    /** The percent-decoded text, with dot segments refused (null): not a path the gate can reason about. */
    private static String decode(final String text) {
        if (text == null) {
            return null;
        }
        final String decoded;
        try {
            decoded = URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return decoded.contains("/../") || decoded.endsWith("/..") || decoded.contains("/./")
            || decoded.contains("//") ? null : decoded;
    }

    /**
     * A RESTCONF error document (RFC 8040, section 7.1) in JSON, shaped as this RESTCONF server writes its own
     * (a top-level {@code errors}), so a client parses both alike.
     */
    static String errorBody(final String message) {
        return errorBody("resource-denied", APP_TAG, message);
    }

    static String errorBody(final String tag, final String appTag, final String message) {
        return "{\"errors\":{\"error\":[{\"error-type\":\"application\",\"error-tag\":\"" + tag
            + "\",\"error-app-tag\":\"" + appTag + "\",\"error-message\":\"" + jsonText(message) + "\"}]}}";
    }

    private static String jsonText(final String text) {
        final StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
