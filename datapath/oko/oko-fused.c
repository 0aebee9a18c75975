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
#include "oko/oko-fused.h"

#include "coverage.h"
#include "dp-packet.h"
#include "hash.h"
#include "oko/oko-dp.h"
#include "oko/oko-instance.h"
#include "oko-filter.h"
#include "openvswitch/hmap.h"
#include "openvswitch/vlog.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(oko_fused);

COVERAGE_DEFINE(oko_fused_compiled);
COVERAGE_DEFINE(oko_fused_shared);
COVERAGE_DEFINE(oko_fused_unavailable);

/* A chain is named by its instances' serials (unique in the process, never
 * reused, unlike their addresses) and results. */
struct oko_fused {
    struct hmap_node node;          /* In 'fused_chains'. */
    unsigned int n;
    uint64_t serials[OKO_CHAIN_MAX];
    bool results[OKO_CHAIN_MAX];
    unsigned int refs;              /* Guarded by 'fused_mutex'. */
    struct oko_jit_chain jit;
};

/* Taken only when a datapath flow with a chain is made or freed, never on
 * the per-packet path. */
static struct ovs_mutex fused_mutex = OVS_MUTEX_INITIALIZER;
static struct hmap fused_chains OVS_GUARDED_BY(fused_mutex)
    = HMAP_INITIALIZER(&fused_chains);
static size_t fused_bytes OVS_GUARDED_BY(fused_mutex);
static size_t fused_max_bytes OVS_GUARDED_BY(fused_mutex)
    = OKO_FUSED_MAX_BYTES;
static atomic_bool fused_enabled = true;

static uint32_t
fused_hash(const struct oko_dp_link *links, unsigned int n)
{
    uint32_t hash = n;

    for (unsigned int i = 0; i < n; i++) {
        hash = hash_add64(hash, links[i].inst->serial << 1 | links[i].result);
    }
    return hash_finish(hash, n);
}

static bool
fused_equals(const struct oko_fused *f, const struct oko_dp_link *links,
             unsigned int n)
{
    if (f->n != n) {
        return false;
    }
    for (unsigned int i = 0; i < n; i++) {
        if (f->serials[i] != links[i].inst->serial
            || f->results[i] != links[i].result) {
            return false;
        }
    }
    return true;
}

/* Compiles the chain if its code fits what is left of the budget: its
 * programs' own code (whole pages, each with its prologue and epilogue) is
 * at least as large as their bodies in one frame, with a page for the
 * frame and the refusal stubs. */
static struct oko_fused *
fused_compile(const struct oko_dp_link *links, unsigned int n)
    OVS_REQUIRES(fused_mutex)
{
    struct oko_jit_chain_link jit_links[OKO_CHAIN_MAX];
    size_t bound = 4096;

    for (unsigned int i = 0; i < n; i++) {
        const struct oko_filter *filter = links[i].filter;

        if (!filter->jit.fn) {
            return NULL;            /* Interpreted: fusing would compile it. */
        }
        bound += filter->jit.size;
        jit_links[i] = (struct oko_jit_chain_link) {
            .insns = filter->code,
            .n_insns = filter->prog.n_insns,
            .expect = links[i].result,
        };
    }

    if (fused_bytes > fused_max_bytes
        || bound > fused_max_bytes - fused_bytes) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 60);

        VLOG_WARN_RL(&rl, "fused chains' code at %"PRIuSIZE" of %"PRIuSIZE
                     " bytes: a chain of %u programs (first: program "
                     "%"PRIu32") runs its programs one by one", fused_bytes,
                     fused_max_bytes, n, links[0].inst->prog_id);
        return NULL;
    }

    struct oko_fused *f = xzalloc(sizeof *f);
    char error[OKO_ERROR_MAX];
    int err = oko_jit_compile_chain(jit_links, n, oko_fused_pkt_layout(),
                                    &f->jit, error);
    if (err) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

        VLOG_WARN_RL(&rl, "chain of %u programs (first: program %"PRIu32") "
                     "not fused, its programs run one by one: %s",
                     n, links[0].inst->prog_id, error);
        free(f);
        return NULL;
    }
    f->n = n;
    for (unsigned int i = 0; i < n; i++) {
        f->serials[i] = links[i].inst->serial;
        f->results[i] = links[i].result;
    }
    return f;
}

