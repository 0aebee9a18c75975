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

/* Array maps: max_entries values indexed by a u32 key, every index present
 * from the start (zeroed).  Values are updated in place, 8 bytes at a time,
 * each aligned word atomically (oko-map.h). */

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "oko-map-private.h"

#define ARRAY_KEY_SIZE 4                /* a u32 index */

struct array_map {
    struct oko_map map;
    size_t value_stride;
    uint8_t *values;
};

static struct array_map *
array_cast(const struct oko_map *m)
{
    return OKO_CONTAINER_OF(m, struct array_map, map);
}

static size_t
array_memory(const struct oko_map_decl *d, char error[OKO_ERROR_MAX])
{
    if (d->key_size != ARRAY_KEY_SIZE) {
        snprintf(error, OKO_ERROR_MAX, "map '%s': an array's key is a u32 "
                 "index (key_size 4), not %u", d->name, d->key_size);
        return 0;
    }
    if (d->value_size == 0 || d->value_size > OKO_MAP_MAX_VALUE_SIZE
        || d->flags) {
        snprintf(error, OKO_ERROR_MAX, "map '%s': value_size %u (1 to %d) "
                 "and flags %u (0)", d->name, d->value_size,
                 OKO_MAP_MAX_VALUE_SIZE, d->flags);
        return 0;
    }
    return (size_t) d->max_entries * OKO_ROUND8(d->value_size);
}

static struct oko_map *
array_alloc(const struct oko_map_decl *d)
{
    struct array_map *a = oko_map_zalloc(sizeof *a);
    if (!a) {
        return NULL;
    }
    a->value_stride = OKO_ROUND8(d->value_size);
    a->values = oko_map_zalloc((size_t) d->max_entries * a->value_stride);
    if (!a->values) {
        oko_map_free_memory(a);
        return NULL;
    }
    return &a->map;
}

static void
array_free(struct oko_map *m)
{
    struct array_map *a = array_cast(m);
    oko_map_free_memory(a->values);
    oko_map_free_memory(a);
}

/* The index 'key' names, or max_entries or more if it is out of range. */
static uint32_t
array_index(const void *key)
{
    uint32_t index;
    memcpy(&index, key, ARRAY_KEY_SIZE);
    return index;
}

static _Atomic uint64_t *
array_words(const struct array_map *a, uint32_t index)
{
    return (_Atomic uint64_t *) (void *)
           (a->values + (size_t) index * a->value_stride);
}

/* Stores 'value' (zeroes if NULL) at 'index', a word at a time. */
static void
array_store(struct array_map *a, uint32_t index, const void *value)
{
    _Atomic uint64_t *words = array_words(a, index);
    uint32_t value_size = a->map.decl.value_size;

    for (size_t i = 0; i < a->value_stride / 8; i++) {
        uint64_t w = 0;
        size_t n = value_size - i * 8 < 8 ? value_size - i * 8 : 8;
        if (value) {
            memcpy(&w, (const uint8_t *) value + i * 8, n);
        }
        atomic_store_explicit(&words[i], w, memory_order_relaxed);
    }
}

static void *
array_lookup(struct oko_map *m, const void *key)
{
    struct array_map *a = array_cast(m);
    uint32_t index = array_index(key);

    return index < m->decl.max_entries ? (void *) array_words(a, index)
                                       : NULL;
}

static int
array_update(struct oko_map *m, const void *key, const void *value,
             uint64_t flags)
{
    uint32_t index = array_index(key);

    if (index >= m->decl.max_entries || flags > OKO_UPDATE_EXIST) {
        return -EINVAL;
    }
    if (flags == OKO_UPDATE_NOEXIST) {
        return -EEXIST;                 /* every index exists */
    }
    array_store(array_cast(m), index, value);
    return 0;
}

static int
array_delete(struct oko_map *m, const void *key)
{
    uint32_t index = array_index(key);

    if (index >= m->decl.max_entries) {
        return -EINVAL;
    }
    array_store(array_cast(m), index, NULL);  /* docs/protocol.md: zeroes */
    return 0;
}

static uint32_t
array_count(const struct oko_map *m)
{
    return m->decl.max_entries;
}

static void
array_clear(struct oko_map *m)
{
    for (uint32_t i = 0; i < m->decl.max_entries; i++) {
        array_store(array_cast(m), i, NULL);
    }
}

static int
array_foreach(struct oko_map *m, oko_map_entry_cb *cb, void *aux)
{
    struct array_map *a = array_cast(m);
    uint8_t value[OKO_MAP_MAX_VALUE_SIZE + 8];
    int r = 0;

    for (uint32_t i = 0; i < m->decl.max_entries && !r; i++) {
        _Atomic uint64_t *words = array_words(a, i);
        for (size_t w = 0; w < a->value_stride / 8; w++) {
            uint64_t x = atomic_load_explicit(&words[w],
                                              memory_order_relaxed);
            memcpy(value + w * 8, &x, 8);
        }
        r = cb(&i, ARRAY_KEY_SIZE, value, m->decl.value_size, aux);
    }
    return r;
}

const struct oko_map_ops oko_map_array_ops = {
    .memory = array_memory,
    .alloc = array_alloc,
    .free = array_free,
    .lookup = array_lookup,
    .update = array_update,
    .delete = array_delete,
    .count = array_count,
    .clear = array_clear,
    .foreach = array_foreach,
};
