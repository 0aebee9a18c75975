/* Datapath test: a map whose entries are too large for any OpenFlow message
 * that carries entries (its value is 65460 bytes: with its 4-byte index,
 * more than the 65448 bytes docs/protocol.md section 2 allows), beside one
 * that fits.  The program may use both; only the small one can be dumped or
 * sent. */
#include <oko/filter.h>

#define WIDE_VALUE_SIZE 65460

OKO_MAP(wide, OKO_MAP_ARRAY, sizeof(uint32_t), WIDE_VALUE_SIZE, 1);
OKO_MAP(small, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(uint64_t), 1);

OKO_FILTER uint64_t
wide_values(const void *pkt, uint64_t len)
{
    uint32_t zero = 0;

    (void) pkt;
    (void) len;
    uint8_t *w = oko_map_lookup(&wide, &zero);
    uint64_t *s = oko_map_lookup(&small, &zero);
    if (w && s) {
        *s += w[WIDE_VALUE_SIZE - 1];
    }
    return OKO_MATCH;
}
