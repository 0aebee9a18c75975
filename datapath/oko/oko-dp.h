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
 * The datapath checks a pass's packets per flow batch, after the caches
 * classified them all (oko_dp_chain_check_batch()), so that a batch costs
 * one call of the chain's fused code (oko-fused.h), which loops over the
 * batch's packets (and one more after each refusal); a refused packet is
 * classified again, with per-packet checks (oko_dp_chain_accepts()) that
 * reuse its history. */

#include <stdbool.h>
#include <stddef.h>
#include "dp-packet.h"
#include "openvswitch/hmap.h"
#include "oko/oko-chain.h"
#include "oko/oko-fused.h"
#include "oko/oko-instance.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "util.h"

struct dp_packet;
struct dpcls_rule;
struct ds;
struct oko_dp_history;
struct oko_instance;

struct oko_dp_link {
    const struct oko_filter *filter; /* inst->filter, one load nearer. */
    struct oko_instance *inst;      /* Holds a reference. */
    bool result;
    struct oko_chain_counter counter; /* Registered with 'inst'. */
};

/* A datapath chain: the chain of the datapath flows of one thread's caches
 * (a PMD thread's, or the non-PMD ports' for the main thread) whose
 * translations ran the same program instances with the same results, in
 * the same order.  One object for all of those flows, made with the first
 * and freed with the last: a pipeline has a few distinct chains and many
 * flows, and a pass over packets of many flows then reads one chain that
 * stays in the cache, where an object per flow cost a cache miss per flow
 * batch and evicted the packets' own lines (docs/performance.md).
 *
 * Only the owner thread checks the chain, so 'until_timed' and 'accepts'
 * have one writer ('accepts' is read by the statistics). */
struct oko_dp_chain {
    /* Read or written by every check. */
    atomic_uint64_t accepts;        /* Fast-path checks that passed. */
    uint64_t until_timed;           /* Checks before the next timed one. */
    bool needs_epoch;               /* A program has maps. */
    unsigned int n;                 /* 1 to OKO_CHAIN_MAX. */
    oko_jit_chain_fn *fused_fn;     /* 'fused''s code, or NULL. */
    struct oko_fused *fused;        /* Holds a reference (oko-fused.h). */

    /* Sharing, under oko-dp.c's 'chains_mutex'. */
    struct hmap_node node;          /* In oko-dp.c's 'chains'. */
    const void *owner;              /* The owner thread's PMD (context). */
    bool fusion_asked;              /* Made while fusion was enabled. */
    atomic_count flows;             /* Datapath flows that have it. */

    struct oko_dp_link links[];
};

/* Keeps Oko's rarely taken code out of the datapath's hottest functions. */
#ifdef __GNUC__
#define OKO_NOINLINE __attribute__((__noinline__))
#else
#define OKO_NOINLINE
#endif

/* Inlined into every caller: a body shared by vanilla's function and
 * Oko's copy, which a constant argument tells apart, so that vanilla's
 * compiles to vanilla's code. */
#ifdef __GNUC__
#define OKO_ALWAYS_INLINE __attribute__((__always_inline__))
#else
#define OKO_ALWAYS_INLINE
#endif

/* Inlines every call it can into the function, recursively: a copy of a
 * function made this way leaves the original's callees with the callers
 * they had, so gcc inlines them into the original as before. */
#ifdef __GNUC__
#define OKO_FLATTEN __attribute__((__flatten__))
#else
#define OKO_FLATTEN
#endif

/* Datapath chains alive in the process (see oko_dp_pass_needed()). */
extern atomic_count oko_dp_n_chains;

static inline bool
oko_dp_chains_exist(void)
{
    return atomic_count_get(&oko_dp_n_chains) != 0;
}

