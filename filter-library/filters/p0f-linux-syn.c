/* p0f-linux-syn: matches TCP SYNs whose fingerprint looks like a Linux
 * (3.x and later) client, in the style of p0f's signatures:
 *
 *     ttl <= 64, no IP options, window a multiple of the MSS (Linux uses
 *     10 * MSS), options exactly mss, sok, ts, nop, ws (each with its
 *     standard length, as Linux sends them: 20 bytes)
 *
 * Every SYN it looks at is counted in 'syn_seen' (index 0: all SYNs,
 * 1: Linux-like), so an operator can read the ratio with DUMP_MAPS. */
#include <oko/net.h>

#define LINUX_MAX_TTL 64
#define IPV4_NO_OPTIONS 0x45            /* version 4, header length 5 words */

/* Linux's SYN options, at these offsets in the options. */
#define OPT_MSS 0
#define OPT_SACK_OK (OPT_MSS + TCPOLEN_MSS)
#define OPT_TIMESTAMP (OPT_SACK_OK + TCPOLEN_SACK_OK)
#define OPT_NOP (OPT_TIMESTAMP + TCPOLEN_TIMESTAMP)
#define OPT_WS (OPT_NOP + 1)
#define LINUX_OPTIONS_LEN (OPT_WS + TCPOLEN_WS)

#define COUNT_ALL_SYNS 0
#define COUNT_LINUX_SYNS 1

OKO_MAP(syn_seen, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(uint64_t), 2);

static inline void
count(uint32_t index)
{
    uint64_t *counter = oko_map_lookup(&syn_seen, &index);
    if (counter) {
        __sync_fetch_and_add(counter, 1);
    }
}

OKO_FILTER uint64_t
p0f_linux_syn(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    uint8_t protocol;

    /* 'protocol' unused: with no options (IHL 5) the IHL check inside the
     * parse is moot, and reading the field here lets clang drop it. */
    const uint8_t *ip = parse_to_ipv4(&cur, &protocol);
    if (!ip || ip[0] != IPV4_NO_OPTIONS || ip[IPV4_PROTOCOL] != IPPROTO_TCP
        || ipv4_is_later_fragment(ip)) {
        return OKO_NO_MATCH;
    }
    cur.pos = ip + IPV4_MIN_HLEN;       /* no options: the header is 20 bytes */
    const uint8_t *tcp = parse_tcphdr(&cur);
    if (!tcp || (tcp[TCP_FLAGS] & (TCP_SYN | TCP_ACK)) != TCP_SYN) {
        return OKO_NO_MATCH;
    }
    count(COUNT_ALL_SYNS);
    if (ip[IPV4_TTL] > LINUX_MAX_TTL) {
        return OKO_NO_MATCH;
    }

    /* The options, as Linux lays them out in a SYN: each at a fixed place,
     * with its RFC length, in the first LINUX_OPTIONS_LEN bytes. */
    if (tcp_hlen(tcp) < TCP_MIN_HLEN + LINUX_OPTIONS_LEN) {
        return OKO_NO_MATCH;
    }
    const uint8_t *opt = oko_cursor_take(&cur, LINUX_OPTIONS_LEN);
    if (!opt
        || opt[OPT_MSS] != TCPOPT_MSS || opt[OPT_MSS + 1] != TCPOLEN_MSS
        || opt[OPT_SACK_OK] != TCPOPT_SACK_OK
        || opt[OPT_SACK_OK + 1] != TCPOLEN_SACK_OK
        || opt[OPT_TIMESTAMP] != TCPOPT_TIMESTAMP
        || opt[OPT_TIMESTAMP + 1] != TCPOLEN_TIMESTAMP
        || opt[OPT_NOP] != TCPOPT_NOP
        || opt[OPT_WS] != TCPOPT_WS || opt[OPT_WS + 1] != TCPOLEN_WS) {
        return OKO_NO_MATCH;
    }
    uint32_t mss = read_be16(opt + OPT_MSS + 2);
    uint32_t window = read_be16(tcp + TCP_WINDOW);
    if (mss == 0 || window % mss != 0) {
        return OKO_NO_MATCH;
    }
    count(COUNT_LINUX_SYNS);
    return OKO_MATCH;
}
