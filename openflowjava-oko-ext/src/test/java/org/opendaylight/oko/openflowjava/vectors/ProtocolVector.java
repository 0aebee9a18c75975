/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.vectors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * One byte vector of docs/protocol/vectors (docs/protocol.md section 8).
 */
public record ProtocolVector(String name, String kind, boolean wellFormed, String comment, byte[] bytes) {
    /** Where the vectors live, relative to this module. */
    public static final Path DIRECTORY = Path.of("..", "docs", "protocol", "vectors");

    @Override
    public String toString() {
        return name;
    }

    public static List<ProtocolVector> all() {
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            final List<ProtocolVector> vectors = files
                .filter(path -> path.getFileName().toString().endsWith(".hex"))
                .sorted()
                .map(ProtocolVector::read)
                .toList();
            if (vectors.isEmpty()) {
                throw new IllegalStateException("no vectors in " + DIRECTORY.toAbsolutePath());
            }
            return vectors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ProtocolVector read(final Path path) {
        final String file = path.getFileName().toString();
        String kind = null;
        String expect = null;
        final StringBuilder comment = new StringBuilder();
        final StringBuilder hex = new StringBuilder();
        final List<String> lines;
        try {
            lines = Files.readAllLines(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String line : lines) {
            if (line.startsWith("#")) {
                final String text = line.substring(1).strip();
                if (text.startsWith("kind:")) {
                    kind = text.substring("kind:".length()).strip();
                } else if (text.startsWith("expect:")) {
                    expect = text.substring("expect:".length()).strip();
                } else {
                    comment.append(text);
                }
            } else {
                hex.append(line.replaceAll("\\s+", ""));
            }
        }
        if (kind == null || expect == null || !expect.equals("ok") && !expect.equals("malformed")) {
            throw new IllegalArgumentException(file + ": needs '# kind:' and '# expect: ok|malformed'");
        }
        return new ProtocolVector(file.substring(0, file.length() - ".hex".length()), kind, expect.equals("ok"),
            comment.toString(), HexFormat.of().parseHex(hex));
    }

    /** The bytes of the vector file {@code name}.hex. */
    public static byte[] bytesOf(final String name) {
        return read(DIRECTORY.resolve(name + ".hex")).bytes();
    }

    /** Bytes as the vector files and assertion messages spell them: hex pairs separated by spaces. */
    public static String hex(final byte[] bytes) {
        return java.util.HexFormat.ofDelimiter(" ").formatHex(bytes);
    }
}