/* Whether the datapath may offload a flow with chain 'chain' (may be NULL)
 * to hardware (other_config:hw-offload).  Never a chained flow: no NIC runs
 * its programs.  Nor, while any program instance or chain exists, a flow
 * without one: offloads are matched and shared by masked match (the
 * "mega ufid"), not by ufid, so a chain-less flow with the same key and
 * mask as a chained one (possible until revalidation deletes a flow that a
 * new filtered rule made stale) would take the chained flow's packets in
 * the NIC, unchecked, as a full offload or through its mark.  A flow
 * offloaded before the first program was loaded stays offloaded until
 * revalidation deletes it, which it does once its translation asks for a
 * program (its ukey has no chain). */
static inline bool
oko_dp_may_offload(const struct oko_dp_chain *chain)
{
    return !chain && !oko_instances_exist() && !oko_dp_chains_exist();
}

/* Which code a pass over a thread's packets runs.  dp_netdev_input__(),
 * fast_path_processing() and handle_packet_upcall() are vanilla's code,
 * byte for byte: the lookups inlined into them run faster or slower by
 * several percent with the shape gcc gives those functions, so Oko leaves
 * them alone and runs copies with the chain checks,
 * oko_dp_netdev_input__() and the functions it calls, while any program
 * instance or datapath chain exists in the process, except in a pass nested
 * in a pass without checks.  With no program loaded the switch runs
 * vanilla's code.
 *
 * A pass without checks meets no chained flow: it starts with none in the
 * thread's caches (no chain exists: chains hold references on their
 * instances, and are counted until their last flow is freed, after the
 * grace period that this thread's pass holds up), and its upcalls, the
 * only source of the thread's chained flows, install none: vanilla's
 * handle_packet_upcall() asks for no chain, so a translation that ran
 * programs (a program loaded during the pass) is executed and not cached
 * (lib/dpif.h).  Recirculations nested in it run without checks too
 * ('vanilla_open'): a nested pass with checks could otherwise install a
 * chained flow that the outer pass's second lookup in
 * fast_path_processing() finds. */
struct oko_dp_thread_passes {
    unsigned int open;              /* Passes with checks entered, nested. */
    unsigned int vanilla_open;      /* Passes without checks, nested. */
};
DECLARE_EXTERN_PER_THREAD_DATA(struct oko_dp_thread_passes,
                               oko_dp_thread_passes);

static inline bool
oko_dp_pass_needed(void)
{
    return ((oko_instances_exist() || oko_dp_chains_exist())
            && !oko_dp_thread_passes_get()->vanilla_open);
}

/* Bracket a pass without checks. */
static inline void
oko_dp_vanilla_pass_enter(void)
{
    oko_dp_thread_passes_get()->vanilla_open++;
}

static inline void
oko_dp_vanilla_pass_leave(void)
{
    oko_dp_thread_passes_get()->vanilla_open--;
}

/* 'n' more accepted checks: each of the chain's programs ran 'n' times with
 * its recorded result.  Only the thread whose caches hold the flow
 * writes. */
static inline void
oko_dp_chain_count_accepts(struct oko_dp_chain *dp, uint64_t n)
{
    uint64_t accepts;

    atomic_read_relaxed(&dp->accepts, &accepts);
    atomic_store_relaxed(&dp->accepts, accepts + n);
}

/* The chain for a new datapath flow of the caches of 'owner' (the
 * dp_netdev_pmd_thread whose thread checks the flow's packets: a PMD
 * thread's, or the non-PMD ports' that threads run under its mutex), from
 * its translation's chain, called by that thread: the owner's existing
 * datapath chain with the same links (made while chain fusion was as it is
 * now) or a new one, which takes a reference on each instance.  Each call
 * that returns a chain needs one oko_dp_chain_destroy().  Returns NULL with
 * '*ok' true for an empty chain; returns NULL with '*ok' false if an
 * instance is being freed (a program was replaced meanwhile: the flow must
 * not be installed). */
struct oko_dp_chain *oko_dp_chain_create__(const struct oko_chain *,
                                           const void *owner, bool *ok);

static inline struct oko_dp_chain *
oko_dp_chain_create(const struct oko_chain *chain, const void *owner,
                    bool *ok)
{
    /* Inline for the empty chain: every upcall asks, most have none. */
    *ok = true;
    return chain->n ? oko_dp_chain_create__(chain, owner, ok) : NULL;
}

