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

#include <config.h>
#include "oko/oko-dp.h"

#include <string.h>
#include <sys/mman.h>

#include "cmap.h"
#include "dp-packet.h"
#include "dpif-netdev-private-dpcls.h"
#include "dpif-netdev-private-flow.h"
#include "hash.h"
#include "oko/oko-instance.h"
#include "oko-epoch.h"
#include "openvswitch/dynamic-string.h"
#include "openvswitch/vlog.h"
#include "ovs-thread.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(oko_dp);

/* Chains. */

atomic_count oko_dp_n_chains = ATOMIC_COUNT_INIT(0);

/* The datapath chains alive, by owner and links (see struct oko_dp_chain).
 * Made by upcalls and freed after their last flow's grace period, never
 * on a per-packet path. */
static struct ovs_mutex chains_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap chains OVS_GUARDED_BY(chains_mutex)
    = HMAP_INITIALIZER(&chains);

static uint32_t
chain_hash(const struct oko_chain *chain, const void *owner,
           bool fusion_asked)
{
    uint32_t hash = hash_pointer(owner, fusion_asked);

    for (unsigned int i = 0; i < chain->n; i++) {
        hash = hash_pointer(chain->links[i].inst, hash);
        hash = hash_int(chain->links[i].result, hash);
    }
    return hash;
}

static bool
chain_equals(const struct oko_dp_chain *dp, const struct oko_chain *chain,
             const void *owner, bool fusion_asked)
{
    if (dp->owner != owner || dp->fusion_asked != fusion_asked
        || dp->n != chain->n) {
        return false;
    }
    for (unsigned int i = 0; i < dp->n; i++) {
        if (dp->links[i].inst != chain->links[i].inst
            || dp->links[i].result != chain->links[i].result) {
            return false;
        }
    }
    return true;
}

/* Frees 'dp' and its references (it is out of 'chains'). */
static void
oko_dp_chain_free(struct oko_dp_chain *dp)
{
    oko_fused_put(dp->fused);       /* Before the programs it embeds. */
    for (unsigned int i = 0; i < dp->n; i++) {
        oko_instance_remove_counter(dp->links[i].inst,
                                    &dp->links[i].counter);
        oko_instance_unref(dp->links[i].inst);
    }
    free(dp);
}

/* Gives 'dp' its fused code, if the budget has room (oko-fused.h). */
static void
oko_dp_chain_fuse(struct oko_dp_chain *dp)
{
    dp->fused = oko_fused_get(dp->links, dp->n);
    dp->fused_fn = dp->fused ? oko_fused_fn(dp->fused) : NULL;
}

/* A new datapath chain for 'chain', or NULL with '*ok' false (see
 * oko_dp_chain_create()). */
static struct oko_dp_chain *
oko_dp_chain_new(const struct oko_chain *chain, const void *owner,
                 bool fusion_asked, bool *ok)
{
    struct oko_dp_chain *dp = xmalloc(sizeof *dp
                                      + chain->n * sizeof dp->links[0]);
    atomic_init(&dp->accepts, 0);
    dp->until_timed = 0;            /* The first check is timed. */
    dp->needs_epoch = false;
    dp->n = 0;
    dp->fused = NULL;
    dp->fused_fn = NULL;
    dp->owner = owner;
    dp->fusion_asked = fusion_asked;
    atomic_count_init(&dp->flows, 1);
    for (unsigned int i = 0; i < chain->n; i++) {
        const struct oko_instance *inst = chain->links[i].inst;
        if (!oko_instance_try_ref_rcu(inst)) {
            *ok = false;
            oko_dp_chain_free(dp);
            return NULL;
        }
        struct oko_dp_link *link = &dp->links[dp->n++];
        link->filter = inst->filter;
        dp->needs_epoch |= inst->filter->prog.n_maps != 0;
        link->inst = CONST_CAST(struct oko_instance *, inst);
        link->result = chain->links[i].result;
        link->counter.accepts = &dp->accepts;
        link->counter.flows = &dp->flows;
        link->counter.result = link->result;
        oko_instance_add_counter(inst, &link->counter);
    }
    if (fusion_asked) {
        oko_dp_chain_fuse(dp);
    }
    return dp;
}

