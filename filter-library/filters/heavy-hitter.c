/* heavy-hitter: matches IPv4 packets of sources that sent more than a
 * threshold of packets, counted in a count-min sketch (a rule can then
 * drop them, or SEND_MAPS the sketch to the controller).
 *
 * Maps:
 *   params (array[1], value: struct params) - set by the controller
 *   counts (count_min, key: IPv4 source in network order, 4 rows x 65536)
 * Parameters: threshold (packets; 0 = 1000).
 * Limits: IPv4 only (one VLAN tag skipped; every fragment counts); the
 * count-min estimate never undercounts but may overcount under collisions;
 * counts only grow (the controller clears the sketch with
 * DELETE_MAP_ENTRIES all, e.g. every interval). */
#include <oko/net.h>

#define DEFAULT_THRESHOLD 1000
#define SKETCH_WIDTH 65536

struct params {
    uint64_t threshold;
};

OKO_MAP(params, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct params), 1);
OKO_MAP(counts, OKO_MAP_COUNT_MIN, 4, 4, SKETCH_WIDTH);

OKO_FILTER uint64_t
heavy_hitter(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    uint8_t protocol;

    const uint8_t *ip = parse_to_ipv4(&cur, &protocol);
    if (!ip) {
        return OKO_NO_MATCH;
    }
    const struct params *p = oko_map_first(&params);
    uint64_t threshold = p && p->threshold ? p->threshold : DEFAULT_THRESHOLD;

    uint32_t src = read_raw32(ip + IPV4_SRC);
    uint64_t estimate = oko_map_add(&counts, &src, 1);
    return estimate > threshold ? OKO_MATCH : OKO_NO_MATCH;
}
