/* p0f-syn-flood: matches TCP SYNs whose p0f-style fingerprint equals one of
 * the operator's signatures, so that a rule can drop a SYN flood by the
 * fingerprint of the tool that sends it (Oko paper, section 3).
 *
 * A signature is p0f v3's TCP signature "ver:ittl:olen:mss:wsize,scale:
 * olayout:quirks:pclass" as numbers (docs/filters.md shows the mapping;
 * filter-library/tools/p0f-signature converts the text form):
 *
 *   version      4 or 6; 255 = either; 0 = unused slot
 *   ittl         initial TTL (64, 128, 255...): matches a TTL or hop limit
 *                in (ittl - MAX_HOPS, ittl]; 0 = any
 *   olen         IPv4 options length in bytes (IPv6: 0)
 *   wscale       window scale option value; 255 = any
 *   mss          MSS option value; 0 = any
 *   window       with window_kind: 0 any, 1 exactly 'window',
 *                2 'window' times the MSS ("mss*N"), 3 a multiple of
 *                'window' ("%N")
 *   options      option kinds in order (eol 0, nop 1, mss 2, ws 3, sok 4,
 *                ts 8), 'n_options' of them; an EOL ends the layout
 *   quirks       the set of P0F_QUIRK_* bits below, exactly
 *
 * Maps:
 *   signatures  array[MAX_SIGNATURES] of struct signature; slot 0 is set by
 *               the catalog's parameters, the others with UPDATE_MAP
 *   counters    array[MAX_SIGNATURES + 1] of u64: SYNs matched per slot,
 *               and at SYNS_SEEN every SYN the filter looked at
 * Limits: no IPv6 extension headers (such SYNs never match); at most
 * MAX_OPTIONS options are compared (p0f's "opt+" and "eol+N" quirks are
 * not computed: trailing bytes after an EOL are ignored).  Non-first
 * fragments and non-SYN packets never match. */
#include <oko/net.h>

#define MAX_SIGNATURES 4
#define SYNS_SEEN MAX_SIGNATURES        /* counters index */
#define MAX_OPTIONS 16                  /* layout slots compared (one OPTION() each) */
#define MAX_HOPS 35                     /* p0f's largest accepted distance */
#define MAX_WSCALE 14                   /* RFC 7323 */
#define VERSION_UNUSED 0
#define VERSION_ANY 255
#define WSCALE_ANY 255
#define TCPOPT_MSS_LEN 4
#define TCPOPT_WS_LEN 3
#define TCPOPT_TIMESTAMP_LEN 10

enum window_kind {
    WINDOW_ANY = 0,
    WINDOW_EXACT = 1,
    WINDOW_MSS_MULTIPLE = 2,            /* window == N * mss */
    WINDOW_MODULO = 3,                  /* window % N == 0 */
};

/* p0f v3's quirks, as bits. */
#define P0F_QUIRK_DF        (1u << 0)   /* IPv4 don't fragment */
#define P0F_QUIRK_ID_PLUS   (1u << 1)   /* DF set, IP ID non-zero */
#define P0F_QUIRK_ID_MINUS  (1u << 2)   /* DF clear, IP ID zero */
#define P0F_QUIRK_ECN       (1u << 3)   /* ECN bits in IP or TCP */
#define P0F_QUIRK_ZERO_PLUS (1u << 4)   /* IPv4 reserved flag set */
#define P0F_QUIRK_FLOW      (1u << 5)   /* IPv6 flow label non-zero */
#define P0F_QUIRK_SEQ_MINUS (1u << 6)   /* sequence number zero */
#define P0F_QUIRK_ACK_PLUS  (1u << 7)   /* ACK number non-zero, ACK flag clear */
#define P0F_QUIRK_UPTR_PLUS (1u << 8)   /* urgent pointer non-zero, URG clear */
#define P0F_QUIRK_URGF_PLUS (1u << 9)   /* URG flag set */
#define P0F_QUIRK_PUSHF_PLUS (1u << 10) /* PSH flag set */
#define P0F_QUIRK_TS1_MINUS (1u << 11)  /* own timestamp zero */
#define P0F_QUIRK_TS2_PLUS  (1u << 12)  /* peer timestamp non-zero on a SYN */
#define P0F_QUIRK_EXWS      (1u << 14)  /* window scale above 14 */
#define P0F_QUIRK_BAD       (1u << 15)  /* options cut short or malformed */

/* One signature, and the fingerprint of a packet in the same shape. */
struct signature {
    uint8_t version;
    uint8_t ittl;
    uint8_t olen;
    uint8_t wscale;
    uint16_t mss;
    uint16_t window;
    uint8_t options[MAX_OPTIONS];
    uint8_t window_kind;
    uint8_t n_options;
    uint16_t reserved;
    uint32_t quirks;
};

