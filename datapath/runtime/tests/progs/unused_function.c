/* Loader test: the object's .text holds a function the filter never calls,
 * and that function calls something that is no Oko helper.  The loader
 * loads what the filter reaches, so the object loads without it. */
#include <oko/filter.h>

#define MIN_FRAME_LEN 64

extern uint64_t not_an_oko_helper(uint64_t x);

uint64_t
unused_function(uint64_t x)
{
    return not_an_oko_helper(x) + 1;
}

OKO_FILTER uint64_t
uses_no_function(const void *pkt, uint64_t len)
{
    (void) pkt;
    return len >= MIN_FRAME_LEN ? OKO_MATCH : OKO_NO_MATCH;
}
