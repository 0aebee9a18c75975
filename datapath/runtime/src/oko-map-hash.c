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

/* Hash and LRU hash maps, and the hash table LPM maps are built on.
 *
 * One lock-free-read hash table: buckets of singly linked chains whose
 * links are published with release stores and read with acquire loads.
 * Writers serialise per bucket with a spin lock.  Entries come from a pool
 * allocated with the map (max_entries plus a margin for entries waiting
 * out their grace period), so neither programs nor the control path
 * allocate memory to insert.
 *
 * LRU: each entry carries the map's clock value of its last use (the clock
 * ticks on every insert; a lookup copies it, writing only when it
 * changed).  When full, an insert evicts the least recently used of
 * OKO_MAP_LRU_SAMPLE entries taken round-robin from the pool, which is the
 * exact LRU entry whenever the pool is no larger than the sample. */

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "oko-epoch.h"
#include "oko-map-private.h"

enum { ENTRY_FREE, ENTRY_LIVE, ENTRY_DEAD };

struct oko_hashtab_entry {
    _Atomic(struct oko_hashtab_entry *) next;   /* chain */
    struct oko_hashtab_entry *pool_next;        /* free list or limbo,
                                                 * under pool_lock */
    uint64_t retired;                   /* epoch stamp, in limbo */
    _Atomic uint64_t last_used;         /* LRU clock */
    _Atomic uint32_t hash;
    _Atomic uint8_t state;
    uint64_t data[];                    /* key, then value, each 8-aligned */
};

struct oko_hashtab_bucket {
    _Atomic(struct oko_hashtab_entry *) head;
    atomic_flag lock;
};

static void
spin_lock(atomic_flag *lock)
{
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire)) {
        __builtin_ia32_pause();
    }
}

static void
spin_unlock(atomic_flag *lock)
{
    atomic_flag_clear_explicit(lock, memory_order_release);
}

/* ---- The table ---- */

static uint32_t
pool_margin(uint32_t max_entries)
{
    return 64 + max_entries / 16;
}

static size_t
entry_size(const struct oko_map_decl *d)
{
    return sizeof(struct oko_hashtab_entry) + OKO_ROUND8(d->key_size)
           + OKO_ROUND8(d->value_size);
}

size_t
oko_hashtab_memory(const struct oko_map_decl *d, char error[OKO_ERROR_MAX])
{
    if (d->value_size == 0 || d->value_size > OKO_MAP_MAX_VALUE_SIZE) {
        snprintf(error, OKO_ERROR_MAX,
                 "map '%s': value_size %u; it must be 1 to %d",
                 d->name, d->value_size, OKO_MAP_MAX_VALUE_SIZE);
        return 0;
    }
    if (d->flags) {
        snprintf(error, OKO_ERROR_MAX,
                 "map '%s': flags must be 0 for this type", d->name);
        return 0;
    }
    size_t n = (size_t) d->max_entries + pool_margin(d->max_entries);
    return n * entry_size(d)
           + (size_t) oko_map_round_pow2(d->max_entries)
             * sizeof(struct oko_hashtab_bucket);
}

static struct oko_hashtab_entry *
pool_entry(const struct oko_hashtab *t, uint32_t index)
{
    return (struct oko_hashtab_entry *) (void *)
           (t->pool + (size_t) index * t->entry_size);
}

bool
oko_hashtab_init(struct oko_hashtab *t, const struct oko_map_decl *d,
                 bool lru)
{
    uint32_t n_buckets = oko_map_round_pow2(d->max_entries);

    t->lru = lru;
    atomic_flag_clear(&t->pool_lock);
    t->bucket_mask = n_buckets - 1;
    t->buckets = oko_map_zalloc(n_buckets * sizeof *t->buckets);
    t->key_stride = OKO_ROUND8(d->key_size);
    t->entry_size = entry_size(d);
    t->pool_size = d->max_entries + pool_margin(d->max_entries);
    t->pool = oko_map_zalloc((size_t) t->pool_size * t->entry_size);
    if (!t->buckets || !t->pool) {
        return false;
    }
    for (uint32_t i = 0; i < n_buckets; i++) {
        atomic_flag_clear(&t->buckets[i].lock);
    }
    for (uint32_t i = t->pool_size; i-- > 0;) {
        struct oko_hashtab_entry *e = pool_entry(t, i);
        e->pool_next = t->free_list;
        t->free_list = e;
    }
    return true;
}

void
oko_hashtab_destroy(struct oko_hashtab *t)
{
    oko_map_free_memory(t->buckets);
    oko_map_free_memory(t->pool);
}

static void *
entry_key(struct oko_hashtab_entry *e)
{
    return e->data;
}

