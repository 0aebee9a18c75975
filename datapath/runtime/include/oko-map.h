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
#ifndef OKO_MAP_H
#define OKO_MAP_H 1

/* Maps: the state of filter programs.
 *
 * Concurrency (docs/filter-programs.md, "Maps and threads"):
 *  - Any number of threads may call any of these functions on one map at
 *    once, each inside an epoch section (oko-epoch.h).  Lookups take no lock.
 *    Updates and deletes of hash, LRU and LPM maps lock one bucket and,
 *    briefly, the map's entry pool; sketches and arrays use atomic
 *    operations only.
 *  - Hash, LRU and LPM updates never modify an entry a reader may hold: they
 *    publish a new entry and retire the old one, which is reused only after
 *    every thread left the sections that could see it.  A reader sees the
 *    old or the new value, whole.  No update is lost: of two updates of one
 *    key, one wins, and the entry count stays exact.
 *  - Array values are updated in place, 8 bytes at a time, atomically per
 *    aligned 8-byte word: a reader may see a value half old, half new.
 *  - A program may write the value a lookup returned; concurrent writers
 *    should use atomic instructions (__sync_fetch_and_add), which are
 *    atomic against other threads' atomic instructions.
 *  - Entries are allocated up front: nothing here allocates memory after
 *    oko_map_create(). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "oko-program.h"

#define OKO_MAP_MAX_KEY_SIZE 512
#define OKO_MAP_MAX_VALUE_SIZE 65536
#define OKO_MAP_MAX_ENTRIES (1u << 24)
#define OKO_MAP_BLOOM_DEFAULT_HASHES 4
#define OKO_MAP_BLOOM_MAX_HASHES 16
#define OKO_MAP_COUNT_MIN_DEFAULT_DEPTH 4
#define OKO_MAP_COUNT_MIN_MAX_DEPTH 8
#define OKO_MAP_LRU_SAMPLE 128          /* entries considered per eviction */

struct oko_map;

/* Flags of oko_map_update() (and of the oko_map_update helper). */
#define OKO_UPDATE_ANY     0        /* create or replace */
#define OKO_UPDATE_NOEXIST 1        /* create only */
#define OKO_UPDATE_EXIST   2        /* replace only */


/* Checks 'decl' and returns the bytes a map of it needs, or 0 with a reason
 * in 'error' if the declaration is invalid. */
size_t oko_map_memory(const struct oko_map_decl *decl,
                      char error[OKO_ERROR_MAX]);

/* Creates a map; returns 0 or an errno value with 'error' set. */
int oko_map_create(const struct oko_map_decl *decl, struct oko_map **mapp,
                   char error[OKO_ERROR_MAX]);

/* Maps are reference counted: a program replacing another may share the
 * old program's maps (LOAD_PROG with OKO_LOAD_KEEP_MAPS).  oko_map_create()
 * returns a map with one reference; oko_map_ref() adds one;
 * oko_map_destroy() drops one and frees the map with the last.  No thread
 * may use a map after its last reference is dropped. */
struct oko_map *oko_map_ref(struct oko_map *map);
void oko_map_destroy(struct oko_map *map);

/* True if 'a' and 'b' declare the same map (type, sizes, entries, flags):
 * one may take the other's place. */
bool oko_map_decl_equal(const struct oko_map_decl *a,
                        const struct oko_map_decl *b);

const struct oko_map_decl *oko_map_get_decl(const struct oko_map *map);

/* Number of live entries (hash, LRU, LPM), max_entries (array), or the
 * number of non-zero cells (sketches). */
uint32_t oko_map_count(const struct oko_map *map);

/* What PROG_STATS reports of a map (docs/protocol.md 4.3): its count as
 * above, its declared max_entries, entries an LRU map evicted and inserts
 * a full hash or LPM map refused, since the map was created. */
struct oko_map_stats_counts {
    uint32_t used, max_entries;
    uint64_t evictions, refused_full;
};
void oko_map_get_stats(const struct oko_map *map,
                       struct oko_map_stats_counts *stats);

/* The program-facing operations (helpers).  The caller is inside an epoch
 * section.  Errors are negative errno values:
 *   -ENOENT  no such key;  -EEXIST  key exists (OKO_UPDATE_NOEXIST);
 *   -E2BIG   hash map full;  -EINVAL  bad key (array index, LPM prefix);
 *   -EBUSY   every spare entry is still waiting for readers to move on;
 *   -EOPNOTSUPP  operation not defined for the map's type. */
void *oko_map_lookup(struct oko_map *map, const void *key);
int oko_map_update(struct oko_map *map, const void *key, const void *value,
                   uint64_t flags);
int oko_map_delete(struct oko_map *map, const void *key);
/* Sketches: bloom adds 'key' (returns 0); count-min adds 'increment' to
 * its count and returns the new estimate. */
int64_t oko_map_add(struct oko_map *map, const void *key, uint32_t increment);
/* Sketches: bloom returns 1 if 'key' may be present, 0 if it is not;
 * count-min returns the estimate of 'key''s count. */
int64_t oko_map_query(struct oko_map *map, const void *key);

/* Control-path versions of update and delete: they enter their own epoch
 * section (the caller must not be inside one) and, when every spare entry
 * is still waiting for a reader (one preempted inside a program, say),
 * wait for readers to move on (up to OKO_MAP_CTL_WAIT_MS) instead of
 * failing with -EBUSY. */
#define OKO_MAP_CTL_WAIT_MS 1000
int oko_map_update_ctl(struct oko_map *map, const void *key, const void *value,
                       uint64_t flags);
int oko_map_delete_ctl(struct oko_map *map, const void *key);

/* Removes every entry (control path). */
void oko_map_clear(struct oko_map *map);

/* Calls 'cb' for each entry as docs/protocol.md section 5.1 puts it on the
 * wire (array: u32 index key; sketches: non-zero cells).  Stops and returns
 * cb's value if it is non-zero.  The caller is inside an epoch section. */
typedef int oko_map_entry_cb(const void *key, uint32_t key_size,
                             const void *value, uint32_t value_size,
                             void *aux);
int oko_map_foreach(struct oko_map *map, oko_map_entry_cb *cb, void *aux);

/* The hash the maps and the oko_hash helper use. */
uint64_t oko_hash_bytes(const void *data, size_t size, uint64_t seed);

#endif /* oko-map.h */
