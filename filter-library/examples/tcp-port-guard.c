/* tcp-port-guard: matches TCP SYNs (IPv4, at most one VLAN tag) to a
 * destination port listed in 'guarded', and counts them per port.  The
 * example of docs/writing-filters.md: the controller lists ports with
 * UPDATE_MAP (or the program's initial-map), a rule drops the matches.
 *
 * Maps:
 *   guarded  hash: destination port (network order, 2 bytes) -> u64 SYNs
 * Limits: IPv4 only; SYNs to ports not listed never match. */
#include <oko/net.h>

#define MAX_PORTS 1024

OKO_MAP(guarded, OKO_MAP_HASH, sizeof(uint16_t), sizeof(uint64_t), MAX_PORTS);

OKO_FILTER uint64_t
tcp_port_guard(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    const uint8_t *ip;

    /* Ethernet (one VLAN tag), IPv4 and TCP, each checked whole. */
    const uint8_t *tcp = parse_ipv4_to_transport(&cur, IPPROTO_TCP, &ip);
    if (!tcp || (tcp[TCP_FLAGS] & (TCP_SYN | TCP_ACK)) != TCP_SYN) {
        return OKO_NO_MATCH;
    }
    /* The key is the port as it is on the wire: two bytes, network order. */
    uint8_t port[2] = { tcp[TCP_DST_PORT], tcp[TCP_DST_PORT + 1] };
    uint64_t *syns = oko_map_lookup(&guarded, port);
    if (!syns) {
        return OKO_NO_MATCH;
    }
    __sync_fetch_and_add(syns, 1);
    return OKO_MATCH;
}
