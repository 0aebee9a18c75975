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
/* Maps (see oko-map.h for the concurrency contract): what every map has,
 * and the calls into its type's operations (oko-map-private.h).  The types
 * are in oko-map-hash.c (hash, LRU hash), oko-map-lpm.c, oko-map-array.c,
 * oko-map-bloom.c and oko-map-count-min.c. */

#include "oko-map.h"

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "oko-epoch.h"
#include "oko-map-private.h"

/* The map types, by enum oko_map_type_id. */
static const struct oko_map_ops *const map_types[] = {
    [OKO_MAP_TYPE_HASH] = &oko_map_hash_ops,
    [OKO_MAP_TYPE_ARRAY] = &oko_map_array_ops,
    [OKO_MAP_TYPE_LRU_HASH] = &oko_map_lru_hash_ops,
    [OKO_MAP_TYPE_BLOOM] = &oko_map_bloom_ops,
    [OKO_MAP_TYPE_COUNT_MIN] = &oko_map_count_min_ops,
    [OKO_MAP_TYPE_LPM] = &oko_map_lpm_ops,
};

static const struct oko_map_ops *
map_type(uint32_t type)
{
    return (type < sizeof map_types / sizeof map_types[0]
            ? map_types[type] : NULL);
}

/* ---- Hashing ---- */

static inline uint64_t
mix64(uint64_t x)
{
    x ^= x >> 32;
    x *= UINT64_C(0xd6e8feb86659fd93);
    x ^= x >> 32;
    x *= UINT64_C(0xd6e8feb86659fd93);
    x ^= x >> 32;
    return x;
}

uint64_t
oko_hash_bytes(const void *data, size_t size, uint64_t seed)
{
    const uint8_t *p = data;
    uint64_t h = seed ^ (size * UINT64_C(0x9e3779b97f4a7c15));
    while (size >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = mix64(h ^ w) + UINT64_C(0x9e3779b97f4a7c15);
        p += 8;
        size -= 8;
    }
    if (size) {
        uint64_t w = 0;
        memcpy(&w, p, size);
        h = mix64(h ^ w ^ ((uint64_t) size << 59));
    }
    return mix64(h);
}

/* ---- Declarations and sizes ---- */

uint32_t
oko_map_round_pow2(uint64_t x)
{
    uint32_t r = 1;
    while (r < x && r < (1u << 31)) {
        r <<= 1;
    }
    return r;
}

size_t
oko_map_memory(const struct oko_map_decl *d, char error[OKO_ERROR_MAX])
{
    const struct oko_map_ops *ops = map_type(d->type);
    if (d->max_entries == 0 || d->max_entries > OKO_MAP_MAX_ENTRIES) {
        snprintf(error, OKO_ERROR_MAX,
                 "map '%s': max_entries %u; it must be 1 to %u",
                 d->name, d->max_entries, OKO_MAP_MAX_ENTRIES);
        return 0;
    }
    if (!ops) {
        snprintf(error, OKO_ERROR_MAX, "map '%s': unknown map type %u",
                 d->name, d->type);
        return 0;
    }
    return ops->memory(d, error);
}

/* A map's memory comes from mmap and goes back with munmap.  From malloc,
 * blocks of this size came from its heap once a first one had been freed
 * (glibc raises its mmap threshold to a freed block's size) and stayed in
 * the process when freed: 100 loads and unloads of a program with a 5 MB
 * map took ovs-vswitchd from 37 MB to 1.1 GB.  The kernel gives zeroed
 * pages; MAP_POPULATE maps them all now, so no packet thread takes a page
 * fault on a map's first use of a page.  The mapping's length is kept in a
 * 64-byte header, so the block stays 64-byte aligned. */
#define MAP_MEM_HEADER 64

/* Under ASan, malloc: its red zones find overruns. */
#if defined(__SANITIZE_ADDRESS__)
#define MAP_MEM_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAP_MEM_MALLOC 1
#endif
#endif

#ifdef MAP_MEM_MALLOC
void *
oko_map_zalloc(size_t size)
{
    void *p = aligned_alloc(64, (size + 63) & ~(size_t) 63);
    if (p) {
        memset(p, 0, size);
    }
    return p;
}

void
oko_map_free_memory(void *block)
{
    free(block);
}
#else
void *
oko_map_zalloc(size_t size)
{
    size_t page = (size_t) sysconf(_SC_PAGESIZE);
    if (size > SIZE_MAX - MAP_MEM_HEADER - page) {
        return NULL;
    }
    size_t length = (size + MAP_MEM_HEADER + page - 1) / page * page;
    void *p = mmap(NULL, length, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED) {
        return NULL;
    }
    memcpy(p, &length, sizeof length);
    return (char *) p + MAP_MEM_HEADER;
}

