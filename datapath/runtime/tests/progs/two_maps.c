/* Loader test: two maps, each referenced by a relocated lddw. */
#include <oko/filter.h>

OKO_MAP(first, OKO_MAP_HASH, 4, 8, 16);
OKO_MAP(second, OKO_MAP_ARRAY, 4, 4, 8);

OKO_FILTER uint64_t
two_maps(const void *pkt, uint64_t len)
{
    (void) pkt;
    /* The addresses themselves, so that clang keeps both references (the
     * verifier will refuse to return a pointer; the loader does not care). */
    return len > 64 ? (uint64_t) &second : (uint64_t) &first;
}
