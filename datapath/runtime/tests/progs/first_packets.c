/* Datapath test: a stateful program whose result flips by itself.  It
 * matches the first N packets it sees (N in map 0, default 1 while the map
 * holds 0) and no later ones; map 1 counts the packets seen. */
#include <oko/filter.h>

OKO_MAP(limit, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(uint64_t), 1);
OKO_MAP(seen, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(uint64_t), 1);

#define DEFAULT_LIMIT 1

OKO_FILTER uint64_t
first_packets(const void *pkt, uint64_t len)
{
    uint32_t zero = 0;

    (void) pkt;
    (void) len;
    uint64_t *count = oko_map_lookup(&seen, &zero);
    uint64_t *n = oko_map_lookup(&limit, &zero);
    if (!count || !n) {
        return OKO_NO_MATCH;
    }
    uint64_t position = __sync_fetch_and_add(count, 1) + 1;
    uint64_t max = *n ? *n : DEFAULT_LIMIT;
    return position <= max ? OKO_MATCH : OKO_NO_MATCH;
}
