/* Verifier test: counts packets per length without checking the lookup. */
#include <oko/filter.h>

OKO_MAP(counts, OKO_MAP_HASH, sizeof(uint64_t), sizeof(uint64_t), 1024);

OKO_FILTER uint64_t
unsafe_no_null_check(const void *pkt, uint64_t len)
{
    (void) pkt;
    uint64_t *count = oko_map_lookup(&counts, &len);
    __sync_fetch_and_add(count, 1);
    return OKO_MATCH;
}
