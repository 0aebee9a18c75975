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
#include "ovs-rcu.h"
#include "ovs-thread.h"

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
    oko_filter_destroy(inst->filter);
    free_cacheline(inst);
}

void
oko_instance_unref(struct oko_instance *inst)
{
    if (inst && ovs_refcount_unref(&inst->ref_cnt) == 1) {
        ovsrcu_postpone(oko_instance_destroy_cb, inst);
    }
}

static uint64_t
monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * UINT64_C(1000000000) + ts.tv_nsec;
}

/* oko_instance_run() for the one run in OKO_TIME_SAMPLE that is timed
 * ('s->runs' already counts it). */
bool
oko_instance_run_timed(struct oko_instance *inst, struct oko_run_stats *s,
                       const struct dp_packet *packet)
{
    uint64_t start = monotonic_ns();
    uint64_t r0 = oko_filter_run(inst->filter, dp_packet_data(packet),
                                 dp_packet_size(packet));
    oko_run_stats_add(&s->timed_ns, monotonic_ns() - start);
    oko_run_stats_add(&s->timed_runs, 1);
    return oko_run_stats_count_result(s, r0);
}

void
oko_instance_get_totals(const struct oko_instance *inst,
                        struct oko_instance_totals *t)
{
    uint64_t timed_runs = 0, timed_ns = 0;

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
        timed_runs += v;
        atomic_read_relaxed(&s->timed_ns, &v);
        timed_ns += v;
    }
    t->avg_ns = timed_runs ? (double) timed_ns / timed_runs : 0;
}
