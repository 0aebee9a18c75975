/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;

/**
 * One sampled SYN: where it went and its fingerprint. The destination is read as the syn-sampler filter keys its
 * counts: IPv4 or IPv6 after at most one VLAN tag.
 *
 * @param destination the destination address
 * @param fingerprint what the p0f filter computes of the SYN
 */
public record SynSample(InetAddress destination, P0fFingerprint fingerprint) {
    private static final int ETH_HLEN = 14;
    private static final int ETH_TYPE_OFFSET = 12;
    private static final int VLAN_HLEN = 4;
    private static final int ETH_P_IPV4 = 0x0800;
    private static final int ETH_P_IPV6 = 0x86dd;
    private static final int ETH_P_8021Q = 0x8100;
    private static final int ETH_P_8021AD = 0x88a8;
    private static final int IPV4_DST = 16;
    private static final int IPV4_ADDR_LEN = 4;
    private static final int IPV6_DST = 24;
    private static final int IPV6_ADDR_LEN = 16;

    public SynSample {
        requireNonNull(destination);
        requireNonNull(fingerprint);
    }

    /** The sample in an Ethernet frame (a packet-in's payload); empty when it is not a SYN the filter would see. */
    public static Optional<SynSample> ofFrame(final byte[] frame) {
        return P0fFingerprint.ofFrame(frame).flatMap(fp -> destination(frame, fp.version())
            .map(address -> new SynSample(address, fp)));
    }

    private static Optional<InetAddress> destination(final byte[] frame, final int version) {
        // ofFrame() has checked that the frame holds the IP header (and the TCP header after it).
        final int type = (frame[ETH_TYPE_OFFSET] & 0xff) << 8 | frame[ETH_TYPE_OFFSET + 1] & 0xff;
        final int ip = type == ETH_P_8021Q || type == ETH_P_8021AD ? ETH_HLEN + VLAN_HLEN : ETH_HLEN;
        final int from = version == 4 ? ip + IPV4_DST : ip + IPV6_DST;
        final int length = version == 4 ? IPV4_ADDR_LEN : IPV6_ADDR_LEN;
        if (from + length > frame.length) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(Arrays.copyOfRange(frame, from, from + length)));
        } catch (UnknownHostException e) {
            // Only for an address of another length.
            throw new IllegalStateException(e);
        }
    }

    /** The syn-sampler's key of an address: 16 bytes, IPv4 as ::ffff:a.b.c.d. */
    public static byte[] counterKey(final InetAddress address) {
        final byte[] raw = address.getAddress();
        if (raw.length == IPV6_ADDR_LEN) {
            return raw;
        }
        final byte[] key = new byte[IPV6_ADDR_LEN];
        key[10] = (byte) 0xff;
        key[11] = (byte) 0xff;
        System.arraycopy(raw, 0, key, IPV6_ADDR_LEN - IPV4_ADDR_LEN, IPV4_ADDR_LEN);
        return key;
    }

    /** The address of a syn-sampler key (an IPv4-mapped key gives the IPv4 address). */
    public static InetAddress ofCounterKey(final byte[] key) {
        if (key.length != IPV6_ADDR_LEN) {
            throw new IllegalArgumentException("a destination key has 16 bytes, not " + key.length);
        }
        try {
            // InetAddress turns an IPv4-mapped IPv6 address into the IPv4 address.
            return InetAddress.getByAddress(key);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
