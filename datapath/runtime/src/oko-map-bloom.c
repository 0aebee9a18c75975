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

/* Bloom filter maps: a key is added or queried, never stored or removed.
 * A query answers 1 if the key may have been added, 0 if it was not.  The
 * bits are a power of 2 of at least max_entries (at least 64); 'flags' is
 * the number of hash functions (0: OKO_MAP_BLOOM_DEFAULT_HASHES). */

#include <stdatomic.h>
#include <stdio.h>

#include "oko-map-private.h"

#define BLOOM_MIN_BITS 64

struct bloom_map {
    struct oko_map map;
    uint32_t width;                     /* bits, a power of 2 */
    uint32_t n_hashes;
    _Atomic uint64_t *bits;
    /* Non-zero words, kept by the adds that change a word from zero, so
     * that statistics never scan the filter. */
    _Atomic uint32_t nonzero;
};

static struct bloom_map *
bloom_cast(const struct oko_map *m)
{
    return OKO_CONTAINER_OF(m, struct bloom_map, map);
}

static uint32_t
bloom_width(const struct oko_map_decl *d)
{
    return oko_map_round_pow2(d->max_entries < BLOOM_MIN_BITS
                              ? BLOOM_MIN_BITS : d->max_entries);
}

static size_t
bloom_memory(const struct oko_map_decl *d, char error[OKO_ERROR_MAX])
{
    if (d->key_size == 0 || d->key_size > OKO_MAP_MAX_KEY_SIZE
        || d->value_size != 0) {
        snprintf(error, OKO_ERROR_MAX, "map '%s': a bloom filter has "
                 "key_size 1 to %d and value_size 0", d->name,
                 OKO_MAP_MAX_KEY_SIZE);
        return 0;
    }
    if (d->flags > OKO_MAP_BLOOM_MAX_HASHES) {
        snprintf(error, OKO_ERROR_MAX, "map '%s': flags is the number of "
                 "hash functions, at most %d", d->name,
                 OKO_MAP_BLOOM_MAX_HASHES);
        return 0;
    }
    return bloom_width(d) / 8;
}

static struct oko_map *
bloom_alloc(const struct oko_map_decl *d)
{
    struct bloom_map *b = oko_map_zalloc(sizeof *b);
    if (!b) {
        return NULL;
    }
    b->width = bloom_width(d);
    b->n_hashes = d->flags ? d->flags : OKO_MAP_BLOOM_DEFAULT_HASHES;
    b->bits = oko_map_zalloc(b->width / 8);
    if (!b->bits) {
        oko_map_free_memory(b);
        return NULL;
    }
    return &b->map;
}

static void
bloom_free(struct oko_map *m)
{
    struct bloom_map *b = bloom_cast(m);
    oko_map_free_memory(b->bits);
    oko_map_free_memory(b);
}

static int64_t
bloom_add(struct oko_map *m, const void *key, uint32_t increment)
{
    struct bloom_map *b = bloom_cast(m);
    uint64_t hash = oko_hash_bytes(key, m->decl.key_size, m->seed);

    (void) increment;                   /* a bit is set or not */

    for (uint32_t i = 0; i < b->n_hashes; i++) {
        uint32_t bit = oko_sketch_index(b->width, hash, i);
        uint64_t old = atomic_fetch_or_explicit(&b->bits[bit / 64],
                                                UINT64_C(1) << (bit % 64),
                                                memory_order_relaxed);
        if (__builtin_expect(!old, 0)) {
            atomic_fetch_add_explicit(&b->nonzero, 1, memory_order_relaxed);
        }
    }
    return 0;
}

static int64_t
bloom_query(struct oko_map *m, const void *key)
{
    struct bloom_map *b = bloom_cast(m);
    uint64_t hash = oko_hash_bytes(key, m->decl.key_size, m->seed);

    for (uint32_t i = 0; i < b->n_hashes; i++) {
        uint32_t bit = oko_sketch_index(b->width, hash, i);
        if (!(atomic_load_explicit(&b->bits[bit / 64], memory_order_relaxed)
              & (UINT64_C(1) << (bit % 64)))) {
            return 0;
        }
    }
    return 1;
}

static uint32_t
bloom_count(const struct oko_map *m)
{
    return atomic_load_explicit(&bloom_cast(m)->nonzero,
                                memory_order_relaxed);
}

static void
bloom_clear(struct oko_map *m)
{
    struct bloom_map *b = bloom_cast(m);

    for (uint32_t i = 0; i < b->width / 64; i++) {
        atomic_store_explicit(&b->bits[i], 0, memory_order_relaxed);
    }
    /* An add racing with the clear may leave the count one off (a filter
     * cleared while programs add to it is approximate anyway). */
    atomic_store_explicit(&b->nonzero, 0, memory_order_relaxed);
}

/* The non-zero words, keyed by their u32 index. */
static int
bloom_foreach(struct oko_map *m, oko_map_entry_cb *cb, void *aux)
{
    struct bloom_map *b = bloom_cast(m);
    int r = 0;

    for (uint32_t i = 0; i < b->width / 64 && !r; i++) {
        uint64_t x = atomic_load_explicit(&b->bits[i], memory_order_relaxed);
        if (x) {
            r = cb(&i, 4, &x, 8, aux);
        }
    }
    return r;
}

const struct oko_map_ops oko_map_bloom_ops = {
    .memory = bloom_memory,
    .alloc = bloom_alloc,
    .free = bloom_free,
    .add = bloom_add,
    .query = bloom_query,
    .count = bloom_count,
    .clear = bloom_clear,
    .foreach = bloom_foreach,
};
