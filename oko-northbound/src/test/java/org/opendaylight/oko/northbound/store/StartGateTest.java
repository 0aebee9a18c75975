/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.opendaylight.mdsal.common.api.CommitInfo;
import org.opendaylight.mdsal.dom.api.DOMDataBroker;
import org.opendaylight.mdsal.dom.api.DOMDataTreeWriteTransaction;
import org.opendaylight.yangtools.util.concurrent.FluentFutures;
import org.opendaylight.yangtools.yang.common.QName;
import org.opendaylight.yangtools.yang.data.api.YangInstanceIdentifier;

/** What RESTCONF answers while the configuration store starts, as a client sees it. */
class StartGateTest {
    /** One request through the gate: its status (0 when passed on), headers and body. */
    private record Answer(int status, Map<String, String> headers, String body, boolean passedOn) {
    }

    private static Answer send(final StartGate gate, final String method, final String uri, final String query)
            throws Exception {
        return send(gate, method, uri, query, null);
    }

    private static Answer send(final StartGate gate, final String method, final String uri, final String query,
            final String authorization) throws Exception {
        final var request = (HttpServletRequest) Proxy.newProxyInstance(StartGateTest.class.getClassLoader(),
            new Class<?>[] { HttpServletRequest.class }, (proxy, m, args) -> switch (m.getName()) {
                case "getMethod" -> method;
                case "getRequestURI" -> uri;
                case "getQueryString" -> query;
                case "getHeader" -> "Authorization".equalsIgnoreCase((String) args[0]) ? authorization : null;
                default -> throw new UnsupportedOperationException(m.getName());
            });
        final int[] status = { 0 };
        final Map<String, String> headers = new HashMap<>();
        final StringWriter body = new StringWriter();
        final var writer = new PrintWriter(body);
        final var response = (HttpServletResponse) Proxy.newProxyInstance(StartGateTest.class.getClassLoader(),
            new Class<?>[] { HttpServletResponse.class }, (proxy, m, args) -> {
                switch (m.getName()) {
                    case "setStatus" -> status[0] = (Integer) args[0];
                    case "setHeader" -> headers.put((String) args[0], (String) args[1]);
                    case "setContentType" -> headers.put("Content-Type", (String) args[0]);
                    case "setCharacterEncoding" -> { }
                    case "getWriter" -> {
                        return writer;
                    }
                    default -> throw new UnsupportedOperationException(m.getName());
                }
                return null;
            });
        final AtomicBoolean passed = new AtomicBoolean();
        gate.doFilter(request, response, (req, resp) -> passed.set(true));
        writer.flush();
        return new Answer(status[0], headers, body.toString(), passed.get());
    }

    @Test
    void whileTheStoreStartsConfigurationRequestsGet503WithTheReason() throws Exception {
        final var gate = new StartGate();
        for (String[] request : new String[][] {
            { "GET", "/rests/data/oko:programs", null },
            { "GET", "/rests/data", null },
            { "GET", "/rests/data/oko:switches", "content=config" },
            { "GET", "/rests/data/oko:switches", "content=all" },
            { "PUT", "/rests/data/oko:switches/switch=openflow%3A1", null },
            { "DELETE", "/rests/data/oko:programs/program=fw", null },
            { "POST", "/rests/data", null },
            { "PATCH", "/rests/data/opendaylight-inventory:nodes", null },
        }) {
            final Answer answer = send(gate, request[0], request[1], request[2]);
            assertFalse(answer.passedOn(), String.join(" ", request[0], request[1]));
            assertEquals(503, answer.status());
            assertEquals("5", answer.headers().get("Retry-After"));
            assertEquals("application/yang-data+json", answer.headers().get("Content-Type"));
            assertTrue(answer.body().contains("\"error-app-tag\":\"" + StartGate.APP_TAG + "\"")
                && answer.body().contains("putting the stored configuration back"), answer.body());
        }
    }

