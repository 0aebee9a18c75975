/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Java against filter-library/tests/p0f/vectors.json, whose frames, signatures and parameters the filter and
 * the {@code p0f-signature} tool are tested against too (filter-library/tests/packets/test_p0f_vectors.py).
 */
class P0fVectorsTest {
    private static final Path VECTORS = Path.of("..", "filter-library", "tests", "p0f", "vectors.json");

    private record Vector(String name, byte[] frame, String signature, Map<String, String> parameters) {
    }

    private static List<Vector> vectors() throws IOException {
        JsonObject root = JsonParser.parseString(Files.readString(VECTORS)).getAsJsonObject();
        List<Vector> out = new ArrayList<>();
        for (JsonElement e : root.getAsJsonArray("vectors")) {
            JsonObject vector = e.getAsJsonObject();
            String signature = vector.get("signature").isJsonNull() ? null : vector.get("signature").getAsString();
            Map<String, String> parameters = new LinkedHashMap<>();
            if (!vector.get("parameters").isJsonNull()) {
                vector.getAsJsonObject("parameters").entrySet()
                    .forEach(p -> parameters.put(p.getKey(), p.getValue().getAsString()));
            }
            out.add(new Vector(vector.get("name").getAsString(),
                HexFormat.of().parseHex(vector.get("frame").getAsString()), signature, parameters));
        }
        return out;
    }

    @Test
    void eachFramesSignatureIsTheFilesAndItsParametersTheTools() throws IOException {
        List<Vector> vectors = vectors();
        assertTrue(vectors.size() >= 10, "vectors read: " + vectors.size());
        for (Vector v : vectors) {
            Optional<P0fFingerprint> fp = P0fFingerprint.ofFrame(v.frame());
            if (v.signature() == null) {
                assertFalse(fp.isPresent(), v.name());
                continue;
            }
            assertTrue(fp.isPresent(), v.name());
            P0fSignature signature = fp.orElseThrow().signature();
            assertEquals(v.signature(), signature.toText(), v.name());
            assertEquals(v.parameters(), signature.toParameters(), v.name());
            assertEquals(List.copyOf(v.parameters().keySet()), List.copyOf(signature.toParameters().keySet()),
                v.name() + ": the tool's order");
        }
    }

    @Test
    void parsingTheTextGivesTheSameSignatureAndParameters() throws IOException {
        for (Vector v : vectors()) {
            if (v.signature() != null) {
                P0fSignature parsed = P0fSignature.parse(v.signature());
                assertEquals(v.signature(), parsed.toText(), v.name());
                assertEquals(v.parameters(), parsed.toParameters(), v.name());
            }
        }
    }

    @Test
    void aSignatureMatchesExactlyTheFramesTheFilterMatches() throws IOException {
        // test_p0f_vectors.py checks the same against the filter itself
        List<Vector> vectors = vectors();
        for (Vector v : vectors) {
            if (v.signature() == null) {
                continue;
            }
            P0fSignature signature = P0fSignature.parse(v.signature());
            for (Vector w : vectors) {
                Optional<P0fFingerprint> fp = P0fFingerprint.ofFrame(w.frame());
                boolean expected = v.signature().equals(w.signature());
                assertEquals(expected, fp.isPresent() && signature.matches(fp.orElseThrow()),
                    v.name() + " on " + w.name());
            }
        }
    }
}
