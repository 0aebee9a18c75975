/*
 * Copyright (c) 2026 Oko contributors and others. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package org.opendaylight.oko.northbound.synguard;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A p0f v3 TCP signature ("ver:ittl:olen:mss:wsize,scale:olayout:quirks:pclass") as the {@code p0f-syn-flood}
 * filter holds it in a signature slot. Parsing follows {@code filter-library/tools/p0f-signature} rule for rule
 * (the same text gives the same parameters: {@code filter-library/tests/p0f/vectors.json} checks both), and
 * {@link #matches} is the filter's {@code matches()}: what this class says a signature covers is what the switch
 * drops.
 *
 * @param version 4, 6, or {@link #VERSION_ANY}
 * @param ittl initial TTL; a TTL or hop limit in (ittl - {@link #MAX_HOPS}, ittl] matches; 0 for any
 * @param olen IPv4 options length in bytes
 * @param mss the MSS option's value; 0 for any
 * @param windowKind how {@code window} is compared
 * @param window the window, its multiplier of the MSS, or its divisor (with {@code windowKind})
 * @param wscale the window scale option's value, or {@link #WSCALE_ANY}
 * @param options the option kinds in order, at most {@link #MAX_OPTIONS}; an EOL ends the layout
 * @param quirks the set of {@link Quirk} bits, compared exactly
 */
