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

/* Longest-prefix-match maps: a key is a u32 prefix length and 1 to 16
 * address bytes.  Entries are stored in a hash table (oko-map-hash.c)
 * under their masked prefix; a lookup tries the prefix lengths in use,
 * longest first. */

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "oko-map-private.h"

#define LPM_PREFIX_BYTES 4
#define LPM_MAX_ADDR_BYTES 16
#define LPM_MAX_KEY (LPM_PREFIX_BYTES + LPM_MAX_ADDR_BYTES)

struct lpm_map {
    struct oko_hashtab table;           /* first: its map is the map */
    uint32_t addr_bits;
    _Atomic uint32_t prefix_count[LPM_MAX_ADDR_BYTES * 8 + 1];
};

static struct lpm_map *
lpm_cast(const struct oko_map *m)
{
    return OKO_CONTAINER_OF(m, struct lpm_map, table.map);
}

static size_t
lpm_memory(const struct oko_map_decl *d, char error[OKO_ERROR_MAX])
{
    if (d->key_size <= LPM_PREFIX_BYTES || d->key_size > LPM_MAX_KEY) {
        snprintf(error, OKO_ERROR_MAX, "map '%s': an lpm key is a u32 "
                 "prefix length and 1 to 16 address bytes (key_size 5 to "
                 "20), not %u", d->name, d->key_size);
        return 0;
    }
    return oko_hashtab_memory(d, error);
}

static struct oko_map *
lpm_alloc(const struct oko_map_decl *d)
{
    struct lpm_map *l = oko_map_zalloc(sizeof *l);
    if (!l) {
        return NULL;
    }
    if (!oko_hashtab_init(&l->table, d, false)) {
        oko_hashtab_destroy(&l->table);
        oko_map_free_memory(l);
        return NULL;
    }
    l->addr_bits = (d->key_size - LPM_PREFIX_BYTES) * 8;
    return &l->table.map;
}

static void
lpm_free(struct oko_map *m)
{
    struct lpm_map *l = lpm_cast(m);
    oko_hashtab_destroy(&l->table);
    oko_map_free_memory(l);
}

/* Writes 'key' masked to 'plen' bits into 'out' (key_size bytes). */
static void
lpm_mask(const struct lpm_map *l, const uint8_t *key, uint32_t plen,
         uint8_t *out)
{
    uint32_t n = l->table.map.decl.key_size - LPM_PREFIX_BYTES;
    memcpy(out, &plen, LPM_PREFIX_BYTES);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t bits = plen > i * 8 ? plen - i * 8 : 0;
        uint8_t mask = bits >= 8 ? 0xff : (uint8_t) (0xff << (8 - bits));
        out[LPM_PREFIX_BYTES + i] = key[LPM_PREFIX_BYTES + i] & mask;
    }
}

static uint32_t
lpm_prefix_len(const void *key)
{
    uint32_t plen;
    memcpy(&plen, key, LPM_PREFIX_BYTES);
    return plen;
}

static void *
lpm_lookup(struct oko_map *m, const void *key)
{
    struct lpm_map *l = lpm_cast(m);
    uint8_t masked[LPM_MAX_KEY];
    uint32_t plen = lpm_prefix_len(key);

    if (plen > l->addr_bits) {
        plen = l->addr_bits;
    }
    for (int p = plen; p >= 0; p--) {
        if (atomic_load_explicit(&l->prefix_count[p], memory_order_relaxed)) {
            lpm_mask(l, key, p, masked);
            void *value = oko_hashtab_lookup(&l->table, masked);
            if (value) {
                return value;
            }
        }
    }
    return NULL;
}

static int
lpm_update(struct oko_map *m, const void *key, const void *value,
           uint64_t flags)
{
    struct lpm_map *l = lpm_cast(m);
    uint8_t masked[LPM_MAX_KEY];
    uint32_t plen = lpm_prefix_len(key);
    bool is_new;

    if (plen > l->addr_bits) {
        return -EINVAL;
    }
    lpm_mask(l, key, plen, masked);
    /* Count first, so a lookup racing with the insert tries this length. */
    atomic_fetch_add(&l->prefix_count[plen], 1);
    int err = oko_hashtab_update(&l->table, masked, value, flags, &is_new);
    if (err || !is_new) {
        atomic_fetch_sub(&l->prefix_count[plen], 1);
    }
    return err;
}

static int
lpm_delete(struct oko_map *m, const void *key)
{
    struct lpm_map *l = lpm_cast(m);
    uint8_t masked[LPM_MAX_KEY];
    uint32_t plen = lpm_prefix_len(key);

    if (plen > l->addr_bits) {
        return -EINVAL;
    }
    lpm_mask(l, key, plen, masked);
    int err = oko_hashtab_delete(&l->table, masked);
    if (!err) {
        atomic_fetch_sub(&l->prefix_count[plen], 1);
    }
    return err;
}

static uint32_t
lpm_count(const struct oko_map *m)
{
    return oko_hashtab_count(&lpm_cast(m)->table);
}

static void
lpm_removed(struct oko_hashtab *t, const void *key)
{
    struct lpm_map *l = lpm_cast(&t->map);
    atomic_fetch_sub(&l->prefix_count[lpm_prefix_len(key)], 1);
}

static void
lpm_clear(struct oko_map *m)
{
    oko_hashtab_clear(&lpm_cast(m)->table, lpm_removed);
}

static int
lpm_foreach(struct oko_map *m, oko_map_entry_cb *cb, void *aux)
{
    return oko_hashtab_foreach(&lpm_cast(m)->table, cb, aux);
}

const struct oko_map_ops oko_map_lpm_ops = {
    .memory = lpm_memory,
    .alloc = lpm_alloc,
    .free = lpm_free,
    .lookup = lpm_lookup,
    .update = lpm_update,
    .delete = lpm_delete,
    .count = lpm_count,
    .clear = lpm_clear,
    .foreach = lpm_foreach,
};
