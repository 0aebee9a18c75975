/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.filters;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The byte layout of a map entry's key or value as map sections carry it (docs/protocol.md 5.1: sketches as
 * cells) and as the catalog describes it: fields in order, no padding. Field types:
 * u8 u16 u32 u64 (little-endian, as the program stores them), be16 be32 be64 (network order), ipv4 (4 bytes,
 * network order), mac (6 bytes) and hexN (N raw bytes).
 */
public final class Layout {
    /** One field: a name and a catalog type. */
    public record Field(String name, String type) {
        public Field {
            sizeOf(type);
        }

        public int size() {
            return sizeOf(type);
        }
    }

    /** A decoded field value. */
    public record Value(String name, String value) {
    }

    private static final Pattern HEX_TYPE = Pattern.compile("hex([1-9][0-9]{0,4})");
    private static final HexFormat HEX = HexFormat.of();

    private final List<Field> fields;

    public Layout(final List<Field> fields) {
        this.fields = List.copyOf(fields);
    }

    public List<Field> fields() {
        return fields;
    }

    /** Total bytes of the fields. */
    public int size() {
        return fields.stream().mapToInt(Field::size).sum();
    }

    /** Byte offset of a field, or -1 without such a field. */
    public int offsetOf(final String name) {
        int offset = 0;
        for (Field field : fields) {
            if (field.name().equals(name)) {
                return offset;
            }
            offset += field.size();
        }
        return -1;
    }

    public Field field(final String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no field " + name));
    }

    /**
     * Decodes bytes laid out like this into one value per field; an empty list when the size does not match the
     * layout (the raw bytes then speak for themselves).
     */
    public List<Value> decode(final byte[] bytes) {
        if (fields.isEmpty() || bytes.length != size()) {
            return List.of();
        }
        final List<Value> values = new ArrayList<>(fields.size());
        int offset = 0;
        for (Field field : fields) {
            values.add(new Value(field.name(), format(field.type(), bytes, offset, field.size())));
            offset += field.size();
        }
        return values;
    }

    /**
     * Writes a value given in text into {@code target} at the field's offset.
     *
     * @throws IllegalArgumentException if the text is not a value of the field's type
     */
    public void encode(final String fieldName, final String text, final byte[] target) {
        final Field field = field(fieldName);
        final int offset = offsetOf(fieldName);
        final byte[] bytes = parse(field.type(), text.strip());
        System.arraycopy(bytes, 0, target, offset, bytes.length);
    }

    static int sizeOf(final String type) {
        return switch (type) {
            case "u8" -> 1;
            case "u16", "be16" -> 2;
            case "u32", "be32", "ipv4" -> 4;
            case "u64", "be64" -> 8;
            case "mac" -> 6;
            default -> {
                final var matcher = HEX_TYPE.matcher(type);
                if (!matcher.matches()) {
                    throw new IllegalArgumentException("unknown field type " + type);
                }
                yield Integer.parseInt(matcher.group(1));
            }
        };
    }

    private static String format(final String type, final byte[] bytes, final int offset, final int size) {
        return switch (type) {
            case "u8", "u16", "u32", "u64" -> unsigned(bytes, offset, size, true).toString();
            case "be16", "be32", "be64" -> unsigned(bytes, offset, size, false).toString();
            case "ipv4" -> (bytes[offset] & 0xFF) + "." + (bytes[offset + 1] & 0xFF) + "."
                + (bytes[offset + 2] & 0xFF) + "." + (bytes[offset + 3] & 0xFF);
            case "mac" -> HexFormat.ofDelimiter(":").formatHex(bytes, offset, offset + size);
            default -> HEX.formatHex(bytes, offset, offset + size);
        };
    }

    private static BigInteger unsigned(final byte[] bytes, final int offset, final int size,
            final boolean littleEndian) {
        final byte[] bigEndian = new byte[size];
        for (int i = 0; i < size; i++) {
            bigEndian[i] = bytes[offset + (littleEndian ? size - 1 - i : i)];
        }
        return new BigInteger(1, bigEndian);
    }

    private static byte[] parse(final String type, final String text) {
        final int size = sizeOf(type);
        return switch (type) {
            case "u8", "u16", "u32", "u64" -> integer(text, size, true);
            case "be16", "be32", "be64" -> integer(text, size, false);
            case "ipv4" -> ipv4(text);
            case "mac" -> raw(text.replace(":", ""), size, type);
            default -> raw(text, size, type);
        };
    }

    private static byte[] integer(final String text, final int size, final boolean littleEndian) {
        final BigInteger value;
        try {
            final String lower = text.toLowerCase(Locale.ROOT);
            value = lower.startsWith("0x") ? new BigInteger(lower.substring(2), 16) : new BigInteger(lower);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a number", e);
        }
        if (value.signum() < 0 || value.bitLength() > size * Byte.SIZE) {
            throw new IllegalArgumentException("'" + text + "' does not fit " + size + " unsigned bytes");
        }
        final byte[] bigEndian = value.toByteArray();
        final byte[] result = new byte[size];
        for (int i = 0; i < size && i < bigEndian.length; i++) {
            final byte b = bigEndian[bigEndian.length - 1 - i];
            result[littleEndian ? i : size - 1 - i] = b;
        }
        return result;
    }

    private static byte[] ipv4(final String text) {
        final String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 address");
        }
        final byte[] result = new byte[4];
        for (int i = 0; i < 4; i++) {
            try {
                final int octet = Integer.parseInt(parts[i]);
                if (octet < 0 || octet > 255) {
                    throw new NumberFormatException(parts[i]);
                }
                result[i] = (byte) octet;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is not an IPv4 address", e);
            }
        }
        return result;
    }

    private static byte[] raw(final String text, final int size, final String type) {
        final byte[] bytes;
        try {
            bytes = HEX.parseHex(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not hexadecimal", e);
        }
        if (bytes.length != size) {
            throw new IllegalArgumentException("'" + text + "' is not " + size + " bytes (" + type + ")");
        }
        return bytes;
    }
}