    @Test
    void whileTheStoreStartsTheStatusOperationalDataAndOtherResourcesAreServed() throws Exception {
        final var gate = new StartGate();
        for (String[] request : new String[][] {
            { "GET", "/rests/data/oko:configuration-store", null },
            { "GET", "/rests/data/oko%3Aconfiguration-store", "content=nonconfig" },
            { "GET", "/rests/data/oko:configuration-store/member=member-1", null },
            { "GET", "/rests/data/opendaylight-inventory:nodes", "content=nonconfig&fields=node(id)" },
            { "GET", "/rests/operations", null },
            { "POST", "/auth/v1/users", null },
            { "GET", "/openapi/explorer/index.html", null },
            { "GET", "/rests/data/ietf-yang-library:yang-library", null },
        }) {
            final Answer answer = send(gate, request[0], request[1], request[2]);
            assertTrue(answer.passedOn(), String.join(" ", request[0], request[1]));
            assertEquals(0, answer.status());
        }
    }

    /** A path or query that could read or write the configuration in a disguise is refused, not let through. */
    @Test
    void disguisedConfigurationRequestsAreRefused() {
        assertTrue(StartGate.isGuarded("GET", "/rests/data/oko:configuration-store/../oko:programs", null));
        assertTrue(StartGate.isGuarded("GET", "/rests/data/oko:configuration-store/%2E%2E/oko:programs", null));
        assertTrue(StartGate.isGuarded("GET", "/rests/data;x=1/oko:programs", null));
        assertTrue(StartGate.isGuarded("GET", "/rests//data/oko:programs", null));
        assertTrue(StartGate.isGuarded("GET", "/rests/data/oko:configuration-store;x/../oko:programs", null));
        assertTrue(StartGate.isGuarded("GET", "/rests/data/oko:switches", "content=nonconfig&content=config"));
        assertTrue(StartGate.isGuarded("GET", "/rests/data/oko:switches", "content=nonconfig%26content=config"));
        assertTrue(StartGate.isGuarded("GET", "/rests/data/oko:switches", "content=%ZZ"));
        assertTrue(StartGate.isGuarded("PUT", "/rests/data/oko:configuration-store", null));
        assertTrue(StartGate.isGuarded("DELETE", "/rests/data/oko:switches", "content=nonconfig"));
        // Found by review: a dot segment with a path parameter, a dot segment or a parameter before /rests.
        assertTrue(StartGate.isGuarded("GET", "/rests/data/oko:configuration-store/..;/oko:programs", null));
        assertTrue(StartGate.isGuarded("GET", "/./rests/data/oko:programs", null));
        assertTrue(StartGate.isGuarded("GET", "/;x/rests/data/oko:programs", null));
        assertTrue(StartGate.isGuarded("GET", "/RESTS/data/oko:programs;", null));
        assertTrue(StartGate.isGuarded("GET", "/rests/data/oko:configuration-store%5C..%5Coko:programs", null));
    }

    @Test
    void anOpenGateLetsEverythingThrough() throws Exception {
        final var gate = new StartGate();
        gate.open();
        assertTrue(send(gate, "GET", "/rests/data/oko:programs", null).passedOn());
        assertTrue(send(gate, "PUT", "/rests/data/oko:switches/switch=openflow%3A1", null).passedOn());
        // A store that fails once running refuses writes in its cohorts; reads stay served.
        gate.failed("the disk is gone");
        assertTrue(gate.isOpen());
    }

    @Test
    void aStoreThatCouldNotStartKeepsTheGateClosedWithItsReasonAndNoRetry() throws Exception {
        final var gate = new StartGate();
        gate.failed("the Oko configuration store did not start: snapshot damaged");
        final Answer answer = send(gate, "GET", "/rests/data/oko:programs", null);
        assertEquals(503, answer.status());
        assertNull(answer.headers().get("Retry-After"));
        assertTrue(answer.body().contains("snapshot damaged") && !answer.body().contains("try again"), answer.body());
    }

