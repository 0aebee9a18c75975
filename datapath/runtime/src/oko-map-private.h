/*
 * Copyright (c) 2026 Oko contributors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at:
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
#ifndef OKO_MAP_PRIVATE_H
#define OKO_MAP_PRIVATE_H 1

/* What a map type implements (model: Linux's struct bpf_map_ops).
 *
 * oko-map.c keeps what every map has (its declaration, references, seed,
 * statistics) and calls the type's operations through 'ops'; each type
 * lives in one file (oko-map-hash.c for hash and LRU hash, oko-map-lpm.c,
 * oko-map-array.c, oko-map-bloom.c, oko-map-count-min.c) and embeds
 * struct oko_map first in its own struct.  Adding a type is one file and
 * one line in oko-map.c's table of types. */

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "oko-map.h"

#define OKO_ROUND8(x) (((x) + 7) & ~(size_t) 7)

/* The struct of type 'type' whose member 'member' 'pointer' points to. */
#define OKO_CONTAINER_OF(pointer, type, member)                     \
    ((type *) (uintptr_t) ((const char *) (pointer)                 \
                           - offsetof(type, member)))

struct oko_map_ops;

struct oko_map {
    struct oko_map_decl decl;
    const struct oko_map_ops *ops;
    _Atomic uint32_t refs;
    uint64_t seed;                      /* of oko_hash_bytes(), per map */

    /* Statistics (oko_map_get_stats()): rare events, so shared atomic
     * counters cost nothing on the common path. */
    _Atomic uint64_t evictions;         /* LRU */
    _Atomic uint64_t refused_full;      /* hash, LPM: -E2BIG */
};

struct oko_map_ops {
    /* Checks the type's rules for 'decl' (max_entries is already checked
     * against OKO_MAP_MAX_ENTRIES) and returns the bytes a map of it
     * needs, or 0 with a reason in 'error'. */
    size_t (*memory)(const struct oko_map_decl *decl,
                     char error[OKO_ERROR_MAX]);

    /* Allocates the map, with 'decl' already checked by memory(); NULL if
     * memory runs out.  oko-map.c fills in the common fields. */
    struct oko_map *(*alloc)(const struct oko_map_decl *decl);
    void (*free)(struct oko_map *map);

    /* The operations of oko-map.h, for this type.  NULL: the operation is
     * not defined for it (oko-map.c answers -EOPNOTSUPP, or NULL). */
    void *(*lookup)(struct oko_map *map, const void *key);
    int (*update)(struct oko_map *map, const void *key, const void *value,
                  uint64_t flags);
    int (*delete)(struct oko_map *map, const void *key);
    int64_t (*add)(struct oko_map *map, const void *key, uint32_t increment);
    int64_t (*query)(struct oko_map *map, const void *key);
    uint32_t (*count)(const struct oko_map *map);
    void (*clear)(struct oko_map *map);
    int (*foreach)(struct oko_map *map, oko_map_entry_cb *cb, void *aux);
};

extern const struct oko_map_ops oko_map_hash_ops;
extern const struct oko_map_ops oko_map_lru_hash_ops;
extern const struct oko_map_ops oko_map_array_ops;
extern const struct oko_map_ops oko_map_bloom_ops;
extern const struct oko_map_ops oko_map_count_min_ops;
extern const struct oko_map_ops oko_map_lpm_ops;

/* Zeroed, 64-byte aligned memory for a map's tables (mmap'ed and populated
 * up front: see oko-map.c). */
void *oko_map_zalloc(size_t size);
void oko_map_free_memory(void *block);

/* The smallest power of 2 >= x, at most 2^31. */
uint32_t oko_map_round_pow2(uint64_t x);

/* The hash table of hash, LRU hash and LPM maps (oko-map-hash.c).  A map
 * type built on it embeds it first: struct oko_map is its first member. */
struct oko_hashtab_entry;
struct oko_hashtab_bucket;

struct oko_hashtab {
    struct oko_map map;
    bool lru;                           /* evicts instead of refusing */
    struct oko_hashtab_bucket *buckets;
    uint32_t bucket_mask;
    uint8_t *pool;                      /* every entry, allocated up front */
    size_t entry_size, key_stride;
    uint32_t pool_size;
    atomic_flag pool_lock;
    struct oko_hashtab_entry *free_list;
    struct oko_hashtab_entry *limbo_head, *limbo_tail;
    _Atomic uint32_t count;
    _Atomic uint64_t clock;             /* LRU */
    _Atomic uint32_t evict_cursor;      /* LRU */
};

/* Checks what a table needs of 'decl' (a value of 1 to
 * OKO_MAP_MAX_VALUE_SIZE bytes, no flags; the key is the map type's to
 * check) and returns the bytes the table takes, or 0 with a reason in
 * 'error'. */
size_t oko_hashtab_memory(const struct oko_map_decl *decl,
                          char error[OKO_ERROR_MAX]);
/* Sets up the table in zeroed 't' for 'decl'; false if memory runs out
 * (oko_hashtab_destroy() then frees what was allocated). */
bool oko_hashtab_init(struct oko_hashtab *t, const struct oko_map_decl *decl,
                      bool lru);
void oko_hashtab_destroy(struct oko_hashtab *t);
void *oko_hashtab_lookup(struct oko_hashtab *t, const void *key);
/* Inserts or replaces 'key'; 'is_new' reports whether it was absent. */
int oko_hashtab_update(struct oko_hashtab *t, const void *key,
                       const void *value, uint64_t flags, bool *is_new);
int oko_hashtab_delete(struct oko_hashtab *t, const void *key);
uint32_t oko_hashtab_count(const struct oko_hashtab *t);
int oko_hashtab_foreach(struct oko_hashtab *t, oko_map_entry_cb *cb,
                        void *aux);
/* Removes every entry, calling 'removed' (if not NULL) with each key. */
void oko_hashtab_clear(struct oko_hashtab *t,
                       void (*removed)(struct oko_hashtab *, const void *key));

/* Sketches: the i-th of the cells 'hash' picks in a table of 'width'
 * (a power of 2) cells, by double hashing. */
static inline uint32_t
oko_sketch_index(uint32_t width, uint64_t hash, uint32_t i)
{
    uint32_t h1 = hash, h2 = (hash >> 32) | 1;
    return (h1 + i * h2) & (width - 1);
}

#endif /* oko-map-private.h */
