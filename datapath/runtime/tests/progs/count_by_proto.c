/* Map test: counts IPv4 packets per IP protocol (hash map, atomic add),
 * matches those whose protocol was seen before (connection-table style
 * LRU), and marks the source address in a bloom filter. */
#include <oko/filter.h>

#define ETH_HLEN 14
#define ETH_P_IP 0x0800
#define IP_PROTO_OFFSET (ETH_HLEN + 9)
#define IP_SRC_OFFSET (ETH_HLEN + 12)

OKO_MAP(packets_per_proto, OKO_MAP_HASH, sizeof(uint32_t), sizeof(uint64_t), 256);
OKO_MAP(seen_protos, OKO_MAP_LRU_HASH, sizeof(uint32_t), sizeof(uint64_t), 4);
OKO_MAP(sources, OKO_MAP_BLOOM, sizeof(uint32_t), 0, 4096);

OKO_FILTER uint64_t
count_by_proto(const void *pkt, uint64_t len)
{
    const uint8_t *p = pkt;
    if (len < IP_SRC_OFFSET + 4 || p[12] != (ETH_P_IP >> 8) || p[13] != (ETH_P_IP & 0xff)) {
        return OKO_NO_MATCH;
    }
    uint32_t proto = p[IP_PROTO_OFFSET];
    uint64_t *count = oko_map_lookup(&packets_per_proto, &proto);
    if (count) {
        __sync_fetch_and_add(count, 1);
    } else {
        uint64_t one = 1;
        oko_map_update(&packets_per_proto, &proto, &one, OKO_UPDATE_NOEXIST);
    }
    uint32_t src = p[IP_SRC_OFFSET] | p[IP_SRC_OFFSET + 1] << 8
                   | p[IP_SRC_OFFSET + 2] << 16 | (uint32_t) p[IP_SRC_OFFSET + 3] << 24;
    oko_map_add(&sources, &src, 1);

    uint64_t now = oko_time_ns();
    int seen = oko_map_lookup(&seen_protos, &proto) != 0;
    oko_map_update(&seen_protos, &proto, &now, OKO_UPDATE_ANY);
    return seen ? OKO_MATCH : OKO_NO_MATCH;
}
