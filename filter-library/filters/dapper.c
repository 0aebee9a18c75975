/* dapper: TCP performance diagnosis per connection, in the switch (Oko
 * paper, Table 4b, after Dapper, SOSR'17).  Watches both directions of each
 * connection and keeps, per direction: bytes in flight, the MSS, the peer's
 * receive window, retransmissions and RTT samples.  Never drops anything by
 * itself: it matches (so that a rule's SEND_MAPS action reports the table
 * to the controller) when
 *   - a connection becomes troubled, once per connection: a direction
 *     reached 'retransmit_threshold' retransmissions, or its bytes in
 *     flight reached the peer's receive window (receiver-limited);
 *   - or the filter has seen 'report_every' more new connections.
 *
 * Maps:
 *   params       array[1] of struct params (catalog parameters)
 *   connections  hash: struct oko_conn_key (oko/conn.h) -> struct conn;
 *                dir[0] is the direction sent by the lower address/port
 *   stats        array[1] of struct stats
 * Parameters: retransmit_threshold (default 3), report_every (new
 * connections between reports; 0 = only troubled connections).
 * Limits: IPv4 only, one VLAN tag; connections are never removed by the
 * filter (the controller clears the table with DELETE_MAP_ENTRIES); when
 * the table is full new connections are not tracked (counted in
 * stats.untracked); the MSS and window scale are read from the first
 * OPTIONS_READ options of a SYN; RTT samples follow Karn's rule (none
 * across a retransmission); updates take no lock (two threads on one
 * connection at the same instant may lose a sample).
 *
 * Built with -DDAPPER_ARRAY_TABLE (make variants: build/variants/
 * dapper-array.o) the connection table is an array indexed by a hash of
 * the connection instead, the paper's other Dapper: no insertion, but a
 * connection whose slot is taken replaces the one there (bench/library.py
 * compares the two). */
#include <oko/conn.h>

#define MAX_CONNECTIONS 16384
#define DEFAULT_RETRANSMIT_THRESHOLD 3
#define OPTIONS_READ 6
#define NS_PER_US 1000

#define DIR_SEQ_KNOWN 0x01
#define DIR_SAMPLING 0x02       /* an RTT sample is in progress */
#define TROUBLE_RETRANSMITS 0x01
#define TROUBLE_RECEIVE_WINDOW 0x02

struct params {
    uint32_t retransmit_threshold;
    uint32_t report_every;
};

struct dir {
    uint32_t next_seq;          /* highest sequence number sent + 1 */
    uint32_t acked;             /* highest ACK from the peer */
    uint32_t peer_window;       /* the peer's receive window, bytes */
    uint32_t flight;            /* next_seq - acked, at the last packet */
    uint32_t retransmits;
    uint32_t rtt_us;            /* last sample */
    uint32_t rtt_min_us;
    uint16_t mss;               /* from this direction's SYN (0: not seen) */
    uint8_t wscale;             /* this side's window scale */
    uint8_t flags;              /* DIR_* */
    uint32_t sample_seq;        /* an ACK at or past it ends the sample */
    uint32_t reserved;
    uint64_t sample_ns;
};

struct conn {
    struct dir dir[2];
    uint64_t first_ns;
    uint64_t last_ns;
    uint32_t packets;
    uint32_t trouble;           /* TROUBLE_* seen so far */
};

struct stats {
    uint64_t connections;       /* tracked since the filter was loaded */
    uint64_t troubled;
    uint64_t untracked;         /* not tracked: the table was full */
};

OKO_MAP(params, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct params), 1);
#ifdef DAPPER_ARRAY_TABLE
struct slot {
    struct oko_conn_key owner;  /* the connection in the slot */
    struct conn conn;
};
_Static_assert((MAX_CONNECTIONS & (MAX_CONNECTIONS - 1)) == 0, "a power of two: index by mask");
OKO_MAP(connections, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct slot), MAX_CONNECTIONS);
#else
OKO_MAP(connections, OKO_MAP_HASH, sizeof(struct oko_conn_key), sizeof(struct conn), MAX_CONNECTIONS);
#endif
OKO_MAP(stats, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct stats), 1);

/* Sequence-number comparison modulo 2^32 (RFC 793). */
OKO_INLINE int
seq_before(uint32_t a, uint32_t b)
{
    return (int32_t) (a - b) < 0;
}

/* Reads the MSS and window scale options of a SYN into 'd'; the offset
 * stays in memory so the verifier's work grows with OPTIONS_READ, not with
 * the combinations of options (see p0f-syn-flood.c). */
