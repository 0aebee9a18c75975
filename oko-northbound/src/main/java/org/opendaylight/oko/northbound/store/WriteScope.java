/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.store;

import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ReadListener;
import javax.servlet.ServletException;
import javax.servlet.ServletInputStream;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.HttpServletResponse;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.opendaylight.controller.cluster.datastore.DistributedDataStoreInterface;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Refuses RESTCONF configuration writes outside what Oko keeps across a restart.
 *
 * <p>Why: the datastore runs without persistence, and the configuration store keeps only Oko's subtrees
 * ({@link #KEPT}). A write anywhere else (an AAA policy, another feature's settings) would be answered 2xx and be
 * gone after the next start; it is refused instead, with an error that says so. Not refused: the subtrees `make up`
 * writes itself at every start of a member ({@link #SEEDS}: the OpenFlow listeners, per member), and reads.
 *
 * <p>At the data root a YANG patch ({@code application/yang-patch+json} or {@code +xml}) is read and let through
 * when every edit targets a kept subtree; any other write at the root (which replaces or merges the whole
 * datastore) is refused. The body read here is handed on unchanged. Like {@link StartGate} this runs before
 * RESTCONF's authentication: a client without valid credentials writing outside the kept subtrees learns that it
 * is not kept (which the documentation says anyway); every other write still needs valid credentials.
 *
 * <p>Only where the configuration datastore runs without persistence (as `make up` runs it): a distribution that
 * installs odl-oko on a persistent datastore keeps the other subtrees itself, and nothing is refused.
 */
@Component(service = Filter.class, immediate = true, property = "org.opendaylight.aaa.filterchain.filter=true")
public final class WriteScope implements Filter {
    /** The subtrees the configuration store keeps (ConfigurationStore's roots). */
    static final Set<String> KEPT = Set.of("oko:programs", "oko:switches", "opendaylight-inventory:nodes",
        "oko-syn-guard:syn-guards");
    /** Written by `make up` at every start of each member: not kept, and not meant to be. */
    static final Set<String> SEEDS = Set.of("openflow-switch-connection-config:switch-connection-config");
    static final String APP_TAG = "oko-configuration-not-kept";
    private static final Set<String> WRITES = Set.of("PUT", "POST", "PATCH", "DELETE");
    /** The largest YANG patch read here; `make up` limits every body to 8 MiB by default. */
    private static final int MAX_PATCH_BYTES = 64 << 20;

    /** The configuration datastore, once there is one: whether it persists decides whether anything is refused. */
    @Reference(target = "(type=distributed-config)", cardinality = ReferenceCardinality.OPTIONAL,
        policy = ReferencePolicy.DYNAMIC)
    volatile DistributedDataStoreInterface configDatastore;

    @Override
    public void init(final FilterConfig filterConfig) {
        // Nothing to set up.
    }

    @Override
    public void destroy() {
        // Nothing to release.
    }

    @Override
    public void doFilter(final ServletRequest request, final ServletResponse response, final FilterChain chain)
            throws IOException, ServletException {
        if (!(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse out)
                || !WRITES.contains(http.getMethod()) || persistent()) {
            chain.doFilter(request, response);
            return;
        }
        final String uri = http.getRequestURI();
        final String path = StartGate.decodePath(uri);
        if (path == null && uri != null && uri.toLowerCase(Locale.ROOT).contains("rests")) {
            // Path parameters, dot segments: whatever the server would make of it, refused when it could be a write.
            refuse(out, "a request path Oko cannot read (path parameters, dot segments, empty segments)");
            return;
        }
        if (path == null || !path.startsWith(StartGate.DATA_PATH)) {
            chain.doFilter(request, response);
            return;
        }
        final String rest = path.substring(StartGate.DATA_PATH.length());
        if (!rest.isEmpty() && !rest.equals("/")) {
            final String why = refusal(rest.startsWith("/") ? topNode(rest.substring(1)) : null);
            if (why != null) {
                refuse(out, why);
                return;
            }
            chain.doFilter(request, response);
            return;
        }
        // The data root: only a YANG patch whose every edit targets a kept subtree.
        final String type = http.getContentType() == null ? "" : http.getContentType().toLowerCase(Locale.ROOT);
        if (!"PATCH".equals(http.getMethod()) || !type.startsWith("application/yang-patch")) {
            refuse(out, "a " + http.getMethod() + " of the whole datastore would write subtrees Oko does not keep "
                + "across a restart: write each subtree at its own resource (" + StartGate.DATA_PATH
                + "/oko:programs, ...), or send a YANG patch");
            return;
        }
        final byte[] body = http.getInputStream().readNBytes(MAX_PATCH_BYTES + 1);
        if (body.length > MAX_PATCH_BYTES) {
            refuse(out, "a YANG patch larger than " + (MAX_PATCH_BYTES >> 20) + " MiB");
            return;
        }
        final List<String> targets = type.startsWith("application/yang-patch+xml") ? xmlTargets(body)
            : jsonTargets(body);
        if (targets == null) {
            // Not a patch this filter can read (malformed, a DOCTYPE): when unsure, refuse.
            refuse(out, "a YANG patch whose edit targets Oko cannot read (a yang-patch with an edit list of "
                + "targets, without a DOCTYPE, is expected)");
            return;
        }
        for (String target : targets) {
            final String why = refusal(topNode(target.startsWith("/") ? target.substring(1) : target));
            if (why != null) {
                refuse(out, why + " (YANG patch edit target " + target + ")");
                return;
            }
        }
        chain.doFilter(new ReplayedBody(http, body), response);
    }

    /** Whether the configuration datastore keeps everything itself (unknown until it is there: not assumed). */
    private boolean persistent() {
        final DistributedDataStoreInterface datastore = configDatastore;
        return datastore != null && datastore.getActorUtils().getDatastoreContext().isPersistent();
    }

    /** Why a write to the top-level node {@code node} is refused; null when it is kept (or seeded). */
    static String refusal(final String node) {
        if (node == null || node.isEmpty()) {
            return "a write Oko cannot tell the subtree of";
        }
        if (KEPT.contains(node) || SEEDS.contains(node)) {
            return null;
        }
        return "Oko does not keep " + node + " across a restart (the datastore runs without persistence; Oko keeps "
            + String.join(", ", KEPT.stream().sorted().toList()) + "): the write is refused rather than lost at the "
            + "next start (docs/northbound.md, \"Durability\")";
    }

    /** The top-level node ({@code module:name}) a path relative to the data root starts with. */
    static String topNode(final String relative) {
        int end = relative.length();
        for (char stop : new char[] { '/', '=', ';' }) {
            final int at = relative.indexOf(stop);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return relative.substring(0, end);
    }

    /** The edits' targets of a JSON YANG patch; null when the body is not one. */
    static List<String> jsonTargets(final byte[] body) {
        try {
            final JsonElement root = JsonParser.parseString(new String(body, StandardCharsets.UTF_8));
            final var patch = root.getAsJsonObject().get("ietf-yang-patch:yang-patch");
            if (patch == null || !patch.isJsonObject() || !patch.getAsJsonObject().has("edit")) {
                return null;
            }
            final List<String> targets = new ArrayList<>();
            for (JsonElement edit : patch.getAsJsonObject().getAsJsonArray("edit")) {
                final JsonElement target = edit.getAsJsonObject().get("target");
                if (target == null || !target.isJsonPrimitive()) {
                    return null;
                }
                targets.add(target.getAsString());
            }
            return targets;
        } catch (JsonParseException | IllegalStateException | ClassCastException e) {
            return null;
        }
    }

    /** The edits' targets of an XML YANG patch; null when the body is not one. */
    static List<String> xmlTargets(final byte[] body) {
        try {
            final var factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            final Element root = factory.newDocumentBuilder().parse(new ByteArrayInputStream(body))
                .getDocumentElement();
            if (!"yang-patch".equals(root.getLocalName())) {
                return null;
            }
            final List<String> targets = new ArrayList<>();
            final NodeList edits = root.getElementsByTagNameNS("*", "edit");
            for (int i = 0; i < edits.getLength(); i++) {
                final NodeList target = ((Element) edits.item(i)).getElementsByTagNameNS("*", "target");
                if (target.getLength() != 1) {
                    return null;
                }
                targets.add(target.item(0).getTextContent().strip());
            }
            return targets;
        } catch (ParserConfigurationException | SAXException | IOException e) {
            return null;
        }
    }

    private static void refuse(final HttpServletResponse out, final String why) throws IOException {
        // RFC 8040's status for operation-not-supported; what may be done instead is in the message.
        out.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
        out.setHeader("Allow", "GET, HEAD, OPTIONS");
        out.setContentType("application/yang-data+json");
        out.setCharacterEncoding(StandardCharsets.UTF_8.name());
        out.getWriter().write(StartGate.errorBody("operation-not-supported", APP_TAG, why));
    }

    /** The request with its body, read already, to be read again. */
    private static final class ReplayedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        ReplayedBody(final HttpServletRequest request, final byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            final InputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() throws IOException {
                    return in.read();
                }

                @Override
                public int read(final byte[] buffer, final int offset, final int length) throws IOException {
                    return in.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public int available() {
                    try {
                        return in.available();
                    } catch (IOException e) {
                        return 0;
                    }
                }

                @Override
                public void setReadListener(final ReadListener listener) {
                    throw new IllegalStateException("the body was read already: no asynchronous reads");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            final String encoding = getCharacterEncoding();
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body),
                encoding == null ? StandardCharsets.UTF_8 : java.nio.charset.Charset.forName(encoding)));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
