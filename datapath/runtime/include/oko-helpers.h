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
#ifndef OKO_HELPERS_H
#define OKO_HELPERS_H 1

/* The helpers a filter program may call: their numbers (the "call" imm),
 * names (for calls the ELF loader resolves by symbol), and signatures, which
 * the verifier checks each call against.  docs/filter-programs.md lists them
 * for filter authors; filter-library/include/oko/filter.h declares them. */

#include <stdint.h>

enum oko_helper_id {
    OKO_HELPER_MAP_LOOKUP = 1,      /* void *(map, key) */
    OKO_HELPER_MAP_UPDATE = 2,      /* int64 (map, key, value, flags) */
    OKO_HELPER_MAP_DELETE = 3,      /* int64 (map, key) */
    OKO_HELPER_MAP_ADD    = 4,      /* uint64 (map, key, increment) */
    OKO_HELPER_MAP_QUERY  = 5,      /* uint64 (map, key) */
    OKO_HELPER_TIME_NS    = 6,      /* uint64 (void) */
    OKO_HELPER_HASH       = 7,      /* uint64 (mem, size, seed) */
    OKO_N_HELPERS
};

/* What an argument register must hold at the call. */
enum oko_arg_kind {
    OKO_ARG_NONE,                   /* unused; the register is not read */
    OKO_ARG_MAP,                    /* a map reference (lddw of a map) */
    /* pointer to key_size readable bytes of that map */
    OKO_ARG_KEY,
    /* pointer to value_size readable bytes of that map */
    OKO_ARG_VALUE,
    OKO_ARG_SCALAR,                 /* any number */
    /* pointer to readable bytes, as many as the next argument */
    OKO_ARG_MEM,
    /* number of bytes of the previous argument, at most 512 */
    OKO_ARG_MEM_SIZE,
};

enum oko_ret_kind {
    OKO_RET_SCALAR,
    OKO_RET_MAP_VALUE_OR_NULL,      /* must be compared with 0 before use */
};

struct oko_helper_proto {
    const char *name;
    enum oko_ret_kind ret;
    enum oko_arg_kind args[5];
    /* bit (1 << type): map types the helper accepts */
    uint32_t map_types;
};

/* Returns the prototype of helper 'id', or NULL if there is none. */
const struct oko_helper_proto *oko_helper_proto(int32_t id);

/* Returns the id of the helper called 'name', or 0. */
int32_t oko_helper_by_name(const char *name);

/* The helpers' implementations, indexed by id (NULL where none). */
typedef uint64_t oko_helper_fn(uint64_t, uint64_t, uint64_t, uint64_t,
                               uint64_t);
extern oko_helper_fn *const oko_helper_table[OKO_N_HELPERS];

/* Replaces the clock behind oko_time_ns() (NULL restores CLOCK_MONOTONIC).
 * For offline runs only (oko-filter run --clock pcap replays a trace's own
 * timestamps, so that timeouts and rates are tested deterministically);
 * the switch never calls it.  Not thread-safe: set it before running. */
void oko_helpers_set_clock(uint64_t (*clock)(void));

#endif /* oko-helpers.h */