struct syn_options {
    uint16_t mss;
    uint8_t wscale;
    uint8_t reserved;
};

OKO_INLINE int
read_option(const uint8_t *options, uint32_t options_len, volatile uint32_t *offp,
            const uint8_t *end, volatile struct syn_options *d)
{
    uint32_t off = *offp;
    if (off >= TCP_MAX_OPTIONS_LEN || off >= options_len) {
        return 0;
    }
    const uint8_t *opt = options + off;
    if (opt + 2 > end || opt[0] == TCPOPT_EOL) {
        return 0;
    }
    if (opt[0] == TCPOPT_NOP) {
        *offp = off + 1;
        return 1;
    }
    uint8_t len = opt[1];
    if (len < 2) {
        return 0;
    }
    if (opt[0] == TCPOPT_MSS && len == TCPOLEN_MSS
        && opt + TCPOLEN_MSS <= end) {
        d->mss = read_be16(opt + 2);
    } else if (opt[0] == TCPOPT_WS && len == TCPOLEN_WS
               && opt + TCPOLEN_WS <= end) {
        d->wscale = opt[2] > 14 ? 14 : opt[2];
    }
    *offp = off + len;
    return 1;
}

OKO_FILTER uint64_t
dapper(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    const uint8_t *end = cur.end;
    const uint8_t *ip;

    const uint8_t *tcp = parse_ipv4_to_transport(&cur, IPPROTO_TCP, &ip);
    if (!tcp) {
        return OKO_NO_MATCH;
    }
    uint32_t ihl = ipv4_hlen(ip);
    uint32_t tcp_len = tcp_hlen(tcp);
    uint32_t ip_len = read_be16(ip + IPV4_TOTAL_LEN);
    if (tcp_len < TCP_MIN_HLEN || ip_len < ihl + tcp_len) {
        return OKO_NO_MATCH;
    }
    uint32_t payload = ip_len - ihl - tcp_len;

    /* A SYN's options first, while little else is in registers. */
    volatile struct syn_options syn = { 0 };
    if (tcp[TCP_FLAGS] & TCP_SYN) {
        volatile uint32_t off = 0;
        int more = 1;
#define OPTION() more = more && read_option(tcp + TCP_MIN_HLEN, tcp_len - TCP_MIN_HLEN, \
                                            &off, end, &syn)
        OPTION(); OPTION(); OPTION(); OPTION(); OPTION(); OPTION();
#undef OPTION
        _Static_assert(OPTIONS_READ == 6, "one OPTION() per option read");
    }

    /* oko_conn_key_ipv4() written out (oko/conn.h's key, the same bytes):
     * with the call, clang keeps the addresses in spilled stack slots
     * across the option walk, and as the verifier compares every spilled
     * slot where paths join, dead or not, they stop pruning and the
     * program runs over the verifier's budget. */
    uint32_t src = read_be32(ip + IPV4_SRC), dst = read_be32(ip + IPV4_DST);
    uint16_t sport = read_be16(tcp + TCP_SRC_PORT), dport = read_be16(tcp + TCP_DST_PORT);
    uint32_t side = !(src < dst || (src == dst && sport <= dport));
    const uint8_t *lo_addr = side ? ip + IPV4_DST : ip + IPV4_SRC;
    const uint8_t *hi_addr = side ? ip + IPV4_SRC : ip + IPV4_DST;
    const uint8_t *lo_port = side ? tcp + TCP_DST_PORT : tcp + TCP_SRC_PORT;
    const uint8_t *hi_port = side ? tcp + TCP_SRC_PORT : tcp + TCP_DST_PORT;
    struct oko_conn_key key = {
        { lo_addr[0], lo_addr[1], lo_addr[2], lo_addr[3] },
        { hi_addr[0], hi_addr[1], hi_addr[2], hi_addr[3] },
        { lo_port[0], lo_port[1] },
        { hi_port[0], hi_port[1] },
        IPPROTO_TCP, { 0, 0, 0 },
    };

    uint32_t zero = 0;
    const struct params *p = oko_map_lookup(&params, &zero);
    struct stats *st = oko_map_lookup(&stats, &zero);
    if (!p || !st) {
        return OKO_NO_MATCH;            /* never: index 0 of a 1-entry array */
    }
    uint64_t now = oko_time_ns();
    uint64_t verdict = OKO_NO_MATCH;

