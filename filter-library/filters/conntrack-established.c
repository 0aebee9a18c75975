/* conntrack-established: matches TCP packets of connections whose opening
 * SYN this filter saw, in either direction; a stateful firewall rule
 * "allow established" in one filter.
 *
 *   - a SYN (without ACK) records the connection and does not match (let a
 *     lower-priority rule decide whether to allow new connections);
 *   - any other packet matches if its connection is recorded, and refreshes
 *     the entry's last-seen time;
 *   - a FIN or RST matches and forgets the connection.
 *
 * Connections live in an LRU table, keyed by oko/conn.h's connection key
 * (both directions one key): when it is full, the least recently active
 * connection is forgotten first.
 * Limits: IPv4 only, one VLAN tag skipped; later fragments never match. */
#include <oko/conn.h>
#include <oko/net.h>

#define MAX_CONNECTIONS 65536

struct conn_state {
    uint64_t opened_ns;
    uint64_t last_seen_ns;
    uint64_t packets;
};

OKO_MAP(connections, OKO_MAP_LRU_HASH, sizeof(struct oko_conn_key), sizeof(struct conn_state),
        MAX_CONNECTIONS);

OKO_FILTER uint64_t
conntrack_established(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    const uint8_t *ip;

    const uint8_t *tcp = parse_ipv4_to_transport(&cur, IPPROTO_TCP, &ip);
    if (!tcp) {
        return OKO_NO_MATCH;
    }
    struct oko_conn_key key;
    oko_conn_key_ipv4(ip, tcp, IPPROTO_TCP, &key);

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
