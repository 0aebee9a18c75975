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

#ifndef OKO_DP_H
#define OKO_DP_H 1

/* Filter-program chains in the userspace datapath's caches (dpif-netdev).
 *
 * A datapath flow whose translation ran filter programs carries that
 * translation's chain.  A packet that finds the flow, through the EMC, the
 * SMC or the megaflow classifier, takes it only if re-running the chain's
 * programs gives the same result for every one of them; otherwise the
 * lookup goes on (another flow with the same key and mask but a different
 * chain, then the slow path).  A flow without a chain costs one pointer
 * test per hit.
 *
 * Per-packet history: a program runs at most once per packet.  A check
 * that fails records what it ran for the packet, so a later check (another
 * cache, another flow, the slow path) reuses the results.  Nothing is
 * recorded while chains pass, so the common case neither writes nor resets
 * per-packet state.
 *
 * The check is inline: it runs for every cache hit of a flow with a chain,
 * and while the pass has recorded nothing (every chain so far passed) it
 * is only the programs' runs and a comparison per program. */

#include <stdbool.h>
#include <stddef.h>
#include "oko/oko-chain.h"
#include "oko/oko-instance.h"
#include "ovs-thread.h"
#include "util.h"

struct dp_packet;
struct dpcls_rule;
struct ds;
struct oko_instance;

struct oko_dp_link {
    struct oko_instance *inst;      /* Holds a reference. */
    bool result;
};

struct oko_dp_chain {
    unsigned int n;                 /* 1 to OKO_CHAIN_MAX. */
    struct oko_dp_link links[];
};

/* A datapath flow's chain from a translation's: takes a reference on each
 * instance.  Returns NULL with '*ok' true for an empty chain; returns NULL
 * with '*ok' false if an instance is being freed (a program was replaced
 * meanwhile: the flow must not be installed). */
struct oko_dp_chain *oko_dp_chain_create(const struct oko_chain *, bool *ok);
void oko_dp_chain_destroy(struct oko_dp_chain *);

/* Appends ",oko_chain[7:1,8:0]" to a flow's dp-extra-info. */
void oko_dp_chain_format(const struct oko_dp_chain *, struct ds *);
bool oko_dp_extra_info_has_chain(const char *dp_extra_info);

/* The start of a thread's history (oko-dp.c has the records): records
 * [base, n) belong to the current pass.  NULL until the thread's first
 * slow-path check allocates it. */
struct oko_dp_history_head {
    size_t base;                    /* First record of the current pass. */
    size_t n;                       /* Records in use. */
};
DECLARE_EXTERN_PER_THREAD_DATA(struct oko_dp_history_head *,
                               oko_dp_thread_history);

bool oko_dp_chain_accepts_recorded(const struct oko_dp_chain *,
                                   const struct dp_packet *);
void oko_dp_chain_record_refusal(const struct oko_dp_chain *,
                                 const struct dp_packet *,
                                 unsigned int refused_at, bool result);

/* Does 'packet' get the same result from every program of 'chain'? */
static inline bool
oko_dp_chain_accepts(const struct oko_dp_chain *dp,
                     const struct dp_packet *packet)
{
    const struct oko_dp_history_head *h = *oko_dp_thread_history_get();

    if (OVS_UNLIKELY(!h || h->n != h->base)) {
        /* Some check of this pass failed: this packet's programs may have
         * run already. */
        return oko_dp_chain_accepts_recorded(dp, packet);
    }
    for (unsigned int i = 0; i < dp->n; i++) {
        bool result = oko_instance_run(dp->links[i].inst, packet);

        if (OVS_UNLIKELY(result != dp->links[i].result)) {
            /* Programs before 'i' gave the chain's results. */
            oko_dp_chain_record_refusal(dp, packet, i, result);
            return false;
        }
    }
    return true;
}

/* After 'rule' matched a packet but its flow's chain refused it: the next
 * rule with the same mask and masked key (so with another chain) whose
 * chain accepts 'packet', or NULL. */
struct dpcls_rule *oko_dpcls_next_accepting(const struct dpcls_rule *,
                                            const struct dp_packet *);

/* The results recorded for 'packet' so far, as a chain for the slow path
 * (empty if none). */
void oko_dp_history_get(const struct dp_packet *, struct oko_chain *);

/* Brackets one pass of a batch through the datapath (dp_netdev_input__()),
 * which may nest through recirculation: a nested pass sees only its own
 * history, and leaving drops what the pass recorded. */
size_t oko_dp_history_enter(void);
void oko_dp_history_leave(size_t mark);

#endif /* oko-dp.h */
