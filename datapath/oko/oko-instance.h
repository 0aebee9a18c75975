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

#ifndef OKO_INSTANCE_H
#define OKO_INSTANCE_H 1

/* A loaded program instance: a verified, compiled filter (the runtime's
 * struct oko_filter) with its bridge-local id and run statistics.
 *
 * Lifetime: reference counted.  The bridge's program table holds one
 * reference while the instance is current; cached datapath flows whose
 * chains ran it hold one each, so a replaced or unloaded program is freed
 * only when nothing can run it any more (and then after an RCU grace
 * period, because a thread may have just read a pointer to it).
 *
 * Statistics are per thread slot, updated without atomic read-modify-write
 * (each thread writes its own slot), and summed when read.  Run time is
 * sampled: one run in OKO_TIME_SAMPLE is timed.
 *
 * Runs on the datapath's fast path are counted by the chains instead (one
 * counter per chain, see oko-dp.h): a chain that accepted a packet N times
 * ran each of its programs N times, with the chain's result.  Those
 * counters register here, so the totals include them; a chain that goes
 * away adds its counts to the instance's own. */

#include <stdbool.h>
#include <stdint.h>
#include "dp-packet.h"
#include "oko-filter.h"
#include "openvswitch/list.h"
#include "ovs-atomic.h"
#include "ovs-thread.h"
#include "util.h"

struct dp_packet;
struct oko_filter;

#define OKO_STATS_SLOTS 64
/* A power of two.  Reading the clock twice costs more than a short
 * program's run, so it is done rarely. */
#define OKO_TIME_SAMPLE 1024

struct oko_run_stats {
    atomic_uint64_t runs;           /* Times the program ran. */
    atomic_uint64_t matches;        /* ...and returned 1. */
    atomic_uint64_t errors;         /* ...and returned neither 0 nor 1. */
    atomic_uint64_t timed_runs;     /* Runs whose time was measured. */
    atomic_uint64_t timed_ns;       /* Their total time. */
} OVS_ALIGNED_VAR(CACHE_LINE_SIZE);

/* A chain's count of accepted checks, as one of its programs sees it: each
 * accepted check ran the program once with result 'result'.  'flows' is
 * the number of datapath flows that have the chain. */
struct oko_chain_counter {
    struct ovs_list node;           /* In the instance's 'counters'. */
    const atomic_uint64_t *accepts;
    const atomic_count *flows;
    bool result;
};

struct oko_instance {
    struct oko_filter *filter;
    uint32_t prog_id;
    uint64_t serial;                /* Unique in the process, from 1. */
    struct ovs_refcount ref_cnt;
    struct ovs_mutex mutex;         /* Protects 'counters'. */
    struct ovs_list counters OVS_GUARDED; /* struct oko_chain_counter. */
    struct oko_run_stats stats[OKO_STATS_SLOTS];
};

/* Instances alive in the process, from creation until freed (after every
 * reference, chains' included, is gone). */
extern atomic_count oko_instances_alive;

static inline bool
oko_instances_exist(void)
{
    return atomic_count_get(&oko_instances_alive) != 0;
}

/* Takes ownership of 'filter'.  The result has one reference. */
struct oko_instance *oko_instance_create(struct oko_filter *,
                                         uint32_t prog_id);
struct oko_instance *oko_instance_ref(const struct oko_instance *);
/* For a pointer read under RCU that may be on its way out: false if the
 * instance is already being freed (then it must not be kept). */
bool oko_instance_try_ref_rcu(const struct oko_instance *);
void oko_instance_unref(struct oko_instance *);

bool oko_instance_run_timed(struct oko_instance *, struct oko_run_stats *,
                            const void *data, uint32_t size);

/* Chain counters (oko-dp.c): registered while a chain can count, and
 * removed with their final count added to the instance's statistics. */
void oko_instance_add_counter(const struct oko_instance *,
                              struct oko_chain_counter *);
void oko_instance_remove_counter(const struct oko_instance *,
                                 struct oko_chain_counter *);

/* Counts a run whose result is known to be 'r0' without running it (a
 * chain's refusal accounts for the programs before the one that refused). */
void oko_instance_count(const struct oko_instance *, uint64_t r0);
/* Adds one timed run of 'ns' nanoseconds to the average (not to the runs). */
void oko_instance_add_time(const struct oko_instance *, uint64_t ns);
uint64_t oko_monotonic_ns(void);

static inline void
oko_run_stats_add(atomic_uint64_t *counter, uint64_t n)
{
    uint64_t v;
    atomic_read_relaxed(counter, &v);
    atomic_store_relaxed(counter, v + n);
}

/* Counts what a run returned in 's': true for a match (1); a value other
 * than 0 or 1 is an error and no match. */
static inline bool
oko_run_stats_count_result(struct oko_run_stats *s, uint64_t r0)
{
    if (r0 == 1) {
        oko_run_stats_add(&s->matches, 1);
        return true;
    } else if (OVS_UNLIKELY(r0 != 0)) {
        oko_run_stats_add(&s->errors, 1);
    }
    return false;
}

/* Runs the program on a packet's 'data' and 'size' bytes and counts the
 * run.  Returns true if the program accepted the packet (returned 1); any
 * value other than 0 or 1 is counted as an error and is no match.  Inline:
 * it is on the datapath's per-packet path, once per program of a chain
 * (which reads the packet's data and size once for all its programs). */
static inline bool
oko_instance_run_on(const struct oko_instance *inst_,
                    const void *data, uint32_t size)
{
    struct oko_instance *inst = CONST_CAST(struct oko_instance *, inst_);
    struct oko_run_stats *s = &inst->stats[ovsthread_id_self()
                                           % OKO_STATS_SLOTS];
    uint64_t runs;

    atomic_read_relaxed(&s->runs, &runs);
    atomic_store_relaxed(&s->runs, runs + 1);
    if (OVS_UNLIKELY(runs % OKO_TIME_SAMPLE == 0)) {
        return oko_instance_run_timed(inst, s, data, size);
    }
    return oko_run_stats_count_result(s, oko_filter_run(inst->filter,
                                                        data, size));
}

static inline bool
oko_instance_run(const struct oko_instance *inst,
                 const struct dp_packet *packet)
{
    return oko_instance_run_on(inst, dp_packet_data(packet),
                               dp_packet_size(packet));
}

struct oko_instance_totals {
    uint64_t runs, matches, errors;
    uint64_t timed_runs, timed_ns;  /* The sampled runs and their time. */
    double avg_ns;                  /* timed_ns / timed_runs; 0 if none. */
    uint32_t datapath_flows;        /* Cached datapath flows whose chain
                                     * runs the program (one chain counter
                                     * each). */
};
void oko_instance_get_totals(const struct oko_instance *,
                             struct oko_instance_totals *);

#endif /* oko-instance.h */
