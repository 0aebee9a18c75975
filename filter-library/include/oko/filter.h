/* Oko filter-program ABI for filter authors.
 *
 * A filter is C compiled with `clang -O2 -target bpf -c`.  Its entry point
 * is a function in the "oko/filter" section:
 *
 *     OKO_FILTER uint64_t my_filter(const void *pkt, uint64_t len)
 *
 * r1 = pkt points at the Ethernet header (read only), r2 = len is the
 * packet length in bytes.  Return OKO_MATCH or OKO_NO_MATCH.
 *
 * This header stands alone on purpose: clang's BPF target cannot include
 * the host's <stdint.h> on Debian 12. */
#ifndef OKO_FILTER_H
#define OKO_FILTER_H 1

typedef unsigned char      uint8_t;
typedef unsigned short     uint16_t;
typedef unsigned int       uint32_t;
typedef unsigned long long uint64_t;
typedef signed char        int8_t;
typedef short              int16_t;
typedef int                int32_t;
typedef long long          int64_t;

/* Verdicts. */
#define OKO_NO_MATCH 0
#define OKO_MATCH    1

/* Section of the entry point, which the loader looks for. */
#define OKO_FILTER_SECTION "oko/filter"
#define OKO_FILTER __attribute__((section(OKO_FILTER_SECTION), used))

/* Maps.  Declare each map at file scope, before the filter:
 *
 *     OKO_MAP(flows, OKO_MAP_HASH, sizeof(struct flow_key), sizeof(uint64_t), 4096);
 *
 * The declaration goes into the "oko/maps" section; the loader numbers the
 * maps in declaration order (map index 0, 1, ... on the wire) and names
 * each after its symbol. */
enum oko_map_type {
    OKO_MAP_HASH      = 1,
    OKO_MAP_ARRAY     = 2,
    OKO_MAP_LRU_HASH  = 3,
    OKO_MAP_BLOOM     = 4,
    OKO_MAP_COUNT_MIN = 5,
    OKO_MAP_LPM       = 6,
};

struct oko_map_def {
    uint32_t type;          /* enum oko_map_type */
    uint32_t key_size;      /* bytes */
    uint32_t value_size;    /* bytes */
    uint32_t max_entries;
    uint32_t flags;         /* type-specific; 0 unless documented */
};

#define OKO_MAPS_SECTION "oko/maps"
#define OKO_MAP(NAME, TYPE, KEY_SIZE, VALUE_SIZE, MAX_ENTRIES)            \
    struct oko_map_def NAME                                             \
    __attribute__((section(OKO_MAPS_SECTION), used)) = {                \
        (TYPE), (KEY_SIZE), (VALUE_SIZE), (MAX_ENTRIES), 0 }

#endif /* oko/filter.h */
