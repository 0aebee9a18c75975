/* conntrack_established: matches TCP packets of connections whose opening
 * SYN this filter saw, in either direction; a stateful firewall rule
 * "allow established" in one filter.
 *
 *   - a SYN (without ACK) records the connection and does not match (let a
 *     lower-priority rule decide whether to allow new connections);
 *   - any other packet matches if its connection is recorded, and refreshes
 *     the entry's last-seen time;
 *   - a FIN or RST matches and forgets the connection.
 *
 * Connections live in an LRU table: when it is full, the least recently
 * active connection is forgotten first. */
#include <oko/net.h>

#define MAX_CONNECTIONS 65536

/* Both directions of a connection map to one key: the (address, port)
 * pair that compares lower comes first. */
struct conn_key {
    uint32_t addr_lo;
    uint32_t addr_hi;
    uint16_t port_lo;
    uint16_t port_hi;
};

struct conn_state {
    uint64_t opened_ns;
    uint64_t last_seen_ns;
    uint64_t packets;
};

OKO_MAP(connections, OKO_MAP_LRU_HASH, sizeof(struct conn_key), sizeof(struct conn_state),
        MAX_CONNECTIONS);

OKO_FILTER uint64_t
conntrack_established(const void *pkt, uint64_t len)
{
    const uint8_t *eth = pkt;
    const uint8_t *end = eth + len;
    const uint8_t *ip = eth + ETH_HLEN;

    if (ip + IPV4_MIN_HLEN > end || read_be16(eth + ETH_TYPE_OFFSET) != ETH_P_IPV4
        || ip[IPV4_PROTOCOL] != IPPROTO_TCP) {
        return OKO_NO_MATCH;
    }
    uint32_t ihl = (ip[0] & 0x0f) * 4;
    if (ihl < IPV4_MIN_HLEN) {
        return OKO_NO_MATCH;
    }
    const uint8_t *tcp = ip + ihl;
    if (tcp + TCP_MIN_HLEN > end) {
        return OKO_NO_MATCH;
    }

    uint32_t src = read_be32(ip + IPV4_SRC), dst = read_be32(ip + IPV4_DST);
    uint16_t sport = read_be16(tcp + TCP_SRC_PORT), dport = read_be16(tcp + TCP_DST_PORT);
    struct conn_key key;
    if (src < dst || (src == dst && sport <= dport)) {
        key = (struct conn_key) { src, dst, sport, dport };
    } else {
        key = (struct conn_key) { dst, src, dport, sport };
    }

    uint8_t flags = tcp[TCP_FLAGS];
    uint64_t now = oko_time_ns();
    if ((flags & (TCP_SYN | TCP_ACK)) == TCP_SYN) {
        struct conn_state state = { now, now, 1 };
        oko_map_update(&connections, &key, &state, OKO_UPDATE_ANY);
        return OKO_NO_MATCH;
    }
    struct conn_state *state = oko_map_lookup(&connections, &key);
    if (!state) {
        return OKO_NO_MATCH;
    }
    state->last_seen_ns = now;
    __sync_fetch_and_add(&state->packets, 1);
    if (flags & (TCP_FIN | TCP_RST)) {
        oko_map_delete(&connections, &key);
    }
    return OKO_MATCH;
}