/* oko_dp_chain_create() for a chain that is not empty ('*ok' is true on
 * entry).  An existing chain holds references on its instances, so one
 * that a program's replacement is freeing is never found here. */
struct oko_dp_chain *
oko_dp_chain_create__(const struct oko_chain *chain, const void *owner,
                      bool *ok)
{
    ovs_assert(chain->n && *ok);
    bool fusion_asked = oko_fused_is_enabled();
    uint32_t hash = chain_hash(chain, owner, fusion_asked);
    struct oko_dp_chain *dp;

    ovs_mutex_lock(&chains_mutex);
    HMAP_FOR_EACH_WITH_HASH (dp, node, hash, &chains) {
        if (chain_equals(dp, chain, owner, fusion_asked)) {
            atomic_count_inc(&dp->flows);
            if (OVS_UNLIKELY(fusion_asked && !dp->fused)) {
                /* Made when fused code was over its budget (or fusion was
                 * turned off meanwhile): try again, as a chain of its own
                 * would.  Only the owner thread, this one, reads the
                 * code. */
                oko_dp_chain_fuse(dp);
            }
            ovs_mutex_unlock(&chains_mutex);
            return dp;
        }
    }
    dp = oko_dp_chain_new(chain, owner, fusion_asked, ok);
    if (dp) {
        hmap_insert(&chains, &dp->node, hash);
        atomic_count_inc(&oko_dp_n_chains);
    }
    ovs_mutex_unlock(&chains_mutex);
    return dp;
}

void
oko_dp_chain_destroy(struct oko_dp_chain *dp)
{
    if (!dp) {
        return;
    }
    ovs_mutex_lock(&chains_mutex);
    bool last = atomic_count_dec(&dp->flows) == 1;
    if (last) {
        hmap_remove(&chains, &dp->node);
    }
    ovs_mutex_unlock(&chains_mutex);
    if (last) {
        oko_dp_chain_free(dp);
        /* After the free: while counted, the chain's instances exist
         * (oko_dp_pass_needed()). */
        atomic_count_dec(&oko_dp_n_chains);
    }
}

void
oko_dp_chain_count(unsigned int *n_chains, unsigned int *n_flows)
{
    struct oko_dp_chain *dp;

    *n_flows = 0;
    ovs_mutex_lock(&chains_mutex);
    *n_chains = hmap_count(&chains);
    HMAP_FOR_EACH (dp, node, &chains) {
        *n_flows += atomic_count_get(&dp->flows);
    }
    ovs_mutex_unlock(&chains_mutex);
}

/* Passes. */

DEFINE_EXTERN_PER_THREAD_DATA(oko_dp_thread_passes,
                              { .open = 0, .vanilla_open = 0 });

#define OKO_EXTRA_INFO_TAG "oko_chain"

void
oko_dp_chain_format(const struct oko_dp_chain *dp, struct ds *s)
{
    ds_put_cstr(s, ","OKO_EXTRA_INFO_TAG"[");
    for (unsigned int i = 0; i < dp->n; i++) {
        ds_put_format(s, "%s%"PRIu32":%d", i ? "," : "",
                      dp->links[i].inst->prog_id, dp->links[i].result);
    }
    ds_put_char(s, ']');
}

bool
oko_dp_extra_info_has_chain(const char *dp_extra_info)
{
    return dp_extra_info && strstr(dp_extra_info, OKO_EXTRA_INFO_TAG);
}

/* Per-packet history, one per thread that processes packets. */

#define OKO_HISTORY_MAX 256

struct oko_dp_record {
    const struct dp_packet *packet;
    unsigned int n;
    struct {
        const struct oko_instance *inst;
        bool result;
    } runs[OKO_CHAIN_MAX];
};

