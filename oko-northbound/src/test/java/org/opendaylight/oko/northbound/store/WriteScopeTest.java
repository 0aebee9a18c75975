/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import javax.servlet.ReadListener;
import javax.servlet.ServletInputStream;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

/**
 * Finding 8: a configuration write outside what Oko keeps across a restart is refused with an error that says so,
 * not answered 2xx and lost at the next start.
 */
class WriteScopeTest {
    /** One request through the filter: its status (0 when passed on), body, and the body the chain read. */
    private record Answer(int status, String body, byte[] passedBody) {
        boolean passedOn() {
            return passedBody != null;
        }
    }

    private static Answer send(final String method, final String uri, final String contentType, final String body)
            throws Exception {
        final byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        final var in = new ByteArrayInputStream(bytes);
        final var stream = new ServletInputStream() {
            @Override
            public int read() {
                return in.read();
            }

            @Override
            public boolean isFinished() {
                return in.available() == 0;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(final ReadListener listener) {
                throw new UnsupportedOperationException();
            }
        };
        final var request = (HttpServletRequest) Proxy.newProxyInstance(WriteScopeTest.class.getClassLoader(),
            new Class<?>[] { HttpServletRequest.class }, (proxy, m, args) -> switch (m.getName()) {
                case "getMethod" -> method;
                case "getRequestURI" -> uri;
                case "getContentType" -> contentType;
                case "getInputStream" -> stream;
                case "getCharacterEncoding" -> null;
                default -> throw new UnsupportedOperationException(m.getName());
            });
        final int[] status = { 0 };
        final StringWriter text = new StringWriter();
        final var writer = new PrintWriter(text);
        final var response = (HttpServletResponse) Proxy.newProxyInstance(WriteScopeTest.class.getClassLoader(),
            new Class<?>[] { HttpServletResponse.class }, (proxy, m, args) -> {
                switch (m.getName()) {
                    case "setStatus" -> status[0] = (Integer) args[0];
                    case "setHeader", "setContentType", "setCharacterEncoding" -> { }
                    case "getWriter" -> {
                        return writer;
                    }
                    default -> throw new UnsupportedOperationException(m.getName());
                }
                return null;
            });
        final AtomicReference<byte[]> passed = new AtomicReference<>();
        new WriteScope().doFilter(request, response,
            (req, resp) -> passed.set(((HttpServletRequest) req).getInputStream().readAllBytes()));
        writer.flush();
        return new Answer(status[0], text.toString(), passed.get());
    }

    private static void assertRefused(final Answer answer, final String... words) {
        assertFalse(answer.passedOn(), answer.body());
        assertEquals(405, answer.status());
        assertTrue(answer.body().contains("\"error-app-tag\":\"" + WriteScope.APP_TAG + "\""), answer.body());
        for (String word : words) {
            assertTrue(answer.body().contains(word), word + " not in " + answer.body());
        }
    }

    @Test
    void writesOutsideTheKeptSubtreesAreRefusedWithTheReason() throws Exception {
        assertRefused(send("PUT", "/rests/data/aaa:http-authorization/policies", "application/json", "{}"),
            "does not keep aaa:http-authorization across a restart", "oko:programs");
        assertRefused(send("POST", "/rests/data/openflow-provider-config:openflow-provider-config",
            "application/json", "{}"), "openflow-provider-config:openflow-provider-config");
        assertRefused(send("DELETE", "/rests/data/aaa%3Ahttp-authorization", null, null),
            "aaa:http-authorization");
        assertRefused(send("PATCH", "/rests/data/network-topology:network-topology/topology=t", "application/json",
            "{}"), "network-topology:network-topology");
        assertRefused(send("PUT", "/./rests/data/aaa:http-authorization", "application/json", "{}"), "cannot read");
        assertRefused(send("PUT", "/rests/data;x=1/aaa:http-authorization", "application/json", "{}"));
    }

    @Test
    void writesOfTheKeptSubtreesAndTheSeedsAndReadsAreLetThrough() throws Exception {
        for (String[] request : new String[][] {
            { "PUT", "/rests/data/oko:programs/program=fw" },
            { "DELETE", "/rests/data/oko:switches/switch=openflow%3A1" },
            { "PUT", "/rests/data/opendaylight-inventory:nodes/node=openflow%3A1/flow-node-inventory:table=0" },
            { "PUT", "/rests/data/oko-syn-guard:syn-guards/syn-guard=g" },
            { "POST", "/rests/data/oko:programs" },
            { "PUT", "/rests/data/openflow-switch-connection-config:switch-connection-config=provider-default" },
            { "GET", "/rests/data/aaa:http-authorization" },
            { "POST", "/rests/operations/oko:load-program" },
        }) {
            final Answer answer = send(request[0], request[1], "application/json", "{\"x\":1}");
            assertTrue(answer.passedOn(), String.join(" ", request));
            assertArrayEquals("{\"x\":1}".getBytes(StandardCharsets.UTF_8), answer.passedBody());
        }
    }

    @Test
    void aYangPatchIsLetThroughOnlyWhenEveryEditTargetsAKeptSubtree() throws Exception {
        final String kept = "{\"ietf-yang-patch:yang-patch\":{\"patch-id\":\"p\",\"edit\":["
            + "{\"edit-id\":\"1\",\"operation\":\"delete\",\"target\":\"/oko:switches/switch=openflow:1/program=5\"},"
            + "{\"edit-id\":\"2\",\"operation\":\"delete\",\"target\":\"/oko:programs/program=instant\"}]}}";
        final Answer through = send("PATCH", "/rests/data", "application/yang-patch+json", kept);
        assertTrue(through.passedOn());
        assertArrayEquals(kept.getBytes(StandardCharsets.UTF_8), through.passedBody(), "the body handed on");

        assertRefused(send("PATCH", "/rests/data", "application/yang-patch+json",
            kept.replace("/oko:programs/program=instant", "/aaa:http-authorization/policies")),
            "aaa:http-authorization", "edit target /aaa:http-authorization/policies");

        final String xml = "<yang-patch xmlns=\"urn:ietf:params:xml:ns:yang:ietf-yang-patch\"><patch-id>p</patch-id>"
            + "<edit><edit-id>1</edit-id><operation>delete</operation><target>/oko:programs/program=a</target></edit>"
            + "</yang-patch>";
        assertTrue(send("PATCH", "/rests/data/", "application/yang-patch+xml", xml).passedOn());
        assertRefused(send("PATCH", "/rests/data", "application/yang-patch+xml",
            xml.replace("/oko:programs/program=a", "/aaa:http-authorization")), "aaa:http-authorization");
    }

    @Test
    void aWriteOfTheWholeDatastoreOrAPatchThatCannotBeReadIsRefused() throws Exception {
        assertRefused(send("PUT", "/rests/data", "application/json", "{\"ietf-restconf:data\":{}}"),
            "write each subtree at its own resource");
        assertRefused(send("POST", "/rests/data", "application/json", "{\"oko:programs\":{}}"));
        assertRefused(send("PATCH", "/rests/data", "application/yang-data+json", "{\"ietf-restconf:data\":{}}"));
        assertRefused(send("DELETE", "/rests/data", null, null));
        assertRefused(send("PATCH", "/rests/data", "application/yang-patch+json", "{not json"), "cannot read");
        assertRefused(send("PATCH", "/rests/data", "application/yang-patch+xml",
            "<!DOCTYPE x [<!ENTITY e \"/aaa:x\">]><yang-patch><edit><target>&e;</target></edit></yang-patch>"),
            "cannot read");
    }
}
