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
/* Maps (see oko-map.h for the concurrency contract).
 *
 * Hash, LRU hash and LPM maps share one lock-free-read hash table: buckets
 * of singly linked chains whose links are published with release stores
 * and read with acquire loads.  Writers serialise per bucket with a spin
 * lock.  Entries come from a pool allocated with the map (max_entries plus
 * a margin for entries waiting out their grace period), so neither
 * programs nor the control path allocate memory to insert.
 *
 * LRU: each entry carries the map's clock value of its last use (the clock
 * ticks on every insert; a lookup copies it, writing only when it
 * changed).  When full, an insert evicts the least recently used of
 * OKO_MAP_LRU_SAMPLE entries taken round-robin from the pool, which is the
 * exact LRU entry whenever the pool is no larger than the sample.
 *
 * LPM: entries are stored under their masked prefix; a lookup tries the
 * prefix lengths in use, longest first. */

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
#include "oko-helpers.h"

#define ROUND8(x) (((x) + 7) & ~(size_t) 7)

enum { TYPE_HASH = 1, TYPE_ARRAY, TYPE_LRU, TYPE_BLOOM, TYPE_COUNT_MIN, TYPE_LPM };
enum { ENTRY_FREE, ENTRY_LIVE, ENTRY_DEAD };

struct entry {
    _Atomic(struct entry *) next;       /* chain */
    struct entry *pool_next;            /* free list or limbo, under pool_lock */
    uint64_t retired;                   /* epoch stamp, in limbo */
    _Atomic uint64_t last_used;         /* LRU clock */
    _Atomic uint32_t hash;
    _Atomic uint8_t state;
    uint64_t data[];                    /* key, then value, each 8-aligned */
};

struct bucket {
    _Atomic(struct entry *) head;
    atomic_flag lock;
};

struct oko_map {
    struct oko_map_decl decl;
    _Atomic uint32_t refs;
    int type;
    uint64_t seed;

    /* Hash, LRU, LPM. */
    struct bucket *buckets;
    uint32_t bucket_mask;
    uint8_t *pool;
    size_t entry_size, key_stride;
    uint32_t pool_size;
    atomic_flag pool_lock;
    struct entry *free_list;
    struct entry *limbo_head, *limbo_tail;
    _Atomic uint32_t count;
    _Atomic uint64_t clock;
    _Atomic uint32_t evict_cursor;
    /* Statistics (oko_map_get_stats()): rare events, so shared atomic
     * counters cost nothing on the common path. */
    _Atomic uint64_t evictions;         /* LRU */
    _Atomic uint64_t refused_full;      /* hash, LPM: -E2BIG */
    /* Sketches: non-zero words (bloom) or cells (count-min), kept by the
     * adds that change a word or cell from or to zero, so that statistics
     * never scan a sketch (a count-min one may have 2^27 cells). */
    _Atomic uint32_t nonzero;
    _Atomic uint32_t prefix_count[129]; /* LPM: entries per prefix length */
    uint32_t addr_bits;                 /* LPM */

    /* Array. */
    uint8_t *values;
    size_t value_stride;