#ifdef DAPPER_ARRAY_TABLE
    uint32_t index = oko_hash(&key, sizeof key, 0) & (MAX_CONNECTIONS - 1);
    struct slot *slot = oko_map_lookup(&connections, &index);
    if (!slot) {
        return OKO_NO_MATCH;            /* never: the index is masked */
    }
    struct conn *c = &slot->conn;
    const uint8_t *owner = (const uint8_t *) &slot->owner, *mine = (const uint8_t *) &key;
    uint8_t differs = 0;
#pragma unroll
    for (int i = 0; i < (int) sizeof key; i++) {
        differs |= owner[i] ^ mine[i];
    }
    if (differs) {
        __builtin_memset(c, 0, sizeof *c);
        c->first_ns = now;
        slot->owner = key;
        uint64_t n = __sync_fetch_and_add(&st->connections, 1) + 1;
        if (p->report_every && n % p->report_every == 0) {
            verdict = OKO_MATCH;
        }
    }
#else
    struct conn *c = oko_map_lookup(&connections, &key);
    if (!c) {
        struct conn fresh = { 0 };
        fresh.first_ns = now;
        if (oko_map_update(&connections, &key, &fresh, OKO_UPDATE_NOEXIST)) {
            __sync_fetch_and_add(&st->untracked, 1);
            return OKO_NO_MATCH;
        }
        c = oko_map_lookup(&connections, &key);
        if (!c) {
            return OKO_NO_MATCH;
        }
        uint64_t n = __sync_fetch_and_add(&st->connections, 1) + 1;
        if (p->report_every && n % p->report_every == 0) {
            verdict = OKO_MATCH;
        }
    }
#endif
    struct dir *d = side ? &c->dir[1] : &c->dir[0];
    struct dir *peer = side ? &c->dir[0] : &c->dir[1];
    uint8_t flags = tcp[TCP_FLAGS];
    uint32_t seq = read_be32(tcp + TCP_SEQ);
    c->last_ns = now;
    c->packets++;

    if (flags & TCP_SYN) {
        d->mss = syn.mss;
        d->wscale = syn.wscale;
    }

    /* Data sent by this side: new, or a retransmission. */
    uint32_t seq_end = seq + payload + ((flags & (TCP_SYN | TCP_FIN)) ? 1 : 0);
    if (seq_end != seq) {
        if ((d->flags & DIR_SEQ_KNOWN) && seq_before(seq, d->next_seq)) {
            d->retransmits++;
            d->flags &= ~DIR_SAMPLING;          /* Karn: no sample across it */
        } else {
            d->next_seq = seq_end;
            if (!(d->flags & DIR_SAMPLING)) {
                d->sample_seq = seq_end;
                d->sample_ns = now;
                d->flags |= DIR_SAMPLING;
            }
        }
        if (!(d->flags & DIR_SEQ_KNOWN)) {
            d->next_seq = seq_end;
            d->acked = seq;
            d->flags |= DIR_SEQ_KNOWN;
        }
    }

    /* What this packet says about the peer's data: ACK and window. */
    if (flags & TCP_ACK) {
        uint32_t ack = read_be32(tcp + TCP_ACK_SEQ);
        if (seq_before(peer->acked, ack) || !(peer->flags & DIR_SEQ_KNOWN)) {
            peer->acked = ack;
        }
        if ((peer->flags & DIR_SAMPLING) && !seq_before(ack, peer->sample_seq)) {
            uint32_t rtt = (now - peer->sample_ns) / NS_PER_US;
            peer->rtt_us = rtt;
            if (!peer->rtt_min_us || rtt < peer->rtt_min_us) {
                peer->rtt_min_us = rtt;
            }
            peer->flags &= ~DIR_SAMPLING;
        }
        peer->flight = peer->next_seq - peer->acked;
    }
    uint32_t window = read_be16(tcp + TCP_WINDOW);
    peer->peer_window = (flags & TCP_SYN) ? window : window << (d->wscale & 15);
    if (d->flags & DIR_SEQ_KNOWN) {
        d->flight = d->next_seq - d->acked;
    }

    uint32_t threshold = p->retransmit_threshold ? p->retransmit_threshold
                                                  : DEFAULT_RETRANSMIT_THRESHOLD;
    uint32_t trouble = 0;
    if (d->retransmits >= threshold) {
        trouble |= TROUBLE_RETRANSMITS;
    }
    if (d->peer_window && d->flight >= d->peer_window) {
        trouble |= TROUBLE_RECEIVE_WINDOW;
    }
    if (trouble && !c->trouble) {
        __sync_fetch_and_add(&st->troubled, 1);
        verdict = OKO_MATCH;
    }
    c->trouble |= trouble;
    return verdict;
}