static void *
entry_value(const struct oko_hashtab *t, struct oko_hashtab_entry *e)
{
    return (uint8_t *) e->data + t->key_stride;
}

static struct oko_hashtab_entry *
alloc_entry(struct oko_hashtab *t)
{
    spin_lock(&t->pool_lock);
    if (!t->free_list && t->limbo_head) {
        uint64_t oldest = oko_epoch_oldest_active();
        while (t->limbo_head && t->limbo_head->retired < oldest) {
            struct oko_hashtab_entry *e = t->limbo_head;
            t->limbo_head = e->pool_next;
            e->pool_next = t->free_list;
            t->free_list = e;
        }
        if (!t->limbo_head) {
            t->limbo_tail = NULL;
        }
    }
    struct oko_hashtab_entry *e = t->free_list;
    if (e) {
        t->free_list = e->pool_next;
    }
    spin_unlock(&t->pool_lock);
    return e;
}

/* Gives back an entry no reader has seen. */
static void
free_entry_now(struct oko_hashtab *t, struct oko_hashtab_entry *e)
{
    atomic_store_explicit(&e->state, ENTRY_FREE, memory_order_relaxed);
    spin_lock(&t->pool_lock);
    e->pool_next = t->free_list;
    t->free_list = e;
    spin_unlock(&t->pool_lock);
}

/* Gives back an entry just unlinked: readers may still hold it. */
static void
retire_entry(struct oko_hashtab *t, struct oko_hashtab_entry *e)
{
    atomic_store_explicit(&e->state, ENTRY_DEAD, memory_order_relaxed);
    uint64_t stamp = oko_epoch_retire();
    spin_lock(&t->pool_lock);
    e->retired = stamp;
    e->pool_next = NULL;
    if (t->limbo_tail) {
        t->limbo_tail->pool_next = e;
    } else {
        t->limbo_head = e;
    }
    t->limbo_tail = e;
    spin_unlock(&t->pool_lock);
}

static struct oko_hashtab_entry *
chain_find(const struct oko_hashtab *t, struct oko_hashtab_bucket *b,
           const void *key, uint32_t hash)
{
    for (struct oko_hashtab_entry *e
             = atomic_load_explicit(&b->head, memory_order_acquire);
         e; e = atomic_load_explicit(&e->next, memory_order_acquire)) {
        if (atomic_load_explicit(&e->hash, memory_order_relaxed) == hash
            && !memcmp(e->data, key, t->map.decl.key_size)) {
            return e;
        }
    }
    return NULL;
}

/* Under the bucket lock: the link that points at 'target', or NULL. */
static _Atomic(struct oko_hashtab_entry *) *
chain_link_to(struct oko_hashtab_bucket *b, struct oko_hashtab_entry *target)
{
    _Atomic(struct oko_hashtab_entry *) *link = &b->head;
    struct oko_hashtab_entry *e;

    while ((e = atomic_load_explicit(link, memory_order_relaxed))) {
        if (e == target) {
            return link;
        }
        link = &e->next;
    }
    return NULL;
}

static struct oko_hashtab_bucket *
bucket_of(const struct oko_hashtab *t, uint32_t hash)
{
    return &t->buckets[hash & t->bucket_mask];
}

void *
oko_hashtab_lookup(struct oko_hashtab *t, const void *key)
{
    uint32_t hash = oko_hash_bytes(key, t->map.decl.key_size, t->map.seed);
    struct oko_hashtab_entry *e = chain_find(t, bucket_of(t, hash), key, hash);
    if (!e) {
        return NULL;
    }
    if (t->lru) {
        uint64_t now = atomic_load_explicit(&t->clock, memory_order_relaxed);
        if (atomic_load_explicit(&e->last_used, memory_order_relaxed)
            != now) {
            atomic_store_explicit(&e->last_used, now, memory_order_relaxed);
        }
    }
    return entry_value(t, e);
}

/* Evicts the least recently used of a sample of entries.  Returns false if
 * none could be evicted. */