    @Test
    void theErrorIsValidJsonWhateverTheReasonSays() {
        assertEquals("{\"errors\":{\"error\":[{\"error-type\":\"application\",\"error-tag\":"
            + "\"resource-denied\",\"error-app-tag\":\"" + StartGate.APP_TAG + "\",\"error-message\":"
            + "\"a \\\"quoted\\\" \\\\ path" + "\\" + "u000a\"}]}}", StartGate.errorBody("a \"quoted\" \\ path\n"));
    }

    /** A read barrier over a broker whose commits all succeed, or all fail with {@code failure}; counts them. */
    private static ReadBarrier barrier(final AtomicInteger commits, final RuntimeException failure) {
        final var tx = (DOMDataTreeWriteTransaction) Proxy.newProxyInstance(StartGateTest.class.getClassLoader(),
            new Class<?>[] { DOMDataTreeWriteTransaction.class }, (proxy, m, args) -> switch (m.getName()) {
                case "merge" -> null;
                case "commit" -> {
                    commits.incrementAndGet();
                    yield failure == null ? CommitInfo.emptyFluentFuture()
                        : FluentFutures.immediateFailedFluentFuture(failure);
                }
                default -> throw new UnsupportedOperationException(m.getName());
            });
        final var broker = (DOMDataBroker) Proxy.newProxyInstance(StartGateTest.class.getClassLoader(),
            new Class<?>[] { DOMDataBroker.class }, (proxy, m, args) -> tx);
        return new ReadBarrier(broker, List.of(YangInstanceIdentifier.of(QName.create("urn:test", "root"))));
    }

    @Test
    void inAClusterRequestsForTheConfigurationAreConfirmedByTheShardsFirst() throws Exception {
        final var commits = new AtomicInteger();
        final var gate = new StartGate();
        gate.open(barrier(commits, null));
        assertTrue(send(gate, "GET", "/rests/data/oko:programs", null, "Basic x").passedOn());
        assertTrue(send(gate, "GET", "/rests/data/opendaylight-inventory:nodes", "content=config", "Basic x")
            .passedOn());
        assertTrue(send(gate, "HEAD", "/rests/data", null, "Basic x").passedOn());
        // Writes read the configuration too (a DELETE answers "missing", a POST creates what is absent), and so
        // do RPCs (load-program reads the stored programs); credentials or not (a session cookie would do).
        assertTrue(send(gate, "DELETE", "/rests/data/oko:programs/program=fw", null, "Basic x").passedOn());
        assertTrue(send(gate, "POST", "/rests/data/oko:programs", null, null).passedOn());
        assertTrue(send(gate, "POST", "/rests/operations/oko:load-program", null, "Basic x").passedOn());
        assertTrue(send(gate, "GET", "/rests/data/oko:programs", null, null).passedOn());
        assertEquals(7, commits.get());
        // Not the configuration: no commit.
        assertTrue(send(gate, "GET", "/rests/data/oko:switches", "content=nonconfig", "Basic x").passedOn());
        assertTrue(send(gate, "GET", "/rests/data/oko:configuration-store", null, "Basic x").passedOn());
        assertTrue(send(gate, "OPTIONS", "/rests/data/oko:programs", null, "Basic x").passedOn());
        assertTrue(send(gate, "GET", "/auth/v1/users", null, "Basic x").passedOn());
        assertEquals(7, commits.get());
    }

    @Test
    void aReadNoShardLeaderConfirmsIsRefusedNotAnsweredWithWhatMayBeOld() throws Exception {
        final var gate = new StartGate();
        gate.open(barrier(new AtomicInteger(), new IllegalStateException("no leader for shard default")));
        final Answer answer = send(gate, "GET", "/rests/data/oko:programs/program=fw", null, "Basic x");
        assertFalse(answer.passedOn());
        assertEquals(503, answer.status());
        assertEquals("5", answer.headers().get("Retry-After"));
        assertTrue(answer.body().contains(StartGate.NOT_CONFIRMED_APP_TAG), answer.body());
        assertTrue(answer.body().contains("could not confirm"), answer.body());
        assertFalse(send(gate, "PUT", "/rests/data/oko:programs/program=fw", null, "Basic x").passedOn());
    }
}
