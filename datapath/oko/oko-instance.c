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
#include "oko/oko-instance.h"

#include <time.h>

#include "dp-packet.h"
#include "oko-filter.h"
#include "openvswitch/list.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"

atomic_count oko_instances_alive = ATOMIC_COUNT_INIT(0);

struct oko_instance *
oko_instance_create(struct oko_filter *filter, uint32_t prog_id)
{
    static atomic_uint64_t next_serial = 1;
    struct oko_instance *inst = xzalloc_cacheline(sizeof *inst);
    uint64_t serial;

    atomic_add(&next_serial, 1, &serial);
    inst->filter = filter;
    inst->prog_id = prog_id;
    inst->serial = serial;
    ovs_refcount_init(&inst->ref_cnt);
    ovs_mutex_init(&inst->mutex);
    ovs_list_init(&inst->counters);
    atomic_count_inc(&oko_instances_alive);
    return inst;
}

bool
oko_instance_try_ref_rcu(const struct oko_instance *inst_)
{
    struct oko_instance *inst = CONST_CAST(struct oko_instance *, inst_);
    return ovs_refcount_try_ref_rcu(&inst->ref_cnt);
}

struct oko_instance *
oko_instance_ref(const struct oko_instance *inst_)
{
    struct oko_instance *inst = CONST_CAST(struct oko_instance *, inst_);
    if (inst) {
        ovs_refcount_ref(&inst->ref_cnt);
    }
    return inst;
}

static void
oko_instance_destroy_cb(struct oko_instance *inst)
{
    /* Every chain holds a reference: none can be left. */
    ovs_assert(ovs_list_is_empty(&inst->counters));
    ovs_mutex_destroy(&inst->mutex);
    oko_filter_destroy(inst->filter);
    free_cacheline(inst);
    atomic_count_dec(&oko_instances_alive);
}

static struct oko_run_stats *
own_slot(const struct oko_instance *inst_)
{
    struct oko_instance *inst = CONST_CAST(struct oko_instance *, inst_);
    return &inst->stats[ovsthread_id_self() % OKO_STATS_SLOTS];
}

void
oko_instance_add_time(const struct oko_instance *inst, uint64_t ns)
{
    struct oko_run_stats *s = own_slot(inst);

    oko_run_stats_add(&s->timed_ns, ns);
    oko_run_stats_add(&s->timed_runs, 1);
}

void
oko_instance_count(const struct oko_instance *inst, uint64_t r0)
{
    struct oko_run_stats *s = own_slot(inst);

    oko_run_stats_add(&s->runs, 1);
    oko_run_stats_count_result(s, r0);
}

void
oko_instance_add_counter(const struct oko_instance *inst_,
                         struct oko_chain_counter *c)
{
    struct oko_instance *inst = CONST_CAST(struct oko_instance *, inst_);

    ovs_mutex_lock(&inst->mutex);
    ovs_list_push_back(&inst->counters, &c->node);
    ovs_mutex_unlock(&inst->mutex);
}

void
oko_instance_remove_counter(const struct oko_instance *inst_,
                            struct oko_chain_counter *c)
{
    struct oko_instance *inst = CONST_CAST(struct oko_instance *, inst_);
    struct oko_run_stats *s = own_slot(inst);
    uint64_t n;

    /* The last count moves under the mutex, so a reader sees it either in
     * the counter or in the slot, never in both or neither. */
    ovs_mutex_lock(&inst->mutex);
    ovs_list_remove(&c->node);
    atomic_read_relaxed(CONST_CAST(atomic_uint64_t *, c->accepts), &n);
    oko_run_stats_add(&s->runs, n);
    if (c->result) {
        oko_run_stats_add(&s->matches, n);
    }
    ovs_mutex_unlock(&inst->mutex);
}

void
oko_instance_unref(struct oko_instance *inst)
{
    if (inst && ovs_refcount_unref(&inst->ref_cnt) == 1) {
        ovsrcu_postpone(oko_instance_destroy_cb, inst);
    }
}

uint64_t
oko_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * UINT64_C(1000000000) + ts.tv_nsec;
}

/* oko_instance_run() for the one run in OKO_TIME_SAMPLE that is timed
 * ('s->runs' already counts it). */
bool
oko_instance_run_timed(struct oko_instance *inst, struct oko_run_stats *s,
                       const void *data, uint32_t size)
{
    uint64_t start = oko_monotonic_ns();
    uint64_t r0 = oko_filter_run(inst->filter, data, size);
    oko_run_stats_add(&s->timed_ns, oko_monotonic_ns() - start);
    oko_run_stats_add(&s->timed_runs, 1);
    return oko_run_stats_count_result(s, r0);
}

void
oko_instance_get_totals(const struct oko_instance *inst,
                        struct oko_instance_totals *t)
{
    struct oko_instance *inst_rw = CONST_CAST(struct oko_instance *, inst);

    /* Under the mutex: a chain going away moves its count from its counter
     * to a slot under it too. */
    ovs_mutex_lock(&inst_rw->mutex);
    *t = (struct oko_instance_totals) { .runs = 0 };
    for (size_t i = 0; i < OKO_STATS_SLOTS; i++) {
        struct oko_run_stats *s = CONST_CAST(struct oko_run_stats *,
                                             &inst->stats[i]);
        uint64_t v;

        atomic_read_relaxed(&s->runs, &v);
        t->runs += v;
        atomic_read_relaxed(&s->matches, &v);
        t->matches += v;
        atomic_read_relaxed(&s->errors, &v);
        t->errors += v;
        atomic_read_relaxed(&s->timed_runs, &v);
        t->timed_runs += v;
        atomic_read_relaxed(&s->timed_ns, &v);
        t->timed_ns += v;
    }
    t->avg_ns = t->timed_runs ? (double) t->timed_ns / t->timed_runs : 0;

    const struct oko_chain_counter *c;
    LIST_FOR_EACH (c, node, &inst_rw->counters) {
        uint64_t n;

        atomic_read_relaxed(CONST_CAST(atomic_uint64_t *, c->accepts), &n);
        t->runs += n;
        if (c->result) {
            t->matches += n;
        }
        t->datapath_flows += atomic_count_get(
            CONST_CAST(atomic_count *, c->flows));
    }
    ovs_mutex_unlock(&inst_rw->mutex);
}
