/* Verifier test: a loop clang cannot unroll (volatile bound). */
#include <oko/filter.h>

OKO_FILTER uint64_t
unsafe_loop(const void *pkt, uint64_t len)
{
    volatile uint64_t n = len;
    uint64_t sum = 0;
    (void) pkt;
    for (uint64_t i = 0; i < n; i++) {
        sum += i;
    }
    return sum & 1;
}