OKO_MAP(signatures, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct signature), MAX_SIGNATURES);
OKO_MAP(counters, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(uint64_t), MAX_SIGNATURES + 1);

OKO_INLINE void
count(uint32_t index)
{
    uint64_t *counter = oko_map_lookup(&counters, &index);
    if (counter) {
        __sync_fetch_and_add(counter, 1);
    }
}

/* Reads the TCP option at 'options' + '*offp' into layout slot 'i' of
 * 'fp' (with MSS, window scale and timestamp quirks) and advances '*offp'.
 * Returns 0 when the layout ends there (the end of the options, an EOL, or
 * a malformed option).
 *
 * The offset lives in memory (volatile) and is compared again each time:
 * then every path reaches the next option with the same abstract state
 * ("an offset below options_len"), and the verifier's work grows with the
 * number of options, not with the number of their combinations. */
OKO_INLINE int
read_option(int i, const uint8_t *options, uint32_t options_len, volatile uint32_t *offp,
            const uint8_t *end, volatile struct signature *fp, volatile uint32_t *wscale_seen)
{
    uint32_t off = *offp;
    if (off >= TCP_MAX_OPTIONS_LEN || off >= options_len) {
        return 0;
    }
    const uint8_t *opt = options + off;
    const uint8_t *opt_end = options + options_len;
    if (opt + 1 > end) {
        fp->quirks |= P0F_QUIRK_BAD;
        return 0;
    }
    uint8_t kind = opt[0];
    fp->options[i] = kind;
    fp->n_options = i + 1;
    if (kind == TCPOPT_EOL) {
        return 0;
    }
    if (kind == TCPOPT_NOP) {
        *offp = off + 1;
        return 1;
    }
    if (opt + 2 > end || opt[1] < 2 || opt + opt[1] > opt_end || opt + opt[1] > end) {
        fp->quirks |= P0F_QUIRK_BAD;
        return 0;
    }
    uint8_t len = opt[1];
    if (kind == TCPOPT_MSS) {
        if (len != TCPOPT_MSS_LEN) {
            fp->quirks |= P0F_QUIRK_BAD;
        } else if (opt + TCPOPT_MSS_LEN <= end) {
            fp->mss = read_be16(opt + 2);
        }
    } else if (kind == TCPOPT_WS) {
        if (len != TCPOPT_WS_LEN) {
            fp->quirks |= P0F_QUIRK_BAD;
        } else if (opt + TCPOPT_WS_LEN <= end) {
            fp->wscale = opt[2];
            *wscale_seen = 1;
            if (opt[2] > MAX_WSCALE) {
                fp->quirks |= P0F_QUIRK_EXWS;
            }
        }
    } else if (kind == TCPOPT_TIMESTAMP) {
        if (len != TCPOPT_TIMESTAMP_LEN) {
            fp->quirks |= P0F_QUIRK_BAD;
        } else if (opt + TCPOPT_TIMESTAMP_LEN <= end) {
            if (!read_be32(opt + 2)) {
                fp->quirks |= P0F_QUIRK_TS1_MINUS;
            }
            if (read_be32(opt + 6)) {
                fp->quirks |= P0F_QUIRK_TS2_PLUS;
            }
        }
    }
    *offp = off + len;
    return 1;
}

OKO_INLINE int
matches(const struct signature *sig, const volatile struct signature *fp, uint8_t ttl,
        uint32_t wscale_seen)
{
    if (sig->version == VERSION_UNUSED
        || (sig->version != VERSION_ANY && sig->version != fp->version)) {
        return 0;
    }
    if (sig->ittl && (ttl > sig->ittl || ttl + MAX_HOPS <= sig->ittl)) {
        return 0;
    }
    if (sig->olen != fp->olen || sig->quirks != fp->quirks || sig->n_options != fp->n_options) {
        return 0;
    }
    if (sig->mss && sig->mss != fp->mss) {
        return 0;
    }
    if (sig->wscale != WSCALE_ANY && (!wscale_seen || sig->wscale != fp->wscale)) {
        return 0;
    }
    switch (sig->window_kind) {
    case WINDOW_ANY:
        break;
    case WINDOW_EXACT:
        if (fp->window != sig->window) {
            return 0;
        }
        break;
    case WINDOW_MSS_MULTIPLE:
        if ((uint32_t) fp->window != (uint32_t) fp->mss * sig->window) {
            return 0;
        }
        break;
    case WINDOW_MODULO:
        if (!sig->window || fp->window % sig->window) {
            return 0;
        }
        break;
    default:
        return 0;
    }
    /* Unused layout slots are zero in both. */
    const uint64_t *a = (const uint64_t *) sig->options;
    const volatile uint64_t *b = (const volatile uint64_t *) fp->options;
    return a[0] == b[0] && a[1] == b[1];
}

