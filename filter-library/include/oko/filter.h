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

/* Helper functions of a filter: the loader inlines calls to functions of
 * the same object (datapath/runtime/src/oko-inline.c: no recursion, at most
 * OKO_MAX_CALL_DEPTH deep, the 512-byte stack shared by the frames of one
 * call path).  Marking them always_inline lets clang do it instead, which
 * gives it the chance to optimise across the call. */
#define OKO_INLINE static inline __attribute__((always_inline))

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

/* Helpers (docs/filter-programs.md has the details).  The loader resolves
 * calls by name; the numbers are datapath/runtime/include/oko-helpers.h's. */

/* Hash, array, lru_hash, lpm: pointer to the value of 'key', or 0 (NULL),
 * which the verifier makes you check before using the pointer. */
extern void *oko_map_lookup(void *map, const void *key);

/* An array map's first entry (index 0): the value of a filter's one-entry
 * parameter map, or of a program-wide state.  Checked like any lookup. */
OKO_INLINE void *
oko_map_first(void *map)
{
    uint32_t zero = 0;
    return oko_map_lookup(map, &zero);
}

/* Hash, array, lru_hash, lpm: create or replace.  0 or a negative errno. */
#define OKO_UPDATE_ANY     0    /* create or replace */
#define OKO_UPDATE_NOEXIST 1    /* create only */
#define OKO_UPDATE_EXIST   2    /* replace only */
extern int64_t oko_map_update(void *map, const void *key, const void *value, uint64_t flags);

/* Hash, lru_hash, lpm: 0, or -ENOENT (-2) if there was no such key. */
extern int64_t oko_map_delete(void *map, const void *key);

/* Bloom: adds 'key' (returns 0).  Count-min: adds 'increment' to the
 * count of 'key' and returns the new estimate. */
extern uint64_t oko_map_add(void *map, const void *key, uint64_t increment);

/* Bloom: 1 if 'key' may have been added, 0 if certainly not.  Count-min:
 * the estimated count of 'key' (never below the true count). */
extern uint64_t oko_map_query(void *map, const void *key);

/* Monotonic time in nanoseconds. */
extern uint64_t oko_time_ns(void);

/* A 64-bit hash of 'size' (at most 512) bytes. */
extern uint64_t oko_hash(const void *data, uint64_t size, uint64_t seed);

/* Map declarations for the sketches: */
/*   OKO_MAP(seen, OKO_MAP_BLOOM, KEY_SIZE, 0, BITS)              flags: hashes (0 = 4) */
/*   OKO_MAP(counts, OKO_MAP_COUNT_MIN, KEY_SIZE, 4, WIDTH)       flags: rows (0 = 4) */
#define OKO_MAP_FLAGS(NAME, TYPE, KEY_SIZE, VALUE_SIZE, MAX_ENTRIES, FLAGS) \
    struct oko_map_def NAME                                             \
    __attribute__((section(OKO_MAPS_SECTION), used)) = {                \
        (TYPE), (KEY_SIZE), (VALUE_SIZE), (MAX_ENTRIES), (FLAGS) }

#endif /* oko/filter.h */