public record P0fSignature(int version, int ittl, int olen, int mss, WindowKind windowKind, int window,
        int wscale, List<Integer> options, int quirks) {
    public static final int VERSION_ANY = 255;
    public static final int WSCALE_ANY = 255;
    public static final int MAX_OPTIONS = 16;
    /** p0f's largest accepted distance, as in the filter. */
    public static final int MAX_HOPS = 35;

    static final int OPT_EOL = 0;
    static final int OPT_NOP = 1;
    static final int OPT_MSS = 2;
    static final int OPT_WS = 3;
    static final int OPT_SOK = 4;
    static final int OPT_TS = 8;

    private static final Map<String, Integer> OPTION_KINDS = Map.of("eol", OPT_EOL, "nop", OPT_NOP, "mss", OPT_MSS,
        "ws", OPT_WS, "sok", OPT_SOK, "ts", OPT_TS);

    /** The filter's window comparisons; the ordinal is the {@code window_kind} parameter. */
    public enum WindowKind {
        ANY, EXACT, MSS_MULTIPLE, MODULO
    }

    /** p0f v3's quirks the filter computes; {@code bit} is the bit in the {@code quirks} parameter. */
    public enum Quirk {
        DF("df", 0), ID_PLUS("id+", 1), ID_MINUS("id-", 2), ECN("ecn", 3), ZERO_PLUS("0+", 4), FLOW("flow", 5),
        SEQ_MINUS("seq-", 6), ACK_PLUS("ack+", 7), UPTR_PLUS("uptr+", 8), URGF_PLUS("urgf+", 9),
        PUSHF_PLUS("pushf+", 10), TS1_MINUS("ts1-", 11), TS2_PLUS("ts2+", 12), EXWS("exws", 14), BAD("bad", 15);

        private final String text;
        private final int bit;

        Quirk(final String text, final int bit) {
            this.text = text;
            this.bit = bit;
        }

        public int mask() {
            return 1 << bit;
        }

        public String text() {
            return text;
        }

        static Quirk of(final String text) {
            for (Quirk q : values()) {
                if (q.text.equals(text)) {
                    return q;
                }
            }
            throw new IllegalArgumentException("quirk '" + text + "' is not computed by the filter");
        }
    }

    public P0fSignature {
        requireNonNull(windowKind);
        options = List.copyOf(options);
        check(version == 4 || version == 6 || version == VERSION_ANY, "version " + version + ": 4, 6 or *");
        check(ittl >= 0 && ittl <= 255, "ittl " + ittl);
        check(olen >= 0 && olen <= 40, "olen " + olen);
        check(mss >= 0 && mss <= 0xffff, "mss " + mss);
        check(window >= 0 && window <= 0xffff, "window " + window);
        check(wscale >= 0 && wscale <= 255, "wscale " + wscale);
        check(options.size() <= MAX_OPTIONS,
            options.size() + " options; the filter compares at most " + MAX_OPTIONS);
        for (int kind : options) {
            check(kind >= 0 && kind <= 255, "option kind " + kind);
        }
        int known = 0;
        for (Quirk q : Quirk.values()) {
            known |= q.mask();
        }
        check((quirks & ~known) == 0, "quirks 0x" + Integer.toHexString(quirks));
    }

    private static void check(final boolean ok, final String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * Parses the text form, as {@code p0f-signature} does.
     *
     * @throws IllegalArgumentException with the reason, for a signature the filter cannot express
     */
    public static P0fSignature parse(final String text) {
        String[] parts = text.split(":", -1);
        check(parts.length == 8, "expected ver:ittl:olen:mss:wsize,scale:olayout:quirks:pclass");
        final int version = switch (parts[0]) {
            case "4" -> 4;
            case "6" -> 6;
            case "*" -> VERSION_ANY;
            default -> throw new IllegalArgumentException("version '" + parts[0] + "': 4, 6 or *");
        };
        String ittlText = parts[1];
        int ittl = ittlText.isEmpty() || "*".equals(ittlText) ? 0 : number(stripDashes(ittlText), "ittl");
        check(ittl <= 255, "ittl " + ittlText);
        final int olen = number(parts[2], "olen");
        final int mss = "*".equals(parts[3]) ? 0 : number(parts[3], "mss");
        String windowText = parts[4];
        int comma = windowText.indexOf(',');
        String size = comma < 0 ? windowText : windowText.substring(0, comma);
        String scale = comma < 0 ? "" : windowText.substring(comma + 1);
        final int wscale = scale.isEmpty() || "*".equals(scale) ? WSCALE_ANY : number(scale, "wscale");
        WindowKind kind;
        int window;
        if ("*".equals(size)) {
            kind = WindowKind.ANY;
            window = 0;
        } else if (size.startsWith("mss*")) {
            kind = WindowKind.MSS_MULTIPLE;
            window = number(size.substring(4), "window");
        } else if (size.startsWith("%")) {
            kind = WindowKind.MODULO;
            window = number(size.substring(1), "window");
        } else if (size.startsWith("mtu*")) {
            throw new IllegalArgumentException("mtu*N windows are not supported (use mss*N or an exact window)");
        } else {
            kind = WindowKind.EXACT;
            window = number(size, "window");
        }
        List<Integer> options = new ArrayList<>();
        for (String option : parts[5].split(",")) {
            if (option.isEmpty()) {
                continue;
            }
            String name = option.split("\\+", -1)[0];
            if (name.startsWith("?")) {
                options.add(number(name.substring(1), "option"));
            } else if (OPTION_KINDS.containsKey(name)) {
                options.add(OPTION_KINDS.get(name));
            } else {
                throw new IllegalArgumentException("option '" + option + "'");
            }
            if ("eol".equals(name)) {
                break;                  // the filter ignores what follows an EOL
            }
        }
        int quirks = 0;
        for (String quirk : parts[6].split(",")) {
            if (!quirk.isEmpty()) {
                quirks |= Quirk.of(quirk).mask();
            }
        }
        return new P0fSignature(version, ittl, olen, mss, kind, window, wscale, options, quirks);
    }

    private static String stripDashes(final String text) {
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == '-') {
            end--;
        }
        return text.substring(0, end);
    }

    private static int number(final String text, final String what) {
        if (text.isEmpty() || text.length() > 9 || !text.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException(what + " '" + text + "' is not a number");
        }
        return Integer.parseInt(text);
    }

    /** The text form (pclass 0: a SYN carries no payload); {@link #parse} gives this signature back. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append(version == VERSION_ANY ? "*" : Integer.toString(version)).append(':');
        sb.append(ittl == 0 ? "*" : Integer.toString(ittl)).append(':');
        sb.append(olen).append(':');
        sb.append(mss == 0 ? "*" : Integer.toString(mss)).append(':');
        sb.append(switch (windowKind) {
            case ANY -> "*";
            case EXACT -> Integer.toString(window);
            case MSS_MULTIPLE -> "mss*" + window;
            case MODULO -> "%" + window;
        });
        sb.append(',').append(wscale == WSCALE_ANY ? "*" : Integer.toString(wscale)).append(':');
        List<String> names = new ArrayList<>();
        for (int kind : options) {
            names.add(optionName(kind));
        }
        sb.append(String.join(",", names)).append(':');
        List<String> quirkNames = new ArrayList<>();
        for (Quirk q : Quirk.values()) {
            if ((quirks & q.mask()) != 0) {
                quirkNames.add(q.text());
            }
        }
        return sb.append(String.join(",", quirkNames)).append(":0").toString();
    }

    private static String optionName(final int kind) {
        for (Map.Entry<String, Integer> e : OPTION_KINDS.entrySet()) {
            if (e.getValue() == kind) {
                return e.getKey();
            }
        }
        return "?" + kind;
    }

    /**
     * The filter's parameters for this signature, in {@code p0f-signature}'s order and spelling: the
     * {@code parameter} list of a library program, or a {@code signatures} slot written with UPDATE_MAP.
     */
    public Map<String, String> toParameters() {
        byte[] layout = new byte[MAX_OPTIONS];
        for (int i = 0; i < options.size(); i++) {
            layout[i] = (byte) options.get(i).intValue();
        }
        Map<String, String> out = new LinkedHashMap<>();
        out.put("version", Integer.toString(version));
        out.put("ittl", Integer.toString(ittl));
        out.put("olen", Integer.toString(olen));
        out.put("mss", Integer.toString(mss));
        out.put("wscale", Integer.toString(wscale));
        out.put("window_kind", Integer.toString(windowKind.ordinal()));
        out.put("window", Integer.toString(window));
        out.put("options", HexFormat.of().formatHex(layout));
        out.put("n_options", Integer.toString(options.size()));
        out.put("quirks", Integer.toString(quirks));
        return out;
    }

    /** Whether the filter, holding this signature in a slot, matches a SYN with this fingerprint. */
    public boolean matches(final P0fFingerprint fp) {
        if (version != VERSION_ANY && version != fp.version()) {
            return false;
        }
        if (ittl != 0 && (fp.ttl() > ittl || fp.ttl() + MAX_HOPS <= ittl)) {
            return false;
        }
        if (olen != fp.olen() || quirks != fp.quirks() || !options.equals(fp.options())) {
            return false;
        }
        if (mss != 0 && mss != fp.mss()) {
            return false;
        }
        if (wscale != WSCALE_ANY && (!fp.wscaleSeen() || wscale != fp.wscale())) {
            return false;
        }
        return switch (windowKind) {
            case ANY -> true;
            case EXACT -> fp.window() == window;
            case MSS_MULTIPLE -> fp.window() == (long) fp.mss() * window;
            case MODULO -> window != 0 && fp.window() % window == 0;
        };
    }
}
