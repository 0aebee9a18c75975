/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.openflowjava.codec;

import io.netty.buffer.ByteBuf;

/**
 * Bounds-checked reads of a message body: each read first proves that the bytes are there, so a truncated or
 * lying message becomes an {@link OkoDecodingException} naming the field, never an IndexOutOfBoundsException or
 * an allocation sized by an unchecked length.
 */
public final class WireReader {
    private final ByteBuf buf;
    private final String what;

    public WireReader(final ByteBuf buf, final String what) {
        this.buf = buf;
        this.what = what;
    }

    public int remaining() {
        return buf.readableBytes();
    }

    private void need(final long bytes, final String field) {
        if (bytes > buf.readableBytes()) {
            throw new OkoDecodingException(what + ": " + field + " needs " + bytes + " bytes, "
                + buf.readableBytes() + " left");
        }
    }

    public int u8(final String field) {
        need(1, field);
        return buf.readUnsignedByte();
    }

    public int u16(final String field) {
        need(2, field);
        return buf.readUnsignedShort();
    }

    public long u32(final String field) {
        need(4, field);
        return buf.readUnsignedInt();
    }

    public long u64(final String field) {
        need(8, field);
        return buf.readLong();
    }

    public byte[] bytes(final long length, final String field) {
        need(length, field);
        final byte[] out = new byte[(int) length];
        buf.readBytes(out);
        return out;
    }

    /** Reads a reserved field of {@code size} bytes (1, 2 or 4), which must be zero. */
    public void reserved(final int size, final String field) {
        final long value = switch (size) {
            case 1 -> u8(field);
            case 2 -> u16(field);
            case 4 -> u32(field);
            default -> throw new IllegalArgumentException("reserved size " + size);
        };
        if (value != 0) {
            throw new OkoDecodingException(what + ": reserved " + field + " is " + value + ", must be 0");
        }
    }

    /** Skips pad bytes, whose contents are ignored on receipt. */
    public void pad(final int size, final String field) {
        need(size, field);
        buf.skipBytes(size);
    }

    /** The body must end exactly here. */
    public void end() {
        if (buf.readableBytes() != 0) {
            throw new OkoDecodingException(what + ": " + buf.readableBytes() + " bytes after the end of the body");
        }
    }

    public OkoDecodingException error(final String message) {
        return new OkoDecodingException(what + ": " + message);
    }
}