OKO_FILTER uint64_t
p0f_syn_flood(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    const uint8_t *end = cur.end;
    /* The fingerprint stays in memory (volatile): in registers, every
     * combination of options would be a state of its own to the verifier. */
    volatile struct signature fp = { 0 };
    const uint8_t *ip;
    uint16_t type;
    uint8_t ttl;

    const uint8_t *tcp = parse_to_transport(&cur, IPPROTO_TCP, &type, &ip);
    if (!tcp) {
        return OKO_NO_MATCH;
    }
    if (type == ETH_P_IPV4) {
        uint16_t frag = read_be16(ip + IPV4_FRAG);
        fp.version = 4;
        fp.olen = ipv4_hlen(ip) - IPV4_MIN_HLEN;
        ttl = ip[IPV4_TTL];
        uint16_t id = read_be16(ip + IPV4_ID);
        if (frag & IPV4_FLAG_DF) {
            fp.quirks |= P0F_QUIRK_DF | (id ? P0F_QUIRK_ID_PLUS : 0);
        } else if (!id) {
            fp.quirks |= P0F_QUIRK_ID_MINUS;
        }
        if (frag & IPV4_FLAG_RESERVED) {
            fp.quirks |= P0F_QUIRK_ZERO_PLUS;
        }
        if (ip[IPV4_TOS] & IP_ECN_MASK) {
            fp.quirks |= P0F_QUIRK_ECN;
        }
    } else {
        fp.version = 6;
        ttl = ip[IPV6_HOP_LIMIT];
        /* Version (4 bits), traffic class (8), flow label (20). */
        if ((ip[1] >> 4) & IP_ECN_MASK) {
            fp.quirks |= P0F_QUIRK_ECN;
        }
        if ((ip[1] & 0x0f) || ip[2] || ip[3]) {
            fp.quirks |= P0F_QUIRK_FLOW;
        }
    }
    uint8_t flags = tcp[TCP_FLAGS];
    if ((flags & (TCP_SYN | TCP_ACK)) != TCP_SYN) {
        return OKO_NO_MATCH;
    }
    count(SYNS_SEEN);

    if (flags & (TCP_ECE | TCP_CWR)) {
        fp.quirks |= P0F_QUIRK_ECN;
    }
    if (!read_be32(tcp + TCP_SEQ)) {
        fp.quirks |= P0F_QUIRK_SEQ_MINUS;
    }
    if (read_be32(tcp + TCP_ACK_SEQ)) {
        fp.quirks |= P0F_QUIRK_ACK_PLUS;            /* ACK is clear on a SYN */
    }
    if (flags & TCP_URG) {
        fp.quirks |= P0F_QUIRK_URGF_PLUS;
    } else if (read_be16(tcp + TCP_URGENT_PTR)) {
        fp.quirks |= P0F_QUIRK_UPTR_PLUS;
    }
    if (flags & TCP_PSH) {
        fp.quirks |= P0F_QUIRK_PUSHF_PLUS;
    }
    fp.window = read_be16(tcp + TCP_WINDOW);

    uint32_t tcp_len = tcp_hlen(tcp);
    volatile uint32_t wscale_seen = 0;
    if (tcp_len < TCP_MIN_HLEN) {
        fp.quirks |= P0F_QUIRK_BAD;
    } else {
        /* The verifier takes no loops: one step per layout slot. */
        volatile uint32_t off = 0;
        int more = 1;
#define OPTION(I) more = more && read_option(I, cur.pos, tcp_len - TCP_MIN_HLEN, \
                                             &off, end, &fp, &wscale_seen)
        OPTION(0); OPTION(1); OPTION(2); OPTION(3); OPTION(4); OPTION(5); OPTION(6); OPTION(7);
        OPTION(8); OPTION(9); OPTION(10); OPTION(11); OPTION(12); OPTION(13); OPTION(14);
        OPTION(15);
#undef OPTION
    }

    uint32_t slot = 0;
    const struct signature *sig;
#define SIGNATURE(I) slot = I; sig = oko_map_lookup(&signatures, &slot);  \
    if (sig && matches(sig, &fp, ttl, wscale_seen)) {                     \
        count(slot);                                                      \
        return OKO_MATCH;                                                 \
    }
    SIGNATURE(0) SIGNATURE(1) SIGNATURE(2) SIGNATURE(3)
#undef SIGNATURE
    _Static_assert(MAX_SIGNATURES == 4, "one SIGNATURE() per slot");
    return OKO_NO_MATCH;
}
