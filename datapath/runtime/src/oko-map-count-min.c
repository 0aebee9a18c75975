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

/* Count-min sketch maps: 'flags' rows (0: OKO_MAP_COUNT_MIN_DEFAULT_DEPTH)
 * of u32 counters, each a power of 2 of at least max_entries wide.  An add
 * increments the key's counter in every row; the estimate of a key's count
 * is the smallest of them, never below its true count (until a counter
 * wraps). */

#include <stdatomic.h>
#include <stdio.h>

#include "oko-map-private.h"

#define COUNTER_SIZE 4                  /* u32 */

struct count_min_map {
    struct oko_map map;
    uint32_t width;                     /* counters a row, a power of 2 */
    uint32_t depth;                     /* rows */
    _Atomic uint32_t *cells;
    /* Non-zero counters, kept by the adds that change one from or to
     * zero, so that statistics never scan the sketch (it may have 2^27
     * counters). */
    _Atomic uint32_t nonzero;
};

static struct count_min_map *
count_min_cast(const struct oko_map *m)
{
    return OKO_CONTAINER_OF(m, struct count_min_map, map);
}

static uint32_t
count_min_depth(const struct oko_map_decl *d)
{
    return d->flags ? d->flags : OKO_MAP_COUNT_MIN_DEFAULT_DEPTH;
}

static size_t
count_min_memory(const struct oko_map_decl *d, char error[OKO_ERROR_MAX])
{
    if (d->key_size == 0 || d->key_size > OKO_MAP_MAX_KEY_SIZE
        || d->value_size != COUNTER_SIZE) {
        snprintf(error, OKO_ERROR_MAX, "map '%s': a count-min sketch has "
                 "key_size 1 to %d and value_size 4 (u32 counters)",
                 d->name, OKO_MAP_MAX_KEY_SIZE);
        return 0;
    }
    if (d->flags > OKO_MAP_COUNT_MIN_MAX_DEPTH) {
        snprintf(error, OKO_ERROR_MAX, "map '%s': flags is the number of "
                 "rows, at most %d", d->name, OKO_MAP_COUNT_MIN_MAX_DEPTH);
        return 0;
    }
    return (size_t) oko_map_round_pow2(d->max_entries) * count_min_depth(d)
           * COUNTER_SIZE;
}

static struct oko_map *
count_min_alloc(const struct oko_map_decl *d)
{
    struct count_min_map *c = oko_map_zalloc(sizeof *c);
    if (!c) {
        return NULL;
    }
    c->width = oko_map_round_pow2(d->max_entries);
    c->depth = count_min_depth(d);
    c->cells = oko_map_zalloc((size_t) c->width * c->depth * COUNTER_SIZE);
    if (!c->cells) {
        oko_map_free_memory(c);
        return NULL;
    }
    return &c->map;
}

static void
count_min_free(struct oko_map *m)
{
    struct count_min_map *c = count_min_cast(m);
    oko_map_free_memory(c->cells);
    oko_map_free_memory(c);
}

static _Atomic uint32_t *
count_min_cell(struct count_min_map *c, uint64_t hash, uint32_t row)
{
    return &c->cells[(size_t) row * c->width
                     + oko_sketch_index(c->width, hash, row)];
}

static int64_t
count_min_add(struct oko_map *m, const void *key, uint32_t increment)
{
    struct count_min_map *c = count_min_cast(m);
    uint64_t hash = oko_hash_bytes(key, m->decl.key_size, m->seed);
    uint32_t estimate = UINT32_MAX;

    for (uint32_t row = 0; row < c->depth; row++) {
        uint32_t old = atomic_fetch_add_explicit(count_min_cell(c, hash, row),
                                                 increment,
                                                 memory_order_relaxed);
        uint32_t v = old + increment;
        if (__builtin_expect(!old != !v, 0)) {
            /* From zero, or back to zero by wrapping around. */
            atomic_fetch_add_explicit(&c->nonzero, old ? UINT32_MAX : 1,
                                      memory_order_relaxed);
        }
        if (v < estimate) {
            estimate = v;
        }
    }
    return estimate;
}

static int64_t
count_min_query(struct oko_map *m, const void *key)
{
    struct count_min_map *c = count_min_cast(m);
    uint64_t hash = oko_hash_bytes(key, m->decl.key_size, m->seed);
    uint32_t estimate = UINT32_MAX;

    for (uint32_t row = 0; row < c->depth; row++) {
        uint32_t v = atomic_load_explicit(count_min_cell(c, hash, row),
                                          memory_order_relaxed);
        if (v < estimate) {
            estimate = v;
        }
    }
    return estimate;
}

static uint32_t
count_min_count(const struct oko_map *m)
{
    return atomic_load_explicit(&count_min_cast(m)->nonzero,
                                memory_order_relaxed);
}

static void
count_min_clear(struct oko_map *m)
{
    struct count_min_map *c = count_min_cast(m);

    for (size_t i = 0; i < (size_t) c->width * c->depth; i++) {
        atomic_store_explicit(&c->cells[i], 0, memory_order_relaxed);
    }
    /* An add racing with the clear may leave the count one off (a sketch
     * cleared while programs add to it is approximate anyway). */
    atomic_store_explicit(&c->nonzero, 0, memory_order_relaxed);
}

/* The non-zero counters, keyed by their u32 index (row * width + column). */
static int
count_min_foreach(struct oko_map *m, oko_map_entry_cb *cb, void *aux)
{
    struct count_min_map *c = count_min_cast(m);
    int r = 0;

    for (uint32_t i = 0; i < c->width * c->depth && !r; i++) {
        uint32_t x = atomic_load_explicit(&c->cells[i], memory_order_relaxed);
        if (x) {
            r = cb(&i, 4, &x, COUNTER_SIZE, aux);
        }
    }
    return r;
}

const struct oko_map_ops oko_map_count_min_ops = {
    .memory = count_min_memory,
    .alloc = count_min_alloc,
    .free = count_min_free,
    .add = count_min_add,
    .query = count_min_query,
    .count = count_min_count,
    .clear = count_min_clear,
    .foreach = count_min_foreach,
};