/* Records [base, n) belong to the current pass. */
struct oko_dp_history {
    size_t base;                    /* First record of the current pass. */
    size_t n;                       /* Records in use. */
    bool in_epoch;                  /* The pass entered an epoch section. */
    struct oko_dp_record records[OKO_HISTORY_MAX];
    /* Indexed by oko_dp_thread_passes.open, the passes entered. */
    struct oko_dp_pass passes[OKO_DP_PASS_MAX];
};

DEFINE_STATIC_PER_THREAD_DATA(struct oko_dp_history *, oko_dp_thread_history,
                              NULL);

/* Unmaps a thread's history when the thread exits (a PMD thread is
 * recreated when the PMD configuration changes).  The key holds the same
 * pointer as the thread's variable only for this: lookups use the
 * variable, one load. */
static ovsthread_key_t history_key;
static atomic_count n_histories = ATOMIC_COUNT_INIT(0);

static void
history_unmap(void *h)
{
    munmap(h, sizeof(struct oko_dp_history));
    atomic_count_dec(&n_histories);
}

unsigned int
oko_dp_history_count(void)
{
    return atomic_count_get(&n_histories);
}

/* The thread's first pass: its history's pages.  Out of line, so that
 * history_get() stays a thread-local load and a test in every pass. */
static struct oko_dp_history * OKO_NOINLINE
history_create(struct oko_dp_history **h)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;

    if (ovsthread_once_start(&once)) {
        ovsthread_key_create(&history_key, history_unmap);
        ovsthread_once_done(&once);
    }
    /* Pages of its own, not malloc's: 74 kB from the PMD thread's heap
     * would move everything the datapath allocates after it (the
     * lookup's scratch blocks among them) to other offsets within their
     * pages than in vanilla OVS, which measurably slows the megaflow
     * lookup of a switch that runs no program (docs/performance.md). */
    void *p = mmap(NULL, sizeof **h, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        out_of_memory();
    }
    *h = p;                     /* Zeroed, as anonymous pages are. */
    ovsthread_setspecific(history_key, p);
    atomic_count_inc(&n_histories);
    return *h;
}

static inline struct oko_dp_history *
history_get(void)
{
    struct oko_dp_history **h = oko_dp_thread_history_get();

    return OVS_LIKELY(*h) ? *h : history_create(h);
}

/* A pass's mark: the enclosing pass's first record, and whether the
 * enclosing pass was already in an epoch section (then a nested pass must
 * leave it to that pass). */
static inline size_t
history_enter(struct oko_dp_history *h)
{
    size_t mark = h->base << 1 | h->in_epoch;

    h->base = h->n;
    return mark;
}

static inline void
history_leave(struct oko_dp_history *h, size_t mark)
{
    bool outer_in_epoch = mark & 1;

    h->n = h->base;
    h->base = mark >> 1;
    if (h->in_epoch && !outer_in_epoch) {
        oko_epoch_exit();
        h->in_epoch = false;
    }
}

size_t
oko_dp_history_enter(void)
{
    return history_enter(history_get());
}

void
oko_dp_history_leave(size_t mark)
{
    history_leave(history_get(), mark);
}

struct oko_dp_pass *
oko_dp_pass_enter(const struct dp_packet_batch *packets)
{
    struct oko_dp_history *h = history_get();
    struct oko_dp_thread_passes *t = oko_dp_thread_passes_get();

    ovs_assert(t->open < OKO_DP_PASS_MAX);
    struct oko_dp_pass *pass = &h->passes[t->open++];

    /* The thread's history looked up once: this runs on every pass while
     * chains exist. */
    pass->mark = history_enter(h);
    dp_packet_batch_init(&pass->upcalls);
    pass->n_arrival = 0;
    if (OVS_UNLIKELY(oko_dp_chains_exist())) {
        /* The whole array, a constant size: the compiler copies it inline,
         * where a call to memcpy() for the packets in use cost 2-3
         * instructions a packet. */
        BUILD_ASSERT(sizeof pass->arrival == sizeof packets->packets);
        pass->n_arrival = dp_packet_batch_size(packets);
        memcpy(pass->arrival, packets->packets, sizeof pass->arrival);
    }
    return pass;
}

