/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.opendaylight.oko.northbound.synguard.P0fSignature.Quirk;
import org.opendaylight.oko.northbound.synguard.P0fSignature.WindowKind;

/**
 * What the {@code p0f-syn-flood} filter computes of a TCP SYN before it compares signatures, computed here from the
 * same bytes with the same rules (filter-library/filters/p0f-syn-flood.c, step for step: one VLAN tag, IPv4 without
 * fragments or IPv6 without extension headers, at most {@link P0fSignature#MAX_OPTIONS} options in 40 bytes).
 * {@code filter-library/tests/p0f/vectors.json} holds frames whose fingerprint both sides must agree on.
 *
 * @param version 4 or 6
 * @param ttl the TTL or hop limit as received
 * @param olen IPv4 options length in bytes
 * @param mss the MSS option's value, 0 without one
 * @param window the TCP window
 * @param wscale the window scale option's value, 0 without one
 * @param wscaleSeen whether a window scale option was read
 * @param options the option kinds in order (an EOL, or the malformed option that ended the layout, included)
 * @param quirks the {@link Quirk} bits
 */
public record P0fFingerprint(int version, int ttl, int olen, int mss, int window, int wscale, boolean wscaleSeen,
        List<Integer> options, int quirks) {
    private static final int ETH_HLEN = 14;
    private static final int VLAN_HLEN = 4;
    private static final int ETH_P_IPV4 = 0x0800;
    private static final int ETH_P_IPV6 = 0x86dd;
    private static final int ETH_P_8021Q = 0x8100;
    private static final int ETH_P_8021AD = 0x88a8;
    private static final int IPV4_MIN_HLEN = 20;
    private static final int IPV6_HLEN = 40;
    private static final int IPPROTO_TCP = 6;
    private static final int IPV4_FLAG_RESERVED = 0x8000;
    private static final int IPV4_FLAG_DF = 0x4000;
    private static final int IPV4_FRAG_OFFSET_MASK = 0x1fff;
    private static final int IP_ECN_MASK = 0x03;
    private static final int TCP_MIN_HLEN = 20;
    private static final int TCP_MAX_OPTIONS_LEN = 40;
    private static final int TCP_SYN = 0x02;
    private static final int TCP_PSH = 0x08;
    private static final int TCP_ACK = 0x10;
    private static final int TCP_URG = 0x20;
    private static final int TCP_ECE = 0x40;
    private static final int TCP_CWR = 0x80;
    private static final int TCPOPT_MSS_LEN = 4;
    private static final int TCPOPT_WS_LEN = 3;
    private static final int TCPOPT_TIMESTAMP_LEN = 10;
    private static final int MAX_WSCALE = 14;

    public P0fFingerprint {
        options = List.copyOf(options);
    }

    /** The fingerprint of a TCP SYN (ACK clear) in an Ethernet frame; empty for anything the filter never matches. */
    public static Optional<P0fFingerprint> ofFrame(final byte[] frame) {
        return new Parser(frame).parse();
    }

    /**
     * p0f's guess of the initial TTL: the first of 32, 64, 128 and 255 at or above the TTL seen; the TTL itself
     * when that is {@link P0fSignature#MAX_HOPS} or more above it (p0f's "bad TTL": a signature with the guess
     * would not match the packet it came from).
     */
    public int initialTtl() {
        int guess = ttl <= 32 ? 32 : ttl <= 64 ? 64 : ttl <= 128 ? 128 : 255;
        return ttl + P0fSignature.MAX_HOPS <= guess ? ttl : guess;
    }

    /**
     * The narrowest signature that matches this fingerprint: version, initial TTL, options, quirks and MSS as
     * seen; the window as a multiple of the MSS when it is one, else exactly; the window scale if present.
     */
    public P0fSignature signature() {
        boolean mssMultiple = mss != 0 && window != 0 && window % mss == 0;
        return new P0fSignature(version, initialTtl(), olen, mss,
            mssMultiple ? WindowKind.MSS_MULTIPLE : WindowKind.EXACT, mssMultiple ? window / mss : window,
            wscaleSeen ? wscale : P0fSignature.WSCALE_ANY, options, quirks);
    }

    private static final class Parser {
        private final byte[] frame;
        private final int end;
        private int version;
        private int ttl;
        private int olen;
        private int mss;
        private int window;
        private int wscale;
        private boolean wscaleSeen;
        private final List<Integer> options = new ArrayList<>();
        private int quirks;

        Parser(final byte[] frame) {
            this.frame = frame.clone();
            this.end = frame.length;
        }

        private int u8(final int at) {
            return frame[at] & 0xff;
        }

        private int be16(final int at) {
            return u8(at) << 8 | u8(at + 1);
        }

        private long be32(final int at) {
            return (long) be16(at) << 16 | be16(at + 2);
        }

        Optional<P0fFingerprint> parse() {
            if (ETH_HLEN > end) {
                return Optional.empty();
            }
            int type = be16(12);
            int ip = ETH_HLEN;
            if (type == ETH_P_8021Q || type == ETH_P_8021AD) {
                if (ETH_HLEN + VLAN_HLEN > end) {
                    return Optional.empty();
                }
                type = be16(12 + VLAN_HLEN);
                ip += VLAN_HLEN;
            }
            int tcp;
            if (type == ETH_P_IPV4) {
                if (ip + IPV4_MIN_HLEN > end || u8(ip + 9) != IPPROTO_TCP) {
                    return Optional.empty();
                }
                int ihl = (u8(ip) & 0x0f) * 4;
                int frag = be16(ip + 6);
                if (ihl < IPV4_MIN_HLEN || (frag & IPV4_FRAG_OFFSET_MASK) != 0) {
                    return Optional.empty();
                }
                version = 4;
                olen = ihl - IPV4_MIN_HLEN;
                ttl = u8(ip + 8);
                int id = be16(ip + 4);
                if ((frag & IPV4_FLAG_DF) != 0) {
                    quirks |= Quirk.DF.mask() | (id != 0 ? Quirk.ID_PLUS.mask() : 0);
                } else if (id == 0) {
                    quirks |= Quirk.ID_MINUS.mask();
                }
                if ((frag & IPV4_FLAG_RESERVED) != 0) {
                    quirks |= Quirk.ZERO_PLUS.mask();
                }
                if ((u8(ip + 1) & IP_ECN_MASK) != 0) {
                    quirks |= Quirk.ECN.mask();
                }
                tcp = ip + ihl;
            } else if (type == ETH_P_IPV6) {
                if (ip + IPV6_HLEN > end || u8(ip + 6) != IPPROTO_TCP) {
                    return Optional.empty();
                }
                version = 6;
                ttl = u8(ip + 7);
                if ((u8(ip + 1) >> 4 & IP_ECN_MASK) != 0) {
                    quirks |= Quirk.ECN.mask();
                }
                if ((u8(ip + 1) & 0x0f) != 0 || u8(ip + 2) != 0 || u8(ip + 3) != 0) {
                    quirks |= Quirk.FLOW.mask();
                }
                tcp = ip + IPV6_HLEN;
            } else {
                return Optional.empty();
            }
            if (tcp + TCP_MIN_HLEN > end) {
                return Optional.empty();
            }
            int flags = u8(tcp + 13);
            if ((flags & (TCP_SYN | TCP_ACK)) != TCP_SYN) {
                return Optional.empty();
            }
            tcpHeader(tcp, flags);
            return Optional.of(new P0fFingerprint(version, ttl, olen, mss, window, wscale, wscaleSeen, options,
                quirks));
        }

        private void tcpHeader(final int tcp, final int flags) {
            if ((flags & (TCP_ECE | TCP_CWR)) != 0) {
                quirks |= Quirk.ECN.mask();
            }
            if (be32(tcp + 4) == 0) {
                quirks |= Quirk.SEQ_MINUS.mask();
            }
            if (be32(tcp + 8) != 0) {
                quirks |= Quirk.ACK_PLUS.mask();
            }
            if ((flags & TCP_URG) != 0) {
                quirks |= Quirk.URGF_PLUS.mask();
            } else if (be16(tcp + 18) != 0) {
                quirks |= Quirk.UPTR_PLUS.mask();
            }
            if ((flags & TCP_PSH) != 0) {
                quirks |= Quirk.PUSHF_PLUS.mask();
            }
            window = be16(tcp + 14);
            int hlen = (u8(tcp + 12) >> 4) * 4;
            if (hlen < TCP_MIN_HLEN) {
                quirks |= Quirk.BAD.mask();
                return;
            }
            int base = tcp + TCP_MIN_HLEN;
            int optionsLen = hlen - TCP_MIN_HLEN;
            int off = 0;
            for (int i = 0; i < P0fSignature.MAX_OPTIONS; i++) {
                off = readOption(base, optionsLen, off);
                if (off < 0) {
                    return;
                }
            }
        }

        /** The filter's read_option(): the next offset, or -1 where the layout ends. */
        private int readOption(final int base, final int optionsLen, final int off) {
            if (off >= TCP_MAX_OPTIONS_LEN || off >= optionsLen) {
                return -1;
            }
            int opt = base + off;
            if (opt + 1 > end) {
                quirks |= Quirk.BAD.mask();
                return -1;
            }
            int kind = u8(opt);
            options.add(kind);
            if (kind == P0fSignature.OPT_EOL) {
                return -1;
            }
            if (kind == P0fSignature.OPT_NOP) {
                return off + 1;
            }
            if (opt + 2 > end || u8(opt + 1) < 2 || opt + u8(opt + 1) > base + optionsLen
                || opt + u8(opt + 1) > end) {
                quirks |= Quirk.BAD.mask();
                return -1;
            }
            int len = u8(opt + 1);
            if (kind == P0fSignature.OPT_MSS) {
                if (len != TCPOPT_MSS_LEN) {
                    quirks |= Quirk.BAD.mask();
                } else {
                    mss = be16(opt + 2);
                }
            } else if (kind == P0fSignature.OPT_WS) {
                if (len != TCPOPT_WS_LEN) {
                    quirks |= Quirk.BAD.mask();
                } else {
                    wscale = u8(opt + 2);
                    wscaleSeen = true;
                    if (wscale > MAX_WSCALE) {
                        quirks |= Quirk.EXWS.mask();
                    }
                }
            } else if (kind == P0fSignature.OPT_TS) {
                if (len != TCPOPT_TIMESTAMP_LEN) {
                    quirks |= Quirk.BAD.mask();
                } else {
                    if (be32(opt + 2) == 0) {
                        quirks |= Quirk.TS1_MINUS.mask();
                    }
                    if (be32(opt + 6) != 0) {
                        quirks |= Quirk.TS2_PLUS.mask();
                    }
                }
            }
            return off + len;
        }
    }
}
