/* Loader test: global data is refused (only maps may be referenced). */
#include <oko/filter.h>

static volatile uint64_t hits;

OKO_FILTER uint64_t
global_data(const void *pkt, uint64_t len)
{
    (void) pkt;
    hits += len;
    return OKO_MATCH;
}
