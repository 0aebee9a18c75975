/* baseline: matches every packet.
 *
 * The smallest possible filter: the cost of running a program and nothing
 * else.  Benchmarks compare it with a rule that has no filter at all. */
#include <oko/filter.h>

OKO_FILTER uint64_t
baseline(const void *pkt, uint64_t len)
{
    (void) pkt;
    (void) len;
    return OKO_MATCH;
}
