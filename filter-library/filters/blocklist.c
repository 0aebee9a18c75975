/* blocklist: matches IPv4 packets whose source address lies in a prefix of
 * the 'blocked' table, which the controller fills with UPDATE_MAP.
 *
 * Maps:
 *   blocked (lpm, key: u32 prefix length + 4 address bytes in network
 *            order, value: u64 packets matched, 65536 prefixes)
 * Parameters: none (the table is the configuration).
 * Limits: IPv4 only (other packets do not match); one VLAN tag skipped.  The
 * packet counter of a prefix is bumped atomically. */
#include <oko/net.h>

#define MAX_PREFIXES 65536

struct prefix_key {
    uint32_t prefix_len;
    uint8_t addr[4];
};

OKO_MAP(blocked, OKO_MAP_LPM, sizeof(struct prefix_key), sizeof(uint64_t), MAX_PREFIXES);

OKO_FILTER uint64_t
blocklist(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    uint8_t protocol;

    const uint8_t *ip = parse_to_ipv4(&cur, &protocol);
    if (!ip) {
        return OKO_NO_MATCH;
    }
    struct prefix_key key = { .prefix_len = 32 };
    copy4(key.addr, ip + IPV4_SRC);
    uint64_t *packets = oko_map_lookup(&blocked, &key);
    if (!packets) {
        return OKO_NO_MATCH;
    }
    __sync_fetch_and_add(packets, 1);
    return OKO_MATCH;
}
