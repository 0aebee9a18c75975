/* stateful-firewall: tracks TCP connections and matches the packets of the
 * connections it saw open (Oko paper, Table 4a).  Typical rules: from the
 * outside port, "filter matches -> forward" above "drop"; from the inside,
 * forward everything (the filter runs there too, to see the SYNs).
 *
 * Per connection (both directions share one entry, keyed by the normalized
 * 5-tuple: the lower address/port pair first) a state machine:
 *
 *   (none) --SYN from an inside address--> SYN_SENT          no match
 *   SYN_SENT --SYN-ACK from the responder--> SYN_RECEIVED    match
 *   SYN_RECEIVED --ACK from the opener--> ESTABLISHED        match
 *   ESTABLISHED --FIN from either side--> CLOSING            match
 *   ESTABLISHED, CLOSING: any packet but a SYN               match
 *   any state --RST--> (entry removed)                       match
 *
 * Anything else (an unsolicited SYN-ACK, data before the handshake ends, a
 * SYN from outside the inside prefix) does not match and changes nothing.
 * An entry idle longer than its state's timeout is removed when its next
 * packet arrives (or evicted: the table is an LRU hash, so when it is full
 * the least recently active connection goes first).
 *
 * Maps:
 *   params       array[1] of struct params (catalog parameters)
 *   connections  lru_hash: struct oko_conn_key (oko/conn.h) -> struct conn
 * Parameters: inside, inside_prefix_len (who may open connections; the
 * default 0.0.0.0/0 lets either side open), syn_timeout (s, default 30),
 * established_timeout (s, default 3600), closing_timeout (s, default 30).
 * Limits: IPv4 TCP only (IPv6, other protocols and non-first fragments never
 * match); one VLAN tag is skipped; sequence numbers are not checked; two
 * threads updating one connection at the same instant may lose one
 * packet count or state change (no lock: the next packet repairs it). */
#include <oko/conn.h>

#define MAX_CONNECTIONS 65536
#define NS_PER_SEC 1000000000ULL
#define DEFAULT_SYN_TIMEOUT 30
#define DEFAULT_ESTABLISHED_TIMEOUT 3600
#define DEFAULT_CLOSING_TIMEOUT 30

enum conn_state {
    SYN_SENT = 1,
    SYN_RECEIVED = 2,
    ESTABLISHED = 3,
    CLOSING = 4,
};

struct params {
    uint8_t inside[4];              /* network order */
    uint32_t inside_prefix_len;     /* 0: any source may open */
    uint32_t syn_timeout;           /* seconds; 0 = default */
    uint32_t established_timeout;
    uint32_t closing_timeout;
    uint32_t reserved;
};

struct conn {
    uint8_t state;                  /* enum conn_state */
    uint8_t opener;                 /* 0: the lo side sent the SYN, 1: the hi side */
    uint8_t fins;                   /* bit 0: lo sent FIN, bit 1: hi sent FIN */
    uint8_t reserved[5];
    uint64_t opened_ns;
    uint64_t last_seen_ns;
    uint64_t packets;               /* matched packets */
};

OKO_MAP(params, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct params), 1);
OKO_MAP(connections, OKO_MAP_LRU_HASH, sizeof(struct oko_conn_key), sizeof(struct conn),
        MAX_CONNECTIONS);

OKO_INLINE uint64_t
seconds_or(uint32_t seconds, uint32_t fallback)
{
    return (uint64_t) (seconds ? seconds : fallback) * NS_PER_SEC;
}

OKO_INLINE int
inside(const struct params *p, uint32_t addr)
{
    if (!p || !p->inside_prefix_len) {
        return 1;
    }
    if (p->inside_prefix_len >= 32) {
        return addr == read_be32(p->inside);
    }
    uint32_t mask = ~(0xffffffffu >> p->inside_prefix_len);
    return (addr & mask) == (read_be32(p->inside) & mask);
}

OKO_FILTER uint64_t
stateful_firewall(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    const uint8_t *ip;

    const uint8_t *tcp = parse_ipv4_to_transport(&cur, IPPROTO_TCP, &ip);
    if (!tcp) {
        return OKO_NO_MATCH;
    }

    struct oko_conn_key key;
    uint8_t side = oko_conn_key_ipv4(ip, tcp, IPPROTO_TCP, &key);   /* 0: the sender is lo */

    const struct params *p = oko_map_first(&params);
    uint8_t flags = tcp[TCP_FLAGS];
    uint64_t now = oko_time_ns();
    struct conn *c = oko_map_lookup(&connections, &key);
    if (c) {
        uint64_t timeout = c->state == ESTABLISHED
            ? seconds_or(p ? p->established_timeout : 0, DEFAULT_ESTABLISHED_TIMEOUT)
            : c->state == CLOSING ? seconds_or(p ? p->closing_timeout : 0, DEFAULT_CLOSING_TIMEOUT)
            : seconds_or(p ? p->syn_timeout : 0, DEFAULT_SYN_TIMEOUT);
        if (now - c->last_seen_ns > timeout) {
            oko_map_delete(&connections, &key);
            c = 0;
        }
    }

    uint8_t handshake = flags & (TCP_SYN | TCP_ACK | TCP_RST | TCP_FIN);
    if (!c) {
        if (handshake == TCP_SYN && inside(p, read_be32(ip + IPV4_SRC))) {
            struct conn fresh = { SYN_SENT, side, 0, { 0 }, now, now, 0 };
            oko_map_update(&connections, &key, &fresh, OKO_UPDATE_ANY);
        }
        return OKO_NO_MATCH;
    }

    int from_opener = side == c->opener;
    if (flags & TCP_RST) {
        oko_map_delete(&connections, &key);
        return OKO_MATCH;
    }
    switch (c->state) {
    case SYN_SENT:
        if (from_opener && handshake == TCP_SYN) {
            c->last_seen_ns = now;              /* a retransmitted SYN: still new */
            return OKO_NO_MATCH;
        }
        if (from_opener || handshake != (TCP_SYN | TCP_ACK)) {
            return OKO_NO_MATCH;
        }
        c->state = SYN_RECEIVED;
        break;
    case SYN_RECEIVED:
        if (!from_opener && handshake == (TCP_SYN | TCP_ACK)) {
            break;                              /* a retransmitted SYN-ACK */
        }
        if (!from_opener || (flags & (TCP_SYN | TCP_ACK)) != TCP_ACK) {
            return OKO_NO_MATCH;
        }
        c->state = (flags & TCP_FIN) ? CLOSING : ESTABLISHED;
        c->fins |= (flags & TCP_FIN) ? 1 << side : 0;
        break;
    case ESTABLISHED:
    case CLOSING:
        if (flags & TCP_SYN) {
            return OKO_NO_MATCH;
        }
        if (flags & TCP_FIN) {
            c->state = CLOSING;
            c->fins |= 1 << side;
        }
        break;
    default:
        return OKO_NO_MATCH;
    }
    c->last_seen_ns = now;
    c->packets++;
    return OKO_MATCH;
}