void
oko_dp_pass_leave(struct oko_dp_pass *pass)
{
    struct oko_dp_history *h = history_get();
    struct oko_dp_thread_passes *t = oko_dp_thread_passes_get();

    ovs_assert(t->open > 0 && pass == &h->passes[t->open - 1]);
    history_leave(h, pass->mark);
    t->open--;
}

/* A slot from the pointer (packets are mbufs of one pool, a constant stride
 * apart: hash_pointer() mixes all of its bits). */
static size_t
arrival_slot(const struct dp_packet *packet)
{
    BUILD_ASSERT_DECL(OKO_DP_ARRIVAL_SLOTS >= 2 * NETDEV_MAX_BURST);
    return hash_pointer(packet, 0) & (OKO_DP_ARRIVAL_SLOTS - 1);
}

void
oko_dp_arrival_init(struct oko_dp_arrival *order,
                    struct dp_packet *const arrival[], size_t n)
{
    BUILD_ASSERT_DECL(NETDEV_MAX_BURST <= UINT8_MAX);
    ovs_assert(n <= NETDEV_MAX_BURST);
    memset(order->packet, 0, sizeof order->packet);
    for (size_t i = 0; i < n; i++) {
        size_t slot = arrival_slot(arrival[i]);

        /* At most half full: a free slot is always found. */
        while (order->packet[slot] && order->packet[slot] != arrival[i]) {
            slot = (slot + 1) % OKO_DP_ARRIVAL_SLOTS;
        }
        if (!order->packet[slot]) {     /* A packet twice keeps its first. */
            order->packet[slot] = arrival[i];
            order->index[slot] = i;
        }
    }
}

static uint8_t
arrival_index(const struct oko_dp_arrival *order,
              const struct dp_packet *packet)
{
    for (size_t slot = arrival_slot(packet); order->packet[slot];
         slot = (slot + 1) % OKO_DP_ARRIVAL_SLOTS) {
        if (order->packet[slot] == packet) {
            return order->index[slot];
        }
    }
    return 0;
}

void
oko_dp_arrival_sort(const struct oko_dp_arrival *order,
                    struct dp_packet_batch *batch)
{
    uint8_t index[ARRAY_SIZE(batch->packets)];
    size_t n = dp_packet_batch_size(batch);

    for (size_t i = 0; i < n; i++) {
        index[i] = arrival_index(order, batch->packets[i]);
    }
    /* Insertion sort: at most a burst, mostly in order already. */
    for (size_t i = 1; i < n; i++) {
        struct dp_packet *packet = batch->packets[i];
        uint8_t at = index[i];
        size_t j = i;

        for (; j > 0 && index[j - 1] > at; j--) {
            batch->packets[j] = batch->packets[j - 1];
            index[j] = index[j - 1];
        }
        batch->packets[j] = packet;
        index[j] = at;
    }
}

static void
history_enter_epoch(struct oko_dp_history *h)
{
    if (!h->in_epoch) {
        oko_epoch_enter();
        h->in_epoch = true;
    }
}

static struct oko_dp_record *
history_find(struct oko_dp_history *h, const struct dp_packet *packet)
{
    for (size_t i = h->base; i < h->n; i++) {
        if (h->records[i].packet == packet) {
            return &h->records[i];
        }
    }
    return NULL;
}

static int
record_find(const struct oko_dp_record *r, const struct oko_instance *inst)
{
    for (unsigned int i = 0; i < r->n; i++) {
        if (r->runs[i].inst == inst) {
            return r->runs[i].result;
        }
    }
    return -1;
}

static void
record_add(struct oko_dp_record *r, const struct oko_instance *inst,
           bool result)
{
    if (r->n < OKO_CHAIN_MAX) {
        r->runs[r->n].inst = inst;
        r->runs[r->n].result = result;
        r->n++;
    }
}

static struct oko_dp_record *
history_add(struct oko_dp_history *h, const struct dp_packet *packet)
{
    if (h->n >= OKO_HISTORY_MAX) {
        /* More refusals in one pass than a batch has packets would take
         * recirculation nested deep: the programs just run again. */
        return NULL;
    }
    struct oko_dp_record *r = &h->records[h->n++];
    r->packet = packet;
    r->n = 0;
    return r;
}

