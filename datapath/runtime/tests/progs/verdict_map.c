/* Datapath test: returns the verdict the controller stored in map 0 (1 =
 * match, anything else = no match) and counts its runs in map 1, so a test
 * can flip the result and see how often the program ran. */
#include <oko/filter.h>

OKO_MAP(verdict, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(uint64_t), 1);
OKO_MAP(runs, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(uint64_t), 1);

OKO_FILTER uint64_t
verdict_map(const void *pkt, uint64_t len)
{
    uint32_t zero = 0;

    (void) pkt;
    (void) len;
    uint64_t *count = oko_map_lookup(&runs, &zero);
    if (count) {
        __sync_fetch_and_add(count, 1);
    }
    uint64_t *v = oko_map_lookup(&verdict, &zero);
    return v && *v == 1 ? OKO_MATCH : OKO_NO_MATCH;
}
