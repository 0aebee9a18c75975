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

#include "cmap.h"
#include "dp-packet.h"
#include "dpif-netdev-private-dpcls.h"
#include "dpif-netdev-private-flow.h"
#include "oko/oko-instance.h"
#include "openvswitch/dynamic-string.h"
#include "ovs-thread.h"
#include "util.h"

/* Chains. */

struct oko_dp_chain *
oko_dp_chain_create(const struct oko_chain *chain, bool *ok)
{
    *ok = true;
    if (!chain->n) {
        return NULL;
    }

    struct oko_dp_chain *dp = xmalloc(sizeof *dp
                                      + chain->n * sizeof dp->links[0]);
    dp->n = 0;
    for (unsigned int i = 0; i < chain->n; i++) {
        const struct oko_instance *inst = chain->links[i].inst;
        if (!oko_instance_try_ref_rcu(inst)) {
            *ok = false;
            oko_dp_chain_destroy(dp);
            return NULL;
        }
        dp->links[dp->n++] = (struct oko_dp_link) {
            .inst = CONST_CAST(struct oko_instance *, inst),
            .result = chain->links[i].result,
        };
    }
    return dp;
}

void
oko_dp_chain_destroy(struct oko_dp_chain *dp)
{
    if (dp) {
        for (unsigned int i = 0; i < dp->n; i++) {
            oko_instance_unref(dp->links[i].inst);
        }
        free(dp);
    }
}

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

struct oko_dp_history {
    struct oko_dp_history_head head;    /* What the inline check reads. */
    struct oko_dp_record records[OKO_HISTORY_MAX];
};

DEFINE_EXTERN_PER_THREAD_DATA(oko_dp_thread_history, NULL);

static struct oko_dp_history *
history_get(void)
{
    struct oko_dp_history_head **h = oko_dp_thread_history_get();

    if (OVS_UNLIKELY(!*h)) {
        struct oko_dp_history *history = xzalloc(sizeof *history);
        *h = &history->head;
    }
    return CONTAINER_OF(*h, struct oko_dp_history, head);
}

size_t
oko_dp_history_enter(void)
{
    struct oko_dp_history *h = history_get();
    size_t mark = h->head.base;

    h->head.base = h->head.n;
    return mark;
}

void
oko_dp_history_leave(size_t mark)
{
    struct oko_dp_history *h = history_get();

    h->head.n = h->head.base;
    h->head.base = mark;
}

static struct oko_dp_record *
history_find(struct oko_dp_history *h, const struct dp_packet *packet)
{
    for (size_t i = h->head.base; i < h->head.n; i++) {
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
    if (h->head.n >= OKO_HISTORY_MAX) {
        /* More refusals in one pass than a batch has packets would take
         * recirculation nested deep: the programs just run again. */
        return NULL;
    }
    struct oko_dp_record *r = &h->records[h->head.n++];
    r->packet = packet;
    r->n = 0;
    return r;
}

void
oko_dp_chain_record_refusal(const struct oko_dp_chain *dp,
                            const struct dp_packet *packet,
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

bool
oko_dp_chain_accepts_recorded(const struct oko_dp_chain *dp,
                              const struct dp_packet *packet)
{
    struct oko_dp_history *h = history_get();
    struct oko_dp_record *record = history_find(h, packet);

    if (!record) {
        /* Nothing ran for this packet yet: as the inline check. */
        for (unsigned int i = 0; i < dp->n; i++) {
            bool result = oko_instance_run(dp->links[i].inst, packet);

            if (result != dp->links[i].result) {
                oko_dp_chain_record_refusal(dp, packet, i, result);
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