    /* Sketches. */
    _Atomic uint64_t *bits;             /* bloom */
    _Atomic uint32_t *cells;            /* count-min */
    uint32_t width, depth, n_hashes;
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

static uint32_t
round_pow2(uint64_t x)
{
    uint32_t r = 1;
    while (r < x && r < (1u << 31)) {
        r <<= 1;
    }
    return r;
}

static uint32_t
pool_margin(uint32_t max_entries)
{
    return 64 + max_entries / 16;
}

size_t
oko_map_memory(const struct oko_map_decl *d, char error[OKO_ERROR_MAX])
{
#define BAD(...) (snprintf(error, OKO_ERROR_MAX, __VA_ARGS__), (size_t) 0)
    if (d->max_entries == 0 || d->max_entries > OKO_MAP_MAX_ENTRIES) {
        return BAD("map '%s': max_entries %u; it must be 1 to %u", d->name, d->max_entries,
                   OKO_MAP_MAX_ENTRIES);
    }
    switch (d->type) {
    case TYPE_HASH:
    case TYPE_LRU:
    case TYPE_LPM: {
        if (d->type == TYPE_LPM) {
            if (d->key_size < 5 || d->key_size > 4 + 16) {
                return BAD("map '%s': an lpm key is a u32 prefix length and 1 to 16 address "
                           "bytes (key_size 5 to 20), not %u", d->name, d->key_size);
            }
        } else if (d->key_size == 0 || d->key_size > OKO_MAP_MAX_KEY_SIZE) {
            return BAD("map '%s': key_size %u; it must be 1 to %d", d->name, d->key_size,
                       OKO_MAP_MAX_KEY_SIZE);
        }
        if (d->value_size == 0 || d->value_size > OKO_MAP_MAX_VALUE_SIZE) {
            return BAD("map '%s': value_size %u; it must be 1 to %d", d->name, d->value_size,
                       OKO_MAP_MAX_VALUE_SIZE);
        }
        if (d->flags) {
            return BAD("map '%s': flags must be 0 for this type", d->name);
        }
        size_t entry = sizeof(struct entry) + ROUND8(d->key_size) + ROUND8(d->value_size);
        size_t n = (size_t) d->max_entries + pool_margin(d->max_entries);
        return n * entry + round_pow2(d->max_entries) * sizeof(struct bucket);
    }
    case TYPE_ARRAY:
        if (d->key_size != 4) {
            return BAD("map '%s': an array's key is a u32 index (key_size 4), not %u",
                       d->name, d->key_size);
        }
        if (d->value_size == 0 || d->value_size > OKO_MAP_MAX_VALUE_SIZE || d->flags) {
            return BAD("map '%s': value_size %u (1 to %d) and flags %u (0)", d->name,
                       d->value_size, OKO_MAP_MAX_VALUE_SIZE, d->flags);
        }
        return (size_t) d->max_entries * ROUND8(d->value_size);
    case TYPE_BLOOM:
        if (d->key_size == 0 || d->key_size > OKO_MAP_MAX_KEY_SIZE || d->value_size != 0) {
            return BAD("map '%s': a bloom filter has key_size 1 to %d and value_size 0",
                       d->name, OKO_MAP_MAX_KEY_SIZE);
        }
        if (d->flags > OKO_MAP_BLOOM_MAX_HASHES) {
            return BAD("map '%s': flags is the number of hash functions, at most %d",
                       d->name, OKO_MAP_BLOOM_MAX_HASHES);
        }
        return (round_pow2(d->max_entries < 64 ? 64 : d->max_entries) / 64) * 8;
    case TYPE_COUNT_MIN:
        if (d->key_size == 0 || d->key_size > OKO_MAP_MAX_KEY_SIZE || d->value_size != 4) {
            return BAD("map '%s': a count-min sketch has key_size 1 to %d and value_size 4 "
                       "(u32 counters)", d->name, OKO_MAP_MAX_KEY_SIZE);
        }
        if (d->flags > OKO_MAP_COUNT_MIN_MAX_DEPTH) {
            return BAD("map '%s': flags is the number of rows, at most %d", d->name,
                       OKO_MAP_COUNT_MIN_MAX_DEPTH);
        }
        return (size_t) round_pow2(d->max_entries)
               * (d->flags ? d->flags : OKO_MAP_COUNT_MIN_DEFAULT_DEPTH) * 4;
    default:
        return BAD("map '%s': unknown map type %u", d->name, d->type);
    }
#undef BAD
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
static void *
zalloc_aligned(size_t size)
{
    void *p = aligned_alloc(64, (size + 63) & ~(size_t) 63);
    if (p) {
        memset(p, 0, size);
    }
    return p;
}

static void
free_aligned(void *block)
{
    free(block);
}
#else
static void *
zalloc_aligned(size_t size)
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

static void
free_aligned(void *block)
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
oko_map_create(const struct oko_map_decl *d, struct oko_map **mapp, char error[OKO_ERROR_MAX])
{
    *mapp = NULL;
    if (!oko_map_memory(d, error)) {
        return EINVAL;
    }
    struct oko_map *m = zalloc_aligned(sizeof *m);
    if (!m) {
        goto nomem;
    }
    m->decl = *d;
    atomic_init(&m->refs, 1);
    m->type = d->type;
    atomic_flag_clear(&m->pool_lock);
    if (getrandom(&m->seed, sizeof m->seed, 0) != sizeof m->seed) {
        m->seed = (uintptr_t) m ^ UINT64_C(0x5851f42d4c957f2d);
    }

    switch (m->type) {
    case TYPE_LPM:
        m->addr_bits = (d->key_size - 4) * 8;
        /* fall through */
    case TYPE_HASH:
    case TYPE_LRU: {
        uint32_t n_buckets = round_pow2(d->max_entries);
        m->bucket_mask = n_buckets - 1;
        m->buckets = zalloc_aligned(n_buckets * sizeof *m->buckets);
        m->key_stride = ROUND8(d->key_size);
        m->entry_size = sizeof(struct entry) + m->key_stride + ROUND8(d->value_size);
        m->pool_size = d->max_entries + pool_margin(d->max_entries);
        m->pool = zalloc_aligned((size_t) m->pool_size * m->entry_size);
        if (!m->buckets || !m->pool) {
            goto nomem;
        }
        for (uint32_t i = 0; i < n_buckets; i++) {
            atomic_flag_clear(&m->buckets[i].lock);
        }
        for (uint32_t i = m->pool_size; i-- > 0;) {
            struct entry *e = (struct entry *) (void *) (m->pool + (size_t) i * m->entry_size);
            e->pool_next = m->free_list;
            m->free_list = e;
        }
        break;
    }
    case TYPE_ARRAY:
        m->value_stride = ROUND8(d->value_size);
        m->values = zalloc_aligned((size_t) d->max_entries * m->value_stride);
        if (!m->values) {
            goto nomem;
        }
        break;
    case TYPE_BLOOM:
        m->width = round_pow2(d->max_entries < 64 ? 64 : d->max_entries);
        m->n_hashes = d->flags ? d->flags : OKO_MAP_BLOOM_DEFAULT_HASHES;
        m->bits = zalloc_aligned(m->width / 8);
        if (!m->bits) {
            goto nomem;
        }
        break;
    case TYPE_COUNT_MIN:
        m->width = round_pow2(d->max_entries);
        m->depth = d->flags ? d->flags : OKO_MAP_COUNT_MIN_DEFAULT_DEPTH;
        m->cells = zalloc_aligned((size_t) m->width * m->depth * 4);
        if (!m->cells) {
            goto nomem;
        }
        break;
    }
    *mapp = m;
    return 0;

nomem:
    snprintf(error, OKO_ERROR_MAX, "map '%s': out of memory", d->name);
    oko_map_destroy(m);
    return ENOMEM;
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
           && a->value_size == b->value_size && a->max_entries == b->max_entries
           && a->flags == b->flags;
}

void
oko_map_destroy(struct oko_map *m)
{
    if (m && atomic_fetch_sub(&m->refs, 1) == 1) {
        free_aligned(m->buckets);
        free_aligned(m->pool);
        free_aligned(m->values);
        free_aligned(m->bits);
        free_aligned(m->cells);
        free_aligned(m);
    }
}

const struct oko_map_decl *
oko_map_get_decl(const struct oko_map *m)
{
    return &m->decl;
}

/* ---- Hash table ---- */

static void *
entry_key(struct entry *e)
{
    return e->data;
}

static void *
entry_value(const struct oko_map *m, struct entry *e)
{
    return (uint8_t *) e->data + m->key_stride;
}

static struct entry *
alloc_entry(struct oko_map *m)
{
    spin_lock(&m->pool_lock);
    if (!m->free_list && m->limbo_head) {
        uint64_t oldest = oko_epoch_oldest_active();
        while (m->limbo_head && m->limbo_head->retired < oldest) {
            struct entry *e = m->limbo_head;
            m->limbo_head = e->pool_next;
            e->pool_next = m->free_list;
            m->free_list = e;
        }
        if (!m->limbo_head) {
            m->limbo_tail = NULL;
        }
    }
    struct entry *e = m->free_list;
    if (e) {
        m->free_list = e->pool_next;
    }
    spin_unlock(&m->pool_lock);
    return e;
}

/* Gives back an entry no reader has seen. */
static void
free_entry_now(struct oko_map *m, struct entry *e)
{
    atomic_store_explicit(&e->state, ENTRY_FREE, memory_order_relaxed);
    spin_lock(&m->pool_lock);
    e->pool_next = m->free_list;
    m->free_list = e;
    spin_unlock(&m->pool_lock);
}

/* Gives back an entry just unlinked: readers may still hold it. */
static void
retire_entry(struct oko_map *m, struct entry *e)
{
    atomic_store_explicit(&e->state, ENTRY_DEAD, memory_order_relaxed);
    uint64_t stamp = oko_epoch_retire();
    spin_lock(&m->pool_lock);
    e->retired = stamp;
    e->pool_next = NULL;
    if (m->limbo_tail) {
        m->limbo_tail->pool_next = e;
    } else {
        m->limbo_head = e;
    }
    m->limbo_tail = e;
    spin_unlock(&m->pool_lock);
}

static struct entry *
chain_find(const struct oko_map *m, struct bucket *b, const void *key, uint32_t hash)
{
    for (struct entry *e = atomic_load_explicit(&b->head, memory_order_acquire); e;
         e = atomic_load_explicit(&e->next, memory_order_acquire)) {
        if (atomic_load_explicit(&e->hash, memory_order_relaxed) == hash
            && !memcmp(e->data, key, m->decl.key_size)) {
            return e;
        }
    }
    return NULL;
}

/* Under the bucket lock: the link that points at 'target', or NULL. */
static _Atomic(struct entry *) *
chain_link_to(struct bucket *b, struct entry *target)
{
    _Atomic(struct entry *) *link = &b->head;
    for (struct entry *e; (e = atomic_load_explicit(link, memory_order_relaxed)); link = &e->next) {
        if (e == target) {
            return link;
        }
    }
    return NULL;
}

static void *
hash_lookup(struct oko_map *m, const void *key)
{
    uint32_t hash = oko_hash_bytes(key, m->decl.key_size, m->seed);
    struct entry *e = chain_find(m, &m->buckets[hash & m->bucket_mask], key, hash);
    if (!e) {
        return NULL;
    }
    if (m->type == TYPE_LRU) {
        uint64_t now = atomic_load_explicit(&m->clock, memory_order_relaxed);
        if (atomic_load_explicit(&e->last_used, memory_order_relaxed) != now) {
            atomic_store_explicit(&e->last_used, now, memory_order_relaxed);
        }
    }
    return entry_value(m, e);
}

/* Evicts the least recently used of a sample of entries.  Returns false if
 * none could be evicted. */
static bool
lru_evict_one(struct oko_map *m)
{
    uint32_t sample = m->pool_size < OKO_MAP_LRU_SAMPLE ? m->pool_size : OKO_MAP_LRU_SAMPLE;
    for (int attempt = 0; attempt < 4; attempt++) {
        uint32_t start = atomic_fetch_add_explicit(&m->evict_cursor, sample,
                                                   memory_order_relaxed) % m->pool_size;
        struct entry *victim = NULL;
        uint64_t oldest = UINT64_MAX;
        for (uint32_t i = 0; i < sample; i++) {
            uint32_t index = (start + i) % m->pool_size;
            struct entry *e = (struct entry *) (void *) (m->pool + (size_t) index * m->entry_size);
            if (atomic_load_explicit(&e->state, memory_order_acquire) == ENTRY_LIVE) {
                uint64_t used = atomic_load_explicit(&e->last_used, memory_order_relaxed);
                if (used < oldest) {
                    oldest = used;
                    victim = e;
                }
            }
        }
        if (!victim) {
            continue;
        }
        struct bucket *b = &m->buckets[atomic_load_explicit(&victim->hash, memory_order_relaxed)
                                       & m->bucket_mask];
        spin_lock(&b->lock);
        _Atomic(struct entry *) *link = chain_link_to(b, victim);
        if (link && atomic_load_explicit(&victim->state, memory_order_relaxed) == ENTRY_LIVE) {
            atomic_store_explicit(link, atomic_load_explicit(&victim->next, memory_order_relaxed),
                                  memory_order_release);
            atomic_fetch_sub(&m->count, 1);
            spin_unlock(&b->lock);
            retire_entry(m, victim);
            atomic_fetch_add_explicit(&m->evictions, 1, memory_order_relaxed);
            return true;
        }
        spin_unlock(&b->lock);
    }
    return false;
}

/* Inserts or replaces 'key' (already masked, for LPM).  'is_new' reports
 * whether the key was absent. */
static int
hash_update(struct oko_map *m, const void *key, const void *value, uint64_t flags,
            bool *is_new)
{
    if (flags > OKO_UPDATE_EXIST) {
        return -EINVAL;
    }
    uint32_t hash = oko_hash_bytes(key, m->decl.key_size, m->seed);
    struct bucket *b = &m->buckets[hash & m->bucket_mask];

    struct entry *e = alloc_entry(m);
    if (!e && m->type == TYPE_LRU && lru_evict_one(m)) {
        e = alloc_entry(m);
    }
    if (!e) {
        return -EBUSY;
    }
    memcpy(entry_key(e), key, m->decl.key_size);
    memcpy(entry_value(m, e), value, m->decl.value_size);
    atomic_store_explicit(&e->hash, hash, memory_order_relaxed);
    atomic_store_explicit(&e->last_used, atomic_fetch_add(&m->clock, 1) + 1,
                          memory_order_relaxed);

    spin_lock(&b->lock);
    struct entry *old = chain_find(m, b, key, hash);
    int err = 0;
    if (old && flags == OKO_UPDATE_NOEXIST) {
        err = -EEXIST;
    } else if (!old && flags == OKO_UPDATE_EXIST) {
        err = -ENOENT;
    } else if (!old && m->type != TYPE_LRU
               && atomic_fetch_add(&m->count, 1) >= m->decl.max_entries) {
        atomic_fetch_sub(&m->count, 1);
        atomic_fetch_add_explicit(&m->refused_full, 1, memory_order_relaxed);
        err = -E2BIG;
    }
    if (err) {
        spin_unlock(&b->lock);
        free_entry_now(m, e);
        return err;
    }
    atomic_store_explicit(&e->state, ENTRY_LIVE, memory_order_relaxed);
    if (old) {
        _Atomic(struct entry *) *link = chain_link_to(b, old);
        atomic_store_explicit(&e->next, atomic_load_explicit(&old->next, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(link, e, memory_order_release);
    } else {
        atomic_store_explicit(&e->next, atomic_load_explicit(&b->head, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&b->head, e, memory_order_release);
        if (m->type == TYPE_LRU) {
            atomic_fetch_add(&m->count, 1);
        }
    }
    spin_unlock(&b->lock);
    if (old) {
        retire_entry(m, old);
    }
    *is_new = !old;
    while (m->type == TYPE_LRU && atomic_load(&m->count) > m->decl.max_entries
           && lru_evict_one(m)) {
        continue;
    }
    return 0;
}

static int
hash_delete(struct oko_map *m, const void *key)
{
    uint32_t hash = oko_hash_bytes(key, m->decl.key_size, m->seed);
    struct bucket *b = &m->buckets[hash & m->bucket_mask];
    spin_lock(&b->lock);
    struct entry *e = chain_find(m, b, key, hash);
    if (!e) {
        spin_unlock(&b->lock);
        return -ENOENT;
    }
    _Atomic(struct entry *) *link = chain_link_to(b, e);
    atomic_store_explicit(link, atomic_load_explicit(&e->next, memory_order_relaxed),
                          memory_order_release);
    atomic_fetch_sub(&m->count, 1);
    spin_unlock(&b->lock);
    retire_entry(m, e);
    return 0;
}

/* ---- LPM ---- */

/* Writes 'key' masked to 'plen' bits into 'out' (key_size bytes). */
static void
lpm_mask(const struct oko_map *m, const uint8_t *key, uint32_t plen, uint8_t *out)
{
    uint32_t n = m->decl.key_size - 4;
    memcpy(out, &plen, 4);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t bits = plen > i * 8 ? plen - i * 8 : 0;
        uint8_t mask = bits >= 8 ? 0xff : (uint8_t) (0xff << (8 - bits));
        out[4 + i] = key[4 + i] & mask;
    }
}

static void *
lpm_lookup(struct oko_map *m, const void *key)
{
    uint8_t masked[4 + 16];
    uint32_t plen;
    memcpy(&plen, key, 4);
    if (plen > m->addr_bits) {
        plen = m->addr_bits;
    }
    for (int p = plen; p >= 0; p--) {
        if (atomic_load_explicit(&m->prefix_count[p], memory_order_relaxed)) {
            lpm_mask(m, key, p, masked);
            void *value = hash_lookup(m, masked);
            if (value) {
                return value;
            }
        }
    }
    return NULL;
}

static int
lpm_update(struct oko_map *m, const void *key, const void *value, uint64_t flags)
{
    uint8_t masked[4 + 16];
    uint32_t plen;
    memcpy(&plen, key, 4);
    if (plen > m->addr_bits) {
        return -EINVAL;
    }
    lpm_mask(m, key, plen, masked);
    bool is_new;
    /* Count first, so a lookup racing with the insert tries this length. */
    atomic_fetch_add(&m->prefix_count[plen], 1);
    int err = hash_update(m, masked, value, flags, &is_new);
    if (err || !is_new) {
        atomic_fetch_sub(&m->prefix_count[plen], 1);
    }
    return err;
}

static int
lpm_delete(struct oko_map *m, const void *key)
{
    uint8_t masked[4 + 16];
    uint32_t plen;
    memcpy(&plen, key, 4);
    if (plen > m->addr_bits) {
        return -EINVAL;
    }
    lpm_mask(m, key, plen, masked);
    int err = hash_delete(m, masked);
    if (!err) {
        atomic_fetch_sub(&m->prefix_count[plen], 1);
    }
    return err;
}

/* ---- Array ---- */

static void
array_store(struct oko_map *m, uint32_t index, const void *value)
{
    _Atomic uint64_t *words
        = (_Atomic uint64_t *) (void *) (m->values + (size_t) index * m->value_stride);
    for (size_t i = 0; i < m->value_stride / 8; i++) {
        uint64_t w = 0;
        size_t n = m->decl.value_size - i * 8 < 8 ? m->decl.value_size - i * 8 : 8;
        if (value) {
            memcpy(&w, (const uint8_t *) value + i * 8, n);
        }
        atomic_store_explicit(&words[i], w, memory_order_relaxed);
    }
}

/* ---- Sketches ---- */

static uint32_t
sketch_index(const struct oko_map *m, uint64_t hash, uint32_t i)
{
    uint32_t h1 = hash, h2 = (hash >> 32) | 1;
    return (h1 + i * h2) & (m->width - 1);
}

/* ---- Operations ---- */

void *
oko_map_lookup(struct oko_map *m, const void *key)
{
    switch (m->type) {
    case TYPE_HASH:
    case TYPE_LRU:
        return hash_lookup(m, key);
    case TYPE_ARRAY: {
        uint32_t index;
        memcpy(&index, key, 4);
        return index < m->decl.max_entries ? m->values + (size_t) index * m->value_stride : NULL;
    }
    case TYPE_LPM:
        return lpm_lookup(m, key);
    default:
        return NULL;
    }
}

int
oko_map_update(struct oko_map *m, const void *key, const void *value, uint64_t flags)
{
    bool is_new;
    switch (m->type) {
    case TYPE_HASH:
    case TYPE_LRU:
        return hash_update(m, key, value, flags, &is_new);
    case TYPE_ARRAY: {
        uint32_t index;
        memcpy(&index, key, 4);
        if (index >= m->decl.max_entries || flags > OKO_UPDATE_EXIST) {
            return -EINVAL;
        }
        if (flags == OKO_UPDATE_NOEXIST) {
            return -EEXIST;                 /* every index exists */
        }
        array_store(m, index, value);
        return 0;
    }
    case TYPE_LPM:
        return lpm_update(m, key, value, flags);
    default:
        return -EOPNOTSUPP;
    }
}

int
oko_map_delete(struct oko_map *m, const void *key)
{
    switch (m->type) {
    case TYPE_HASH:
    case TYPE_LRU:
        return hash_delete(m, key);
    case TYPE_ARRAY: {
        uint32_t index;
        memcpy(&index, key, 4);
        if (index >= m->decl.max_entries) {
            return -EINVAL;
        }
        array_store(m, index, NULL);        /* docs/protocol.md: zeroes the value */
        return 0;
    }
    case TYPE_LPM:
        return lpm_delete(m, key);
    default:
        return -EOPNOTSUPP;
    }
}

int64_t
oko_map_add(struct oko_map *m, const void *key, uint32_t increment)
{
    uint64_t hash = oko_hash_bytes(key, m->decl.key_size, m->seed);
    if (m->type == TYPE_BLOOM) {
        for (uint32_t i = 0; i < m->n_hashes; i++) {
            uint32_t bit = sketch_index(m, hash, i);
            uint64_t old = atomic_fetch_or_explicit(&m->bits[bit / 64], UINT64_C(1) << (bit % 64),
                                                    memory_order_relaxed);
            if (__builtin_expect(!old, 0)) {
                atomic_fetch_add_explicit(&m->nonzero, 1, memory_order_relaxed);
            }
        }
        return 0;
    }
    if (m->type == TYPE_COUNT_MIN) {
        uint32_t estimate = UINT32_MAX;
        for (uint32_t row = 0; row < m->depth; row++) {
            _Atomic uint32_t *cell = &m->cells[(size_t) row * m->width
                                               + sketch_index(m, hash, row)];
            uint32_t old = atomic_fetch_add_explicit(cell, increment, memory_order_relaxed);
            uint32_t v = old + increment;
            if (__builtin_expect(!old != !v, 0)) {
                /* From zero, or back to zero by wrapping around. */
                atomic_fetch_add_explicit(&m->nonzero, old ? UINT32_MAX : 1, memory_order_relaxed);
            }
            if (v < estimate) {
                estimate = v;
            }
        }
        return estimate;
    }
    return -EOPNOTSUPP;
}

int64_t
oko_map_query(struct oko_map *m, const void *key)
{
    uint64_t hash = oko_hash_bytes(key, m->decl.key_size, m->seed);
    if (m->type == TYPE_BLOOM) {
        for (uint32_t i = 0; i < m->n_hashes; i++) {
            uint32_t bit = sketch_index(m, hash, i);
            if (!(atomic_load_explicit(&m->bits[bit / 64], memory_order_relaxed)
                  & (UINT64_C(1) << (bit % 64)))) {
                return 0;
            }
        }
        return 1;
    }
    if (m->type == TYPE_COUNT_MIN) {
        uint32_t estimate = UINT32_MAX;
        for (uint32_t row = 0; row < m->depth; row++) {
            uint32_t v = atomic_load_explicit(&m->cells[(size_t) row * m->width
                                                        + sketch_index(m, hash, row)],
                                              memory_order_relaxed);
            if (v < estimate) {
                estimate = v;
            }
        }
        return estimate;
    }
    return -EOPNOTSUPP;
}

uint32_t
oko_map_count(const struct oko_map *m)
{
    switch (m->type) {
    case TYPE_ARRAY:
        return m->decl.max_entries;
    case TYPE_BLOOM:
    case TYPE_COUNT_MIN:
        return atomic_load_explicit(&((struct oko_map *) m)->nonzero, memory_order_relaxed);
    default:
        return atomic_load(&((struct oko_map *) m)->count);
    }
}

void
oko_map_get_stats(const struct oko_map *m_, struct oko_map_stats_counts *stats)
{
    struct oko_map *m = (struct oko_map *) m_;

    stats->used = oko_map_count(m);
    stats->max_entries = m->decl.max_entries;
    stats->evictions = atomic_load_explicit(&m->evictions, memory_order_relaxed);
    stats->refused_full = atomic_load_explicit(&m->refused_full, memory_order_relaxed);
}

int
oko_map_update_ctl(struct oko_map *m, const void *key, const void *value, uint64_t flags)
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
        if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000
            > OKO_MAP_CTL_WAIT_MS) {
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
    switch (m->type) {
    case TYPE_HASH:
    case TYPE_LRU:
    case TYPE_LPM:
        for (uint32_t i = 0; i <= m->bucket_mask; i++) {
            struct bucket *b = &m->buckets[i];
            spin_lock(&b->lock);
            struct entry *e = atomic_load_explicit(&b->head, memory_order_relaxed);
            atomic_store_explicit(&b->head, NULL, memory_order_release);
            spin_unlock(&b->lock);
            while (e) {
                struct entry *next = atomic_load_explicit(&e->next, memory_order_relaxed);
                if (m->type == TYPE_LPM) {
                    uint32_t plen;
                    memcpy(&plen, e->data, 4);
                    atomic_fetch_sub(&m->prefix_count[plen], 1);
                }
                atomic_fetch_sub(&m->count, 1);
                retire_entry(m, e);
                e = next;
            }
        }
        break;
    case TYPE_ARRAY:
        for (uint32_t i = 0; i < m->decl.max_entries; i++) {
            array_store(m, i, NULL);
        }
        break;
    case TYPE_BLOOM:
        for (uint32_t i = 0; i < m->width / 64; i++) {
            atomic_store_explicit(&m->bits[i], 0, memory_order_relaxed);
        }
        break;
    case TYPE_COUNT_MIN:
        for (size_t i = 0; i < (size_t) m->width * m->depth; i++) {
            atomic_store_explicit(&m->cells[i], 0, memory_order_relaxed);
        }
        break;
    }
    /* An add racing with the clear may leave the count one off (a sketch
     * cleared while programs add to it is approximate anyway). */
    atomic_store_explicit(&m->nonzero, 0, memory_order_relaxed);
}

int
oko_map_foreach(struct oko_map *m, oko_map_entry_cb *cb, void *aux)
{
    int r = 0;
    switch (m->type) {
    case TYPE_HASH:
    case TYPE_LRU:
    case TYPE_LPM:
        for (uint32_t i = 0; i <= m->bucket_mask && !r; i++) {
            for (struct entry *e = atomic_load_explicit(&m->buckets[i].head, memory_order_acquire);
                 e && !r; e = atomic_load_explicit(&e->next, memory_order_acquire)) {
                r = cb(e->data, m->decl.key_size, entry_value(m, e), m->decl.value_size, aux);
            }
        }
        return r;
    case TYPE_ARRAY: {
        uint8_t value[OKO_MAP_MAX_VALUE_SIZE + 8];
        for (uint32_t i = 0; i < m->decl.max_entries && !r; i++) {
            _Atomic uint64_t *words = (_Atomic uint64_t *) (void *) (m->values
                                                           + (size_t) i * m->value_stride);
            for (size_t w = 0; w < m->value_stride / 8; w++) {
                uint64_t x = atomic_load_explicit(&words[w], memory_order_relaxed);
                memcpy(value + w * 8, &x, 8);
            }
            r = cb(&i, 4, value, m->decl.value_size, aux);
        }
        return r;
    }
    case TYPE_BLOOM:
        for (uint32_t i = 0; i < m->width / 64 && !r; i++) {
            uint64_t x = atomic_load_explicit(&m->bits[i], memory_order_relaxed);
            if (x) {
                r = cb(&i, 4, &x, 8, aux);
            }
        }
        return r;
    case TYPE_COUNT_MIN:
        for (uint32_t i = 0; i < m->width * m->depth && !r; i++) {
            uint32_t x = atomic_load_explicit(&m->cells[i], memory_order_relaxed);
            if (x) {
                r = cb(&i, 4, &x, 4, aux);
            }
        }
        return r;
    }
    return 0;
}
