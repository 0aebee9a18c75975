/* p0f-linux-syn: matches TCP SYNs whose fingerprint looks like a Linux
 * (3.x and later) client, in the style of p0f's signatures:
 *
 *     ttl <= 64, no IP options, window a multiple of the MSS (Linux uses
 *     10 * MSS), options exactly mss, sok, ts, nop, ws
 *
 * Every SYN it looks at is counted in 'syn_seen' (index 0: all SYNs,
 * 1: Linux-like), so an operator can read the ratio with DUMP_MAPS. */
#include <oko/net.h>

#define LINUX_MAX_TTL 64
#define IPV4_NO_OPTIONS 0x45            /* version 4, header length 5 words */
#define N_OPTIONS 5
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
    const uint8_t *end = cur.end;
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

    /* Walk the options: at most N_OPTIONS, each bounds-checked against the
     * packet end. */
    static const uint8_t expected[N_OPTIONS] = {
        TCPOPT_MSS, TCPOPT_SACK_OK, TCPOPT_TIMESTAMP, TCPOPT_NOP, TCPOPT_WS,
    };
    uint32_t options_len = tcp_hlen(tcp) - TCP_MIN_HLEN;
    if (options_len > TCP_MAX_OPTIONS_LEN) {
        return OKO_NO_MATCH;
    }
    const uint8_t *opt = cur.pos;
    const uint8_t *opt_end = opt + options_len;
    uint32_t mss = 0;
#pragma clang loop unroll(full)
    for (int i = 0; i < N_OPTIONS; i++) {
        if (opt + 1 > end || opt >= opt_end || opt[0] != expected[i]) {
            return OKO_NO_MATCH;
        }
        if (opt[0] == TCPOPT_NOP) {
            opt += 1;
            continue;
        }
        if (opt + 2 > end || opt[1] < 2 || opt + opt[1] > end) {
            return OKO_NO_MATCH;                        /* the whole option must be there */
        }
        if (opt[0] == TCPOPT_MSS) {
            if (opt + 4 > end) {
                return OKO_NO_MATCH;
            }
            mss = read_be16(opt + 2);
        }
        opt += opt[1];
    }
    uint32_t window = read_be16(tcp + TCP_WINDOW);
    if (mss == 0 || window % mss != 0) {
        return OKO_NO_MATCH;
    }
    count(COUNT_LINUX_SYNS);
    return OKO_MATCH;
}