/* A flow's chain no longer needed (NULL is ignored): freed with its last
 * flow. */
void oko_dp_chain_destroy(struct oko_dp_chain *);

/* Distinct datapath chains alive, and the datapath flows that have one. */
void oko_dp_chain_count(unsigned int *chains, unsigned int *flows);

/* Appends ",oko_chain[7:1,8:0]" to a flow's dp-extra-info. */
void oko_dp_chain_format(const struct oko_dp_chain *, struct ds *);
bool oko_dp_extra_info_has_chain(const char *dp_extra_info);

/* Does 'packet' get the same result from every program of 'chain'?  (A
 * packet classified again: its history may already say.) */
bool oko_dp_chain_accepts(const struct oko_dp_chain *,
                          const struct dp_packet *);

/* What the chain checks of one pass share, looked up once a pass: the
 * thread's history and program stack. */
struct oko_dp_checks {
    struct oko_dp_history *history;
    void *stack_top;                /* NULL if the thread has no stack. */
};

void oko_dp_checks_init(struct oko_dp_checks *);

/* Out-of-line parts of oko_dp_chain_check_packets(). */
void oko_dp_checks_enter_epoch__(const struct oko_dp_checks *);
size_t oko_dp_chain_check_packets__(const struct oko_dp_checks *,
                                    struct oko_dp_chain *,
                                    struct dp_packet **pkts, size_t n,
                                    struct dp_packet_batch *refused);
void oko_dp_chain_refused__(const struct oko_dp_chain *,
                            const struct dp_packet *,
                            unsigned int refused_at, uint64_t r0);

/* Runs 'dp' over the 'n' packets 'pkts' in order, as their first check in
 * this pass: the packets of one or more flow batches whose flows have this
 * chain (a thread's flows with the same chain share it), in the batches'
 * order.  Returns the number refused: 0 leaves 'pkts' alone; otherwise
 * each refused packet's slot is set to NULL, what ran for it recorded, and
 * the packet added to the end of 'refused'.  'checks' is the pass's
 * (oko_dp_checks_init()).
 *
 * Inline, so that the caller's loop over a pass's batches looks up the
 * thread's state once and pays no call of its own: on a trace with many
 * flows a batch has one to three packets, and a call with its frame cost
 * as much as the packets' checks (docs/performance.md).  What is rare (a
 * timed check, a refusal, no fused code or stack) is out of line. */
static inline size_t
oko_dp_chain_check_packets(const struct oko_dp_checks *checks,
                           struct oko_dp_chain *dp,
                           struct dp_packet **pkts, size_t n,
                           struct dp_packet_batch *refused)
{
    if (OVS_UNLIKELY(dp->needs_epoch)) {
        oko_dp_checks_enter_epoch__(checks); /* See oko_dp_history_enter(). */
    }
    if (OVS_UNLIKELY(dp->until_timed < n || !dp->fused_fn
                     || !checks->stack_top)) {
        return oko_dp_chain_check_packets__(checks, dp, pkts, n, refused);
    }
    dp->until_timed -= n;

    /* One call of the fused code for the packets up to a refusal, then one
     * for the rest: it reads each packet's data and length itself, and
     * refuses a packet no program may run on (oko_jit_chain_fn). */
    oko_jit_chain_fn *fn = dp->fused_fn;
    struct oko_jit_refusal refusal;
    size_t n_refused = 0, i = 0;

    for (;;) {
        i += fn((const void *const *) &pkts[i], n - i, checks->stack_top,
                &refusal);
        if (OVS_LIKELY(i >= n)) {
            break;
        }
        oko_dp_chain_refused__(dp, pkts[i], refusal.at, refusal.r0);
        dp_packet_batch_add(refused, pkts[i]);
        pkts[i] = NULL;
        n_refused++;
        if (++i >= n) {
            break;
        }
    }
    oko_dp_chain_count_accepts(dp, n - n_refused);
    return n_refused;
}

