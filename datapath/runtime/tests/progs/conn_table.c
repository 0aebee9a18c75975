/* A connection table of 12-byte keys and 24-byte values (the size of a
 * 5-tuple without protocol and three counters), for the tests of large maps:
 * UPDATE_MAP's message limit and DUMP_MAPS over several replies.  Matches a
 * packet whose first 12 bytes are a key in the table.  Its own program, so
 * that those tests do not move when a library filter changes its layout. */
#include <oko/filter.h>

#define KEY_SIZE 12
#define VALUE_SIZE 24
#define MAX_CONNECTIONS 65536

OKO_MAP(connections, OKO_MAP_LRU_HASH, KEY_SIZE, VALUE_SIZE, MAX_CONNECTIONS);

OKO_FILTER uint64_t
conn_table(const void *pkt, uint64_t len)
{
    const uint8_t *p = pkt;
    uint8_t key[KEY_SIZE];

    if (len < KEY_SIZE) {
        return OKO_NO_MATCH;
    }
    for (int i = 0; i < KEY_SIZE; i++) {
        key[i] = p[i];
    }
    return oko_map_lookup(&connections, key) ? OKO_MATCH : OKO_NO_MATCH;
}
