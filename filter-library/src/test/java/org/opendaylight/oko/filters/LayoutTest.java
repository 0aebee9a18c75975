/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.filters;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutTest {
    private final Layout layout = new Layout(List.of(new Layout.Field("count", "u64"),
        new Layout.Field("port", "be16"), new Layout.Field("source", "ipv4"), new Layout.Field("mac", "mac"),
        new Layout.Field("tag", "hex2")));

    @Test
    void decodesEachFieldInItsOwnNotation() {
        final byte[] bytes = HexFormat.of().parseHex("0500000000000000" + "0035" + "0a000001" + "020000000001"
            + "beef");
        assertEquals(List.of(new Layout.Value("count", "5"), new Layout.Value("port", "53"),
            new Layout.Value("source", "10.0.0.1"), new Layout.Value("mac", "02:00:00:00:00:01"),
            new Layout.Value("tag", "beef")), layout.decode(bytes));
    }

    @Test
    void bytesOfAnotherSizeAreNotDecoded() {
        assertEquals(List.of(), layout.decode(new byte[3]));
    }

    @Test
    void encodesIntoTheFieldsOffset() {
        final byte[] bytes = new byte[layout.size()];
        layout.encode("count", "0x10", bytes);
        layout.encode("port", "53", bytes);
        layout.encode("source", "192.168.1.2", bytes);
        layout.encode("mac", "02:00:00:00:00:01", bytes);
        layout.encode("tag", "beef", bytes);
        assertArrayEquals(HexFormat.of().parseHex("1000000000000000" + "0035" + "c0a80102" + "020000000001"
            + "beef"), bytes);
    }

    @Test
    void refusesValuesThatDoNotFit() {
        final byte[] bytes = new byte[layout.size()];
        assertEquals("'70000' does not fit 2 unsigned bytes",
            assertThrows(IllegalArgumentException.class, () -> layout.encode("port", "70000", bytes)).getMessage());
        assertEquals("'-1' does not fit 8 unsigned bytes",
            assertThrows(IllegalArgumentException.class, () -> layout.encode("count", "-1", bytes)).getMessage());
        assertEquals("'10.0.0' is not an IPv4 address",
            assertThrows(IllegalArgumentException.class, () -> layout.encode("source", "10.0.0", bytes))
                .getMessage());
        assertEquals("'many' is not a number",
            assertThrows(IllegalArgumentException.class, () -> layout.encode("count", "many", bytes)).getMessage());
        assertArrayEquals(new byte[layout.size()], bytes, "a refused value writes nothing");
    }
}
