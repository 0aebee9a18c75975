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

#ifndef OKO_CHAIN_H
#define OKO_CHAIN_H 1

/* A packet's filter-program chain: the programs its translation ran, with
 * their results, in the order they ran.  A program appears at most once
 * (a second rule naming it reuses the first result), so the chain is also
 * the packet's history: there is no per-packet table to reset, and program
 * ids are not limited to 8 bits.
 *
 * A translation that needs more than OKO_CHAIN_MAX programs still gets the
 * right answer for its packet, but cannot be cached ('overflow'). */

#include <stdbool.h>
#include <stddef.h>
#include "ovs-atomic.h"
#include <stdint.h>
#include "openvswitch/types.h"

struct oko_instance;

#define OKO_CHAIN_MAX 16

struct oko_chain_link {
    const struct oko_instance *inst;  /* The program instance that ran. */
    uint64_t serial;                  /* inst->serial: identifies the
                                       * instance even after it is freed. */
    uint32_t prog_id;                 /* Its id on the rule's bridge. */
    bool result;                      /* Did it accept the packet? */
};

struct oko_chain {
    unsigned int n;                   /* Links in use. */
    bool overflow;                    /* A program did not fit. */
    bool unresolved;                  /* A program was needed but there was
                                       * no packet to run it on. */
    struct oko_chain_link links[OKO_CHAIN_MAX];
};

static inline void
oko_chain_init(struct oko_chain *chain)
{
    chain->n = 0;
    chain->overflow = false;
    chain->unresolved = false;
}

/* Copies 'src' into 'dst': its links in use only (an upcall copies every
 * translation's chain, and most are empty). */
static inline void
oko_chain_copy(struct oko_chain *dst, const struct oko_chain *src)
{
    dst->n = src->n;
    dst->overflow = src->overflow;
    dst->unresolved = src->unresolved;
    for (unsigned int i = 0; i < src->n; i++) {
        dst->links[i] = src->links[i];
    }
}

/* True if 'chain' is not empty or could not be completed, that is, if the
 * translation that built it depended on filter programs. */
static inline bool
oko_chain_used(const struct oko_chain *chain)
{
    return chain->n || chain->overflow || chain->unresolved;
}

/* False after "ovs-appctl oko/disable-chain-caching": no datapath flow
 * carries a chain, so every packet a program decides takes the slow path
 * (as a datapath that cannot check chains would).  For benchmarks, as
 * upcall/disable-megaflows. */
extern atomic_bool oko_chain_caching;

/* True if a cache entry may carry 'chain': it is complete (and chains are
 * cached at all). */
static inline bool
oko_chain_cacheable(const struct oko_chain *chain)
{
    bool caching;

    atomic_read_relaxed(&oko_chain_caching, &caching);
    return caching && !chain->overflow && !chain->unresolved;
}

/* The recorded result of the instance with 'serial' in 'chain' (which may
 * be NULL): 1 or 0, or -1 if it has not run. */
static inline int
oko_chain_find(const struct oko_chain *chain, uint64_t serial)
{
    for (unsigned int i = 0; chain && i < chain->n; i++) {
        if (chain->links[i].serial == serial) {
            return chain->links[i].result;
        }
    }
    return -1;
}

/* Appends a link (if there is room; otherwise marks 'chain' overflowed). */
void oko_chain_append(struct oko_chain *, const struct oko_instance *,
                      bool result);

/* True if 'a' and 'b' ran the same instances, in the same order, with the
 * same results (NULL is an empty chain). */
bool oko_chain_equal(const struct oko_chain *a, const struct oko_chain *b);

/* Mixes 'chain' into the flow id '*ufid', so that datapath flows with the
 * same key but different chains have different ids.  An empty chain
 * leaves '*ufid' alone. */
void oko_chain_fold_ufid(const struct oko_chain *, ovs_u128 *ufid);

/* A malloc'd copy of 'chain', or NULL if it is empty. */
struct oko_chain *oko_chain_clone(const struct oko_chain *);

/* Appends "[7:1,8:0]" (program id: result) to 's'. */
struct ds;
void oko_chain_format(const struct oko_chain *, struct ds *);

#endif /* oko-chain.h */