static bool
lru_evict_one(struct oko_hashtab *t)
{
    uint32_t sample = t->pool_size < OKO_MAP_LRU_SAMPLE ? t->pool_size
                                                    : OKO_MAP_LRU_SAMPLE;
    for (int attempt = 0; attempt < 4; attempt++) {
        uint32_t start = atomic_fetch_add_explicit(&t->evict_cursor, sample,
                                                   memory_order_relaxed)
                         % t->pool_size;
        struct oko_hashtab_entry *victim = NULL;
        uint64_t oldest = UINT64_MAX;
        for (uint32_t i = 0; i < sample; i++) {
            uint32_t index = (start + i) % t->pool_size;
            struct oko_hashtab_entry *e = pool_entry(t, index);
            if (atomic_load_explicit(&e->state, memory_order_acquire)
                == ENTRY_LIVE) {
                uint64_t used = atomic_load_explicit(&e->last_used,
                                                     memory_order_relaxed);
                if (used < oldest) {
                    oldest = used;
                    victim = e;
                }
            }
        }
        if (!victim) {
            continue;
        }
        struct oko_hashtab_bucket *b = bucket_of(t, atomic_load_explicit(
                                            &victim->hash,
                                            memory_order_relaxed));
        spin_lock(&b->lock);
        _Atomic(struct oko_hashtab_entry *) *link = chain_link_to(b, victim);
        if (link && atomic_load_explicit(&victim->state, memory_order_relaxed)
                    == ENTRY_LIVE) {
            atomic_store_explicit(link,
                                  atomic_load_explicit(&victim->next,
                                                       memory_order_relaxed),
                                  memory_order_release);
            atomic_fetch_sub(&t->count, 1);
            spin_unlock(&b->lock);
            retire_entry(t, victim);
            atomic_fetch_add_explicit(&t->map.evictions, 1,
                                      memory_order_relaxed);
            return true;
        }
        spin_unlock(&b->lock);
    }
    return false;
}