static void
record_refusal(const struct oko_dp_chain *dp, const struct dp_packet *packet,
               unsigned int refused_at, bool result)
{
    struct oko_dp_record *r = history_add(history_get(), packet);

    if (r) {
        for (unsigned int i = 0; i < refused_at; i++) {
            record_add(r, dp->links[i].inst, dp->links[i].result);
        }
        record_add(r, dp->links[refused_at].inst, result);
    }
}

/* The fast path's programs 0 to 'refused_at' ran (outside the chain's
 * count): counts them in their instances, then records the results. */
void
oko_dp_chain_refused__(const struct oko_dp_chain *dp,
                     const struct dp_packet *packet,
                     unsigned int refused_at, uint64_t r0)
{
    for (unsigned int i = 0; i < refused_at; i++) {
        oko_instance_count(dp->links[i].inst, dp->links[i].result);
    }
    oko_instance_count(dp->links[refused_at].inst, r0);
    record_refusal(dp, packet, refused_at, r0 == 1);
}

/* A fast-path check that also times each program (one check in
 * OKO_TIME_SAMPLE). */
static bool
oko_dp_chain_accepts_timed(struct oko_dp_chain *dp,
                           const struct dp_packet *packet)
{
    const void *data = dp_packet_data(packet);
    uint32_t size = dp_packet_size(packet);

    for (unsigned int i = 0; i < dp->n; i++) {
        uint64_t start = oko_monotonic_ns();
        uint64_t r0 = oko_filter_run_in_section(dp->links[i].filter,
                                                data, size);

        oko_instance_add_time(dp->links[i].inst,
                              oko_monotonic_ns() - start);
        if (r0 != dp->links[i].result) {
            oko_dp_chain_refused__(dp, packet, i, r0);
            return false;
        }
    }

    oko_dp_chain_count_accepts(dp, 1);
    return true;
}

static bool
oko_dp_chain_accepts_recorded(const struct oko_dp_chain *dp,
                              const struct dp_packet *packet)
{
    struct oko_dp_history *h = history_get();
    struct oko_dp_record *record = history_find(h, packet);

    if (!record) {
        /* Nothing ran for this packet yet. */
        for (unsigned int i = 0; i < dp->n; i++) {
            bool result = oko_instance_run(dp->links[i].inst, packet);

            if (result != dp->links[i].result) {
                record_refusal(dp, packet, i, result);
                return false;
            }
        }
        return true;
    }
    for (unsigned int i = 0; i < dp->n; i++) {
        const struct oko_instance *inst = dp->links[i].inst;
        int result = record_find(record, inst);

        if (result < 0) {
            result = oko_instance_run(inst, packet);
            record_add(record, inst, result);
        }
        if (result != dp->links[i].result) {
            return false;
        }
    }
    return true;
}

/* A packet's first check in the pass (nothing recorded for it), untimed:
 * inside the pass's epoch section (or without maps, needing none) the
 * programs run without entering one each, and only the chain counts (runs
 * = accepts per program). */
static bool
oko_dp_chain_accepts_first(struct oko_dp_chain *dp,
                           const struct dp_packet *packet)
{
    if (OVS_LIKELY(dp->fused_fn)) {
        struct oko_jit_refusal refusal;

        if (OVS_UNLIKELY(!oko_filter_chain_run_in_section(dp->fused_fn,
                                                          packet,
                                                          &refusal))) {
            oko_dp_chain_refused__(dp, packet, refusal.at, refusal.r0);
            return false;
        }
        oko_dp_chain_count_accepts(dp, 1);
        return true;
    }

    const void *data = dp_packet_data(packet);
    uint32_t size = dp_packet_size(packet);
    for (unsigned int i = 0; i < dp->n; i++) {
        uint64_t r0 = oko_filter_run_in_section(dp->links[i].filter,
                                                data, size);

        if (OVS_UNLIKELY(r0 != dp->links[i].result)) {
            /* Programs before 'i' gave the chain's results. */
            oko_dp_chain_refused__(dp, packet, i, r0);
            return false;
        }
    }
    oko_dp_chain_count_accepts(dp, 1);
    return true;
}