void
oko_map_free_memory(void *block)
{
    if (block) {
        char *p = (char *) block - MAP_MEM_HEADER;
        size_t length;
        memcpy(&length, p, sizeof length);
        munmap(p, length);
    }
}
#endif

int
oko_map_create(const struct oko_map_decl *d, struct oko_map **mapp,
               char error[OKO_ERROR_MAX])
{
    *mapp = NULL;
    if (!oko_map_memory(d, error)) {
        return EINVAL;
    }
    const struct oko_map_ops *ops = map_type(d->type);
    struct oko_map *m = ops->alloc(d);
    if (!m) {
        snprintf(error, OKO_ERROR_MAX, "map '%s': out of memory", d->name);
        return ENOMEM;
    }
    m->decl = *d;
    m->ops = ops;
    atomic_init(&m->refs, 1);
    if (getrandom(&m->seed, sizeof m->seed, 0) != sizeof m->seed) {
        m->seed = (uintptr_t) m ^ UINT64_C(0x5851f42d4c957f2d);
    }
    *mapp = m;
    return 0;
}

struct oko_map *
oko_map_ref(struct oko_map *m)
{
    atomic_fetch_add(&m->refs, 1);
    return m;
}

bool
oko_map_decl_equal(const struct oko_map_decl *a, const struct oko_map_decl *b)
{
    return a->type == b->type && a->key_size == b->key_size
           && a->value_size == b->value_size
           && a->max_entries == b->max_entries
           && a->flags == b->flags;
}

void
oko_map_destroy(struct oko_map *m)
{
    if (m && atomic_fetch_sub(&m->refs, 1) == 1) {
        m->ops->free(m);
    }
}

const struct oko_map_decl *
oko_map_get_decl(const struct oko_map *m)
{
    return &m->decl;
}

/* ---- Operations ---- */

void *
oko_map_lookup(struct oko_map *m, const void *key)
{
    return m->ops->lookup ? m->ops->lookup(m, key) : NULL;
}

int
oko_map_update(struct oko_map *m, const void *key, const void *value,
               uint64_t flags)
{
    return (m->ops->update ? m->ops->update(m, key, value, flags)
            : -EOPNOTSUPP);
}

int
oko_map_delete(struct oko_map *m, const void *key)
{
    return m->ops->delete ? m->ops->delete(m, key) : -EOPNOTSUPP;
}

int64_t
oko_map_add(struct oko_map *m, const void *key, uint32_t increment)
{
    return m->ops->add ? m->ops->add(m, key, increment) : -EOPNOTSUPP;
}

int64_t
oko_map_query(struct oko_map *m, const void *key)
{
    return m->ops->query ? m->ops->query(m, key) : -EOPNOTSUPP;
}

uint32_t
oko_map_count(const struct oko_map *m)
{
    return m->ops->count(m);
}

void
oko_map_get_stats(const struct oko_map *m_, struct oko_map_stats_counts *stats)
{
    struct oko_map *m = (struct oko_map *) m_;

    stats->used = oko_map_count(m);
    stats->max_entries = m->decl.max_entries;
    stats->evictions = atomic_load_explicit(&m->evictions,
                                            memory_order_relaxed);
    stats->refused_full = atomic_load_explicit(&m->refused_full,
                                               memory_order_relaxed);
}

int
oko_map_update_ctl(struct oko_map *m, const void *key, const void *value,
                   uint64_t flags)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        oko_epoch_enter();
        int err = oko_map_update(m, key, value, flags);
        oko_epoch_exit();
        if (err != -EBUSY) {
            return err;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        long waited_ms = ((now.tv_sec - start.tv_sec) * 1000
                          + (now.tv_nsec - start.tv_nsec) / 1000000);
        if (waited_ms > OKO_MAP_CTL_WAIT_MS) {
            return err;
        }
        sched_yield();
    }
}

int
oko_map_delete_ctl(struct oko_map *m, const void *key)
{
    oko_epoch_enter();
    int err = oko_map_delete(m, key);
    oko_epoch_exit();
    return err;
}

void
oko_map_clear(struct oko_map *m)
{
    m->ops->clear(m);
}

int
oko_map_foreach(struct oko_map *m, oko_map_entry_cb *cb, void *aux)
{
    return m->ops->foreach(m, cb, aux);
}