/* 'key' is already masked, for LPM. */
int
oko_hashtab_update(struct oko_hashtab *t, const void *key, const void *value,
                   uint64_t flags, bool *is_new)
{
    const struct oko_map_decl *d = &t->map.decl;

    if (flags > OKO_UPDATE_EXIST) {
        return -EINVAL;
    }
    uint32_t hash = oko_hash_bytes(key, d->key_size, t->map.seed);
    struct oko_hashtab_bucket *b = bucket_of(t, hash);

    struct oko_hashtab_entry *e = alloc_entry(t);
    if (!e && t->lru && lru_evict_one(t)) {
        e = alloc_entry(t);
    }
    if (!e) {
        return -EBUSY;
    }
    memcpy(entry_key(e), key, d->key_size);
    memcpy(entry_value(t, e), value, d->value_size);
    atomic_store_explicit(&e->hash, hash, memory_order_relaxed);
    atomic_store_explicit(&e->last_used, atomic_fetch_add(&t->clock, 1) + 1,
                          memory_order_relaxed);

    spin_lock(&b->lock);
    struct oko_hashtab_entry *old = chain_find(t, b, key, hash);
    int err = 0;
    if (old && flags == OKO_UPDATE_NOEXIST) {
        err = -EEXIST;
    } else if (!old && flags == OKO_UPDATE_EXIST) {
        err = -ENOENT;
    } else if (!old && !t->lru
               && atomic_fetch_add(&t->count, 1) >= d->max_entries) {
        atomic_fetch_sub(&t->count, 1);
        atomic_fetch_add_explicit(&t->map.refused_full, 1,
                                  memory_order_relaxed);
        err = -E2BIG;
    }
    if (err) {
        spin_unlock(&b->lock);
        free_entry_now(t, e);
        return err;
    }
    atomic_store_explicit(&e->state, ENTRY_LIVE, memory_order_relaxed);
    if (old) {
        _Atomic(struct oko_hashtab_entry *) *link = chain_link_to(b, old);
        atomic_store_explicit(&e->next,
                              atomic_load_explicit(&old->next,
                                                   memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(link, e, memory_order_release);
    } else {
        atomic_store_explicit(&e->next,
                              atomic_load_explicit(&b->head,
                                                   memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&b->head, e, memory_order_release);
        if (t->lru) {
            atomic_fetch_add(&t->count, 1);
        }
    }
    spin_unlock(&b->lock);
    if (old) {
        retire_entry(t, old);
    }
    *is_new = !old;
    while (t->lru && atomic_load(&t->count) > d->max_entries
           && lru_evict_one(t)) {
        continue;
    }
    return 0;
}

int
oko_hashtab_delete(struct oko_hashtab *t, const void *key)
{
    uint32_t hash = oko_hash_bytes(key, t->map.decl.key_size, t->map.seed);
    struct oko_hashtab_bucket *b = bucket_of(t, hash);
    spin_lock(&b->lock);
    struct oko_hashtab_entry *e = chain_find(t, b, key, hash);
    if (!e) {
        spin_unlock(&b->lock);
        return -ENOENT;
    }
    _Atomic(struct oko_hashtab_entry *) *link = chain_link_to(b, e);
    atomic_store_explicit(link,
                          atomic_load_explicit(&e->next, memory_order_relaxed),
                          memory_order_release);
    atomic_fetch_sub(&t->count, 1);
    spin_unlock(&b->lock);
    retire_entry(t, e);
    return 0;
}

uint32_t
oko_hashtab_count(const struct oko_hashtab *t)
{
    return atomic_load(&((struct oko_hashtab *) t)->count);
}

void
oko_hashtab_clear(struct oko_hashtab *t,
                  void (*removed)(struct oko_hashtab *, const void *key))
{
    for (uint32_t i = 0; i <= t->bucket_mask; i++) {
        struct oko_hashtab_bucket *b = &t->buckets[i];
        spin_lock(&b->lock);
        struct oko_hashtab_entry *e = atomic_load_explicit(&b->head,
                                               memory_order_relaxed);
        atomic_store_explicit(&b->head, NULL, memory_order_release);
        spin_unlock(&b->lock);
        while (e) {
            struct oko_hashtab_entry *next = atomic_load_explicit(&e->next,
                                                      memory_order_relaxed);
            if (removed) {
                removed(t, e->data);
            }
            atomic_fetch_sub(&t->count, 1);
            retire_entry(t, e);
            e = next;
        }
    }
}

int
oko_hashtab_foreach(struct oko_hashtab *t, oko_map_entry_cb *cb, void *aux)
{
    const struct oko_map_decl *d = &t->map.decl;
    int r = 0;

    for (uint32_t i = 0; i <= t->bucket_mask && !r; i++) {
        struct oko_hashtab_bucket *b = &t->buckets[i];
        for (struct oko_hashtab_entry *e
                 = atomic_load_explicit(&b->head, memory_order_acquire);
             e && !r;
             e = atomic_load_explicit(&e->next, memory_order_acquire)) {
            r = cb(e->data, d->key_size, entry_value(t, e), d->value_size,
                   aux);
        }
    }
    return r;
}

/* ---- Hash and LRU hash maps ---- */

static size_t
hash_memory(const struct oko_map_decl *d, char error[OKO_ERROR_MAX])
{
    if (d->key_size == 0 || d->key_size > OKO_MAP_MAX_KEY_SIZE) {
        snprintf(error, OKO_ERROR_MAX,
                 "map '%s': key_size %u; it must be 1 to %d",
                 d->name, d->key_size, OKO_MAP_MAX_KEY_SIZE);
        return 0;
    }
    return oko_hashtab_memory(d, error);
}

static struct oko_map *
hash_alloc_common(const struct oko_map_decl *d, bool lru)
{
    struct oko_hashtab *t = oko_map_zalloc(sizeof *t);
    if (t && !oko_hashtab_init(t, d, lru)) {
        oko_hashtab_destroy(t);
        oko_map_free_memory(t);
        t = NULL;
    }
    return t ? &t->map : NULL;
}

static struct oko_map *
hash_alloc(const struct oko_map_decl *d)
{
    return hash_alloc_common(d, false);
}

static struct oko_map *
lru_hash_alloc(const struct oko_map_decl *d)
{
    return hash_alloc_common(d, true);
}

static struct oko_hashtab *
hashtab_cast(const struct oko_map *m)
{
    return OKO_CONTAINER_OF(m, struct oko_hashtab, map);
}

static void
hash_free(struct oko_map *m)
{
    struct oko_hashtab *t = hashtab_cast(m);
    oko_hashtab_destroy(t);
    oko_map_free_memory(t);
}

static void *
hash_lookup(struct oko_map *m, const void *key)
{
    return oko_hashtab_lookup(hashtab_cast(m), key);
}

static int
hash_update(struct oko_map *m, const void *key, const void *value,
            uint64_t flags)
{
    bool is_new;
    return oko_hashtab_update(hashtab_cast(m), key, value, flags, &is_new);
}

static int
hash_delete(struct oko_map *m, const void *key)
{
    return oko_hashtab_delete(hashtab_cast(m), key);
}

static uint32_t
hash_count(const struct oko_map *m)
{
    return oko_hashtab_count(hashtab_cast(m));
}

static void
hash_clear(struct oko_map *m)
{
    oko_hashtab_clear(hashtab_cast(m), NULL);
}

static int
hash_foreach(struct oko_map *m, oko_map_entry_cb *cb, void *aux)
{
    return oko_hashtab_foreach(hashtab_cast(m), cb, aux);
}

const struct oko_map_ops oko_map_hash_ops = {
    .memory = hash_memory,
    .alloc = hash_alloc,
    .free = hash_free,
    .lookup = hash_lookup,
    .update = hash_update,
    .delete = hash_delete,
    .count = hash_count,
    .clear = hash_clear,
    .foreach = hash_foreach,
};

const struct oko_map_ops oko_map_lru_hash_ops = {
    .memory = hash_memory,
    .alloc = lru_hash_alloc,
    .free = hash_free,
    .lookup = hash_lookup,
    .update = hash_update,
    .delete = hash_delete,
    .count = hash_count,
    .clear = hash_clear,
    .foreach = hash_foreach,
};
