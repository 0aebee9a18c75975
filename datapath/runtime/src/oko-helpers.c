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
/* Helper prototypes (for the verifier and the loader) and implementations
 * (for the interpreter and the JIT).  A map argument arrives as the map's
 * address: the linker (oko-filter.c) rewrites each map lddw to it. */

#include "oko-helpers.h"

#include <string.h>
#include <time.h>

#include "oko-map.h"

/* hash array lru lpm */
#define MAPS_KEYED ((1u << 1) | (1u << 2) | (1u << 3) | (1u << 6))
/* hash lru lpm */
#define MAPS_DELETABLE ((1u << 1) | (1u << 3) | (1u << 6))
/* bloom count_min */
#define MAPS_SKETCH ((1u << 4) | (1u << 5))

static const struct oko_helper_proto protos[OKO_N_HELPERS] = {
    [OKO_HELPER_MAP_LOOKUP] = {
        "oko_map_lookup", OKO_RET_MAP_VALUE_OR_NULL,
        { OKO_ARG_MAP, OKO_ARG_KEY }, MAPS_KEYED,
    },
    [OKO_HELPER_MAP_UPDATE] = {
        "oko_map_update", OKO_RET_SCALAR,
        { OKO_ARG_MAP, OKO_ARG_KEY, OKO_ARG_VALUE, OKO_ARG_SCALAR },
        MAPS_KEYED,
    },
    [OKO_HELPER_MAP_DELETE] = {
        "oko_map_delete", OKO_RET_SCALAR,
        { OKO_ARG_MAP, OKO_ARG_KEY }, MAPS_DELETABLE,
    },
    [OKO_HELPER_MAP_ADD] = {
        "oko_map_add", OKO_RET_SCALAR,
        { OKO_ARG_MAP, OKO_ARG_KEY, OKO_ARG_SCALAR }, MAPS_SKETCH,
    },
    [OKO_HELPER_MAP_QUERY] = {
        "oko_map_query", OKO_RET_SCALAR,
        { OKO_ARG_MAP, OKO_ARG_KEY }, MAPS_SKETCH,
    },
    [OKO_HELPER_TIME_NS] = {
        "oko_time_ns", OKO_RET_SCALAR, { OKO_ARG_NONE }, 0,
    },
    [OKO_HELPER_HASH] = {
        "oko_hash", OKO_RET_SCALAR,
        { OKO_ARG_MEM, OKO_ARG_MEM_SIZE, OKO_ARG_SCALAR }, 0,
    },
};

const struct oko_helper_proto *
oko_helper_proto(int32_t id)
{
    return id > 0 && id < OKO_N_HELPERS && protos[id].name ? &protos[id]
                                                           : NULL;
}

int32_t
oko_helper_by_name(const char *name)
{
    for (int32_t id = 1; id < OKO_N_HELPERS; id++) {
        if (protos[id].name && !strcmp(protos[id].name, name)) {
            return id;
        }
    }
    return 0;
}

static uint64_t
map_lookup(uint64_t map, uint64_t key, uint64_t a3, uint64_t a4, uint64_t a5)
{
    (void) a3; (void) a4; (void) a5;
    void *value = oko_map_lookup((struct oko_map *) (uintptr_t) map,
                                 (const void *) (uintptr_t) key);
    return (uintptr_t) value;
}

static uint64_t
map_update(uint64_t map, uint64_t key, uint64_t value, uint64_t flags,
           uint64_t a5)
{
    (void) a5;
    return (int64_t) oko_map_update((struct oko_map *) (uintptr_t) map,
                                    (const void *) (uintptr_t) key,
                                    (const void *) (uintptr_t) value, flags);
}

static uint64_t
map_delete(uint64_t map, uint64_t key, uint64_t a3, uint64_t a4, uint64_t a5)
{
    (void) a3; (void) a4; (void) a5;
    return (int64_t) oko_map_delete((struct oko_map *) (uintptr_t) map,
                                    (const void *) (uintptr_t) key);
}

static uint64_t
map_add(uint64_t map, uint64_t key, uint64_t increment, uint64_t a4,
        uint64_t a5)
{
    (void) a4; (void) a5;
    return oko_map_add((struct oko_map *) (uintptr_t) map,
                       (const void *) (uintptr_t) key, increment);
}

static uint64_t
map_query(uint64_t map, uint64_t key, uint64_t a3, uint64_t a4, uint64_t a5)
{
    (void) a3; (void) a4; (void) a5;
    return oko_map_query((struct oko_map *) (uintptr_t) map,
                         (const void *) (uintptr_t) key);
}

/* NULL in the switch: a branch that is always predicted right. */
static uint64_t (*clock_override)(void);

void
oko_helpers_set_clock(uint64_t (*clock)(void))
{
    clock_override = clock;
}

static uint64_t
time_ns(uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
    (void) a1; (void) a2; (void) a3; (void) a4; (void) a5;
    if (clock_override) {
        return clock_override();
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t
hash(uint64_t mem, uint64_t size, uint64_t seed, uint64_t a4, uint64_t a5)
{
    (void) a4; (void) a5;
    return oko_hash_bytes((const void *) (uintptr_t) mem, size, seed);
}

oko_helper_fn *const oko_helper_table[OKO_N_HELPERS] = {
    [OKO_HELPER_MAP_LOOKUP] = map_lookup,
    [OKO_HELPER_MAP_UPDATE] = map_update,
    [OKO_HELPER_MAP_DELETE] = map_delete,
    [OKO_HELPER_MAP_ADD] = map_add,
    [OKO_HELPER_MAP_QUERY] = map_query,
    [OKO_HELPER_TIME_NS] = time_ns,
    [OKO_HELPER_HASH] = hash,
};