struct oko_fused *
oko_fused_get(const struct oko_dp_link *links, unsigned int n)
{
    if (!oko_fused_is_enabled() || !n || n > OKO_CHAIN_MAX) {
        return NULL;
    }

    uint32_t hash = fused_hash(links, n);
    struct oko_fused *f;

    ovs_mutex_lock(&fused_mutex);
    HMAP_FOR_EACH_WITH_HASH (f, node, hash, &fused_chains) {
        if (fused_equals(f, links, n)) {
            f->refs++;
            ovs_mutex_unlock(&fused_mutex);
            COVERAGE_INC(oko_fused_shared);
            return f;
        }
    }
    f = (hmap_count(&fused_chains) < OKO_FUSED_MAX
         ? fused_compile(links, n) : NULL);
    if (f) {
        f->refs = 1;
        fused_bytes += f->jit.size;
        hmap_insert(&fused_chains, &f->node, hash);
        COVERAGE_INC(oko_fused_compiled);
    } else {
        COVERAGE_INC(oko_fused_unavailable);
    }
    ovs_mutex_unlock(&fused_mutex);
    return f;
}

void
oko_fused_put(struct oko_fused *f)
{
    if (!f) {
        return;
    }
    ovs_mutex_lock(&fused_mutex);
    ovs_assert(f->refs > 0);
    bool last = !--f->refs;
    if (last) {
        hmap_remove(&fused_chains, &f->node);
        fused_bytes -= f->jit.size;
    }
    ovs_mutex_unlock(&fused_mutex);
    if (last) {
        /* The last flow with this chain is freed (after an RCU grace
         * period): no thread runs the code. */
        oko_jit_chain_free(&f->jit);
        free(f);
    }
}

/* Where fused code finds a packet's bytes in a dp_packet: the fields
 * dp_packet_data() and dp_packet_size() read (dp-packet.h), in either
 * build.  test-oko-dp checks the three against those functions. */
#ifdef DPDK_NETDEV
#define PKT_BASE mbuf.buf_addr
#define PKT_DATA_OFS mbuf.data_off
#define PKT_LEN mbuf.pkt_len
#else
#define PKT_BASE base_
#define PKT_DATA_OFS data_ofs
#define PKT_LEN size_
#endif

const struct oko_jit_pkt_layout *
oko_fused_pkt_layout(void)
{
    BUILD_ASSERT(MEMBER_SIZEOF(struct dp_packet, PKT_BASE)
                 == sizeof(void *));
    BUILD_ASSERT(MEMBER_SIZEOF(struct dp_packet, PKT_DATA_OFS)
                 == sizeof(uint16_t));
    BUILD_ASSERT(MEMBER_SIZEOF(struct dp_packet, PKT_LEN)
                 == sizeof(uint32_t));

    static const struct oko_jit_pkt_layout layout = {
        .base = offsetof(struct dp_packet, PKT_BASE),
        .data_ofs = offsetof(struct dp_packet, PKT_DATA_OFS),
        .len = offsetof(struct dp_packet, PKT_LEN),
    };
    return &layout;
}

oko_jit_chain_fn *
oko_fused_fn(const struct oko_fused *f)
{
    return f->jit.fn;
}

void
oko_fused_set_enabled(bool enabled)
{
    atomic_store_relaxed(&fused_enabled, enabled);
}

bool
oko_fused_is_enabled(void)
{
    bool enabled;

    atomic_read_relaxed(&fused_enabled, &enabled);
    return enabled;
}

unsigned int
oko_fused_count(void)
{
    ovs_mutex_lock(&fused_mutex);
    unsigned int n = hmap_count(&fused_chains);
    ovs_mutex_unlock(&fused_mutex);
    return n;
}

size_t
oko_fused_bytes(void)
{
    ovs_mutex_lock(&fused_mutex);
    size_t bytes = fused_bytes;
    ovs_mutex_unlock(&fused_mutex);
    return bytes;
}

void
oko_fused_set_max_bytes(size_t max_bytes)
{
    ovs_mutex_lock(&fused_mutex);
    fused_max_bytes = max_bytes ? max_bytes : OKO_FUSED_MAX_BYTES;
    ovs_mutex_unlock(&fused_mutex);
}