bool
oko_dp_chain_accepts(const struct oko_dp_chain *dp,
                     const struct dp_packet *packet)
{
    struct oko_dp_history *h = history_get();

    if (dp->needs_epoch) {
        /* See oko_dp_history_enter(). */
        history_enter_epoch(h);
    }
    if (OVS_UNLIKELY(h->n != h->base)) {
        /* Some check of this pass failed: this packet's programs may have
         * run already. */
        return oko_dp_chain_accepts_recorded(dp, packet);
    }

    struct oko_dp_chain *chain = CONST_CAST(struct oko_dp_chain *, dp);
    if (OVS_UNLIKELY(!chain->until_timed)) {
        chain->until_timed = OKO_TIME_SAMPLE - 1;
        return oko_dp_chain_accepts_timed(chain, packet);
    }
    chain->until_timed--;
    return oko_dp_chain_accepts_first(chain, packet);
}

void
oko_dp_checks_init(struct oko_dp_checks *checks)
{
    checks->history = history_get();
    checks->stack_top = oko_stack_top();
}

void
oko_dp_checks_enter_epoch__(const struct oko_dp_checks *checks)
{
    history_enter_epoch(checks->history);
}

/* oko_dp_chain_check_packets() when one of its packets is timed (one check
 * in OKO_TIME_SAMPLE: the first packet if the count passes a multiple of it
 * here), or without fused code or program stack. */
size_t
oko_dp_chain_check_packets__(const struct oko_dp_checks *checks OVS_UNUSED,
                             struct oko_dp_chain *dp,
                             struct dp_packet **pkts, size_t n,
                             struct dp_packet_batch *refused)
{
    size_t n_refused = 0, first = 0;

    if (!n) {
        return 0;
    }
    if (dp->until_timed < n) {
        dp->until_timed += OKO_TIME_SAMPLE - n;
        if (!oko_dp_chain_accepts_timed(dp, pkts[0])) {
            dp_packet_batch_add(refused, pkts[0]);
            pkts[0] = NULL;
            n_refused++;
        }
        first = 1;
    } else {
        dp->until_timed -= n;
    }

    /* Programs as one fused chain, or one by one; without a program stack
     * each run says so (oko_filter_chain_run_in_section()). */
    for (size_t i = first; i < n; i++) {
        if (!oko_dp_chain_accepts_first(dp, pkts[i])) {
            dp_packet_batch_add(refused, pkts[i]);
            pkts[i] = NULL;
            n_refused++;
        }
    }
    return n_refused;
}

void
oko_dp_history_get(const struct dp_packet *packet, struct oko_chain *chain)
{
    struct oko_dp_history *h = history_get();
    const struct oko_dp_record *r = history_find(h, packet);

    oko_chain_init(chain);
    for (unsigned int i = 0; r && i < r->n; i++) {
        oko_chain_append(chain, r->runs[i].inst, r->runs[i].result);
    }
}

/* Megaflow alternatives. */

struct dpcls_rule *
oko_dpcls_next_accepting(const struct dpcls_rule *rule,
                         const struct dp_packet *packet)
{
    struct dpcls_rule *r;

    /* Rules with the same mask and masked key are in the same subtable and
     * have the same hash, so they follow 'rule' in its node's chain (the
     * lookup returned the first that matched). */
    CMAP_NODE_FOR_EACH (r, cmap_node, cmap_node_next(&rule->cmap_node)) {
        if (r->mask == rule->mask
            && r->flow.hash == rule->flow.hash
            && !memcmp(&r->flow.mf, &rule->flow.mf, rule->flow.len)) {
            const struct dp_netdev_flow *flow
                = CONTAINER_OF(r, struct dp_netdev_flow, cr);
            if (!flow->oko_chain
                || oko_dp_chain_accepts(flow->oko_chain, packet)) {
                return r;
            }
        }
    }
    return NULL;
}