/* Keeps the packets of 'batch' that are not NULL, in order. */
static inline void
oko_dp_batch_compact(struct dp_packet_batch *batch)
{
    size_t kept = 0;

    for (size_t i = 0; i < dp_packet_batch_size(batch); i++) {
        if (batch->packets[i]) {
            batch->packets[kept++] = batch->packets[i];
        }
    }
    batch->count = kept;
}

/* oko_dp_chain_check_packets() over one batch: keeps the packets 'dp'
 * accepts in 'batch' (in order) and moves the others to the end of
 * 'refused'.  Returns the number refused. */
static inline size_t
oko_dp_chain_check_batch(const struct oko_dp_checks *checks,
                         struct oko_dp_chain *dp,
                         struct dp_packet_batch *batch,
                         struct dp_packet_batch *refused)
{
    size_t n_refused = oko_dp_chain_check_packets(
        checks, dp, batch->packets, dp_packet_batch_size(batch), refused);

    if (OVS_UNLIKELY(n_refused)) {
        oko_dp_batch_compact(batch);
    }
    return n_refused;
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
 * history, and leaving drops what the pass recorded.
 *
 * The pass's first check of a chain whose programs have maps also enters
 * the runtime's epoch section, and leaving the pass leaves it: the programs
 * of the whole batch then run inside one section, so a batch pays the
 * section's full barrier once instead of once per program run.  Passes
 * without such programs do not enter it at all. */
size_t oko_dp_history_enter(void);
void oko_dp_history_leave(size_t mark);

/* Threads with a history (made on a thread's first pass, unmapped when the
 * thread exits). */
unsigned int oko_dp_history_count(void);

/* What oko_dp_netdev_input__() keeps for Oko during one pass, held per
 * thread and per nesting depth instead of on that function's stack: its
 * frame then has vanilla's layout, and the caches' stack arrays (keys,
 * batches) keep their places.  Passes nest through recirculation, at most
 * MAX_RECIRC_DEPTH + 1 deep (dpif-netdev.c asserts that this fits). */
#define OKO_DP_PASS_MAX 9

struct oko_dp_pass {
    size_t mark;                    /* From oko_dp_history_enter(). */
    size_t n_arrival;               /* 0 if no chain existed at entry. */
    struct dp_packet *arrival[NETDEV_MAX_BURST];    /* Input order. */
    struct dp_packet_batch upcalls; /* Refused packets for an upcall. */
};

/* Enters a pass over 'packets' (oko_dp_history_enter()), with an empty
 * upcall list and, while chains exist, the input order recorded. */
struct oko_dp_pass *oko_dp_pass_enter(const struct dp_packet_batch *packets);
void oko_dp_pass_leave(struct oko_dp_pass *);

/* Where each packet of a pass's input arrived, for putting the batches that
 * packets refused by a chain join back in arrival order: an open-addressed
 * table of twice NETDEV_MAX_BURST slots (at most half full), built by a pass
 * once it has refused packets, then one probe or two per packet, where a
 * scan of the input cost up to a burst of comparisons (a stateful firewall
 * refuses on most passes). */
#define OKO_DP_ARRIVAL_BITS 6
#define OKO_DP_ARRIVAL_SLOTS (1 << OKO_DP_ARRIVAL_BITS)

struct oko_dp_arrival {
    const struct dp_packet *packet[OKO_DP_ARRIVAL_SLOTS];   /* NULL: free. */
    uint8_t index[OKO_DP_ARRIVAL_SLOTS];    /* Position in the input. */
};

/* Records 'arrival', the pass's 'n' input packets in order
 * (n <= NETDEV_MAX_BURST). */
void oko_dp_arrival_init(struct oko_dp_arrival *,
                         struct dp_packet *const arrival[], size_t n);
/* Sorts 'batch' by arrival; a packet not in the input (none is expected)
 * counts as arrived first.  Stable. */
void oko_dp_arrival_sort(const struct oko_dp_arrival *,
                         struct dp_packet_batch *batch);

#endif /* oko-dp.h */
