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

/* Checks of the datapath's chain checks (oko-dp.h, oko-fused.h) that the
 * autotest suite cannot reach through ovs-vswitchd: netdev-dummy receives
 * one packet per batch, so a batch of one flow whose program's result flips
 * inside it is built here, with real programs.
 *
 *   test-oko-dp PROGS_DIR      (the runtime's build/progs) */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dp-packet.h"
#include "oko/oko-chain.h"
#include "oko/oko-dp.h"
#include "oko/oko-fused.h"
#include "oko/oko-instance.h"
#include "oko-filter.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "util.h"

#define BATCH 8

static int failures;

/* Two threads' caches (only their addresses matter). */
static const int owner0, owner1;

#define CHECK(COND, ...)                                            \
    do {                                                            \
        if (!(COND)) {                                              \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #COND); \
            fprintf(stderr, __VA_ARGS__);                           \
            fputc('\n', stderr);                                    \
            failures++;                                             \
        }                                                           \
    } while (0)

static struct oko_instance *
load(const char *dir, const char *name, uint32_t prog_id)
{
    char *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        ovs_fatal(errno, "%s", path);
    }
    char *elf = xmalloc(1 << 20);
    size_t size = fread(elf, 1, 1 << 20, f);
    fclose(f);

    struct oko_filter_options opts = { .interpret = false };
    struct oko_filter *filter;
    char error[OKO_ERROR_MAX];
    if (oko_filter_load(elf, size, &opts, &filter, error)) {
        ovs_fatal(0, "%s: %s", path, error);
    }
    free(elf);
    free(path);
    return oko_instance_create(filter, prog_id);
}

/* first_packets matches the first 'limit' packets (map 0, 'limit'). */
static void
set_limit(struct oko_instance *inst, uint64_t limit)
{
    uint32_t zero = 0;
    ovs_assert(!oko_map_update_ctl(inst->filter->maps[0], &zero, &limit, 0));
}

static uint64_t
seen(struct oko_instance *inst)
{
    uint32_t zero = 0;
    oko_epoch_enter();
    const uint64_t *v = oko_map_lookup(inst->filter->maps[1], &zero);
    uint64_t n = v ? *v : 0;
    oko_epoch_exit();
    return n;
}

static void
make_batch(struct dp_packet_batch *batch, struct dp_packet *pkts[BATCH])
{
    static const uint8_t udp[42] = {
        [12] = 0x08, [14] = 0x45, [23] = 17, [30] = 10, [33] = 1,
    };
    dp_packet_batch_init(batch);
    for (int i = 0; i < BATCH; i++) {
        pkts[i] = dp_packet_clone_data(udp, sizeof udp);
        dp_packet_batch_add(batch, pkts[i]);
    }
}

/* A chain [first_packets:1] over one batch of 8 packets whose program
 * matches the first 3: packets 0-2 stay, in order; 3-7 are refused, in
 * order, each with its result recorded (for the slow path); the program ran
 * once per packet; the chain counts 3 accepted checks. */
static void
test_flip_inside_batch(const char *dir, bool fused)
{
    const char *mode = fused ? "fused" : "one by one";
    oko_fused_set_enabled(fused);

    struct oko_instance *inst = load(dir, "first_packets.o", 5);
    set_limit(inst, 3);
    struct oko_chain chain;
    oko_chain_init(&chain);
    oko_chain_append(&chain, inst, true);
    bool ok;
    struct oko_dp_chain *dp = oko_dp_chain_create(&chain, &owner0, &ok);
    ovs_assert(ok && dp);
    CHECK(!dp->fused_fn == !fused, "%s: fused code %p", mode, dp->fused_fn);

    struct dp_packet_batch batch, refused;
    struct dp_packet *pkts[BATCH];
    make_batch(&batch, pkts);
    dp_packet_batch_init(&refused);

    size_t mark = oko_dp_history_enter();
    struct oko_dp_checks checks;
    oko_dp_checks_init(&checks);
    size_t n_refused = oko_dp_chain_check_batch(&checks, dp, &batch,
                                                &refused);
    CHECK(n_refused == 5, "%s: %"PRIuSIZE" refused", mode, n_refused);
    CHECK(dp_packet_batch_size(&batch) == 3, "%s: %"PRIuSIZE" kept", mode,
          dp_packet_batch_size(&batch));
    for (int i = 0; i < 3 && i < dp_packet_batch_size(&batch); i++) {
        CHECK(batch.packets[i] == pkts[i], "%s: kept packet %d", mode, i);
    }
    for (int i = 0; i < 5 && i < dp_packet_batch_size(&refused); i++) {
        struct oko_chain history;

        CHECK(refused.packets[i] == pkts[3 + i], "%s: refused packet %d",
              mode, i);
        oko_dp_history_get(refused.packets[i], &history);
        CHECK(history.n == 1 && history.links[0].inst == inst
              && !history.links[0].result,
              "%s: history of refused packet %d: %u runs", mode, i,
              history.n);
        /* Checked again (as the datapath does when it classifies a
         * refused packet again): the recorded result, no run. */
        CHECK(!oko_dp_chain_accepts(dp, refused.packets[i]),
              "%s: refused packet %d accepted on a second check", mode, i);
    }
    oko_dp_history_leave(mark);
    CHECK(seen(inst) == BATCH, "%s: program ran %"PRIu64" times for %d "
          "packets", mode, seen(inst), BATCH);

    uint64_t accepts;
    atomic_read_relaxed(&dp->accepts, &accepts);
    CHECK(accepts == 3, "%s: %"PRIu64" accepted checks counted", mode,
          accepts);
    struct oko_instance_totals t;
    oko_instance_get_totals(inst, &t);
    CHECK(t.runs == BATCH && t.matches == 3, "%s: runs %"PRIu64", matches "
          "%"PRIu64, mode, t.runs, t.matches);

    /* A second batch: every packet refused, none kept. */
    dp_packet_delete_batch(&refused, true);
    dp_packet_batch_init(&refused);
    dp_packet_delete_batch(&batch, true);
    make_batch(&batch, pkts);
    mark = oko_dp_history_enter();
    n_refused = oko_dp_chain_check_batch(&checks, dp, &batch, &refused);
    oko_dp_history_leave(mark);
    CHECK(n_refused == BATCH && dp_packet_batch_is_empty(&batch),
          "%s: second batch: %"PRIuSIZE" refused", mode, n_refused);

    dp_packet_delete_batch(&refused, true);
    dp_packet_delete_batch(&batch, true);
    oko_dp_chain_destroy(dp);
    oko_instance_unref(inst);
    printf("flip inside one batch (%s): %s\n", mode,
           failures ? "FAILED" : "ok");
}

/* Flows of one thread with the same chain share one datapath chain, which
 * the statistics count once per flow; a flow of another thread has a chain
 * of its own with the same fused code; another result is another chain
 * with other code; a chain made while fusion is off is not shared with one
 * made while it is on; the last flow's chain frees it and its code. */
static void
test_chains_shared(const char *dir)
{
    oko_fused_set_enabled(true);
    unsigned int fused_before = oko_fused_count();
    unsigned int chains_before, flows_before, chains, flows;
    oko_dp_chain_count(&chains_before, &flows_before);
    struct oko_instance *inst = load(dir, "baseline.o", 7);
    struct oko_instance_totals t;
    struct oko_chain one, zero;
    bool ok;

    oko_chain_init(&one);
    oko_chain_append(&one, inst, true);
    oko_chain_init(&zero);
    oko_chain_append(&zero, inst, false);
    struct oko_dp_chain *a = oko_dp_chain_create(&one, &owner0, &ok);
    struct oko_dp_chain *b = oko_dp_chain_create(&one, &owner0, &ok);
    struct oko_dp_chain *c = oko_dp_chain_create(&zero, &owner0, &ok);
    struct oko_dp_chain *d = oko_dp_chain_create(&one, &owner1, &ok);
    CHECK(a == b, "two flows of one thread with one chain share it");
    CHECK(d != a && d->fused == a->fused,
          "another thread's flow has a chain of its own, same fused code");
    CHECK(c != a && c->fused != a->fused,
          "another result: another chain, other fused code");
    CHECK(oko_fused_count() == fused_before + 2, "%u fused chains",
          oko_fused_count() - fused_before);
    oko_dp_chain_count(&chains, &flows);
    CHECK(chains == chains_before + 3 && flows == flows_before + 4,
          "%u datapath chains for %u flows", chains - chains_before,
          flows - flows_before);
    oko_instance_get_totals(inst, &t);
    CHECK(t.datapath_flows == 4, "the program counts %"PRIu32" datapath "
          "flows", t.datapath_flows);

    oko_fused_set_enabled(false);
    struct oko_dp_chain *e = oko_dp_chain_create(&one, &owner0, &ok);
    CHECK(e != a && !e->fused, "made while fusion is off: not shared, "
          "not fused");
    oko_dp_chain_destroy(e);
    oko_fused_set_enabled(true);

    oko_dp_chain_destroy(a);
    oko_dp_chain_count(&chains, &flows);
    CHECK(chains == chains_before + 3 && flows == flows_before + 3,
          "one flow gone: %u chains for %u flows", chains - chains_before,
          flows - flows_before);
    CHECK(oko_fused_count() == fused_before + 2, "freed while a flow has it");
    oko_dp_chain_destroy(b);
    oko_dp_chain_destroy(c);
    oko_dp_chain_destroy(d);
    oko_dp_chain_count(&chains, &flows);
    CHECK(chains == chains_before && flows == flows_before,
          "%u chains for %u flows left after the last flow",
          chains - chains_before, flows - flows_before);
    CHECK(oko_fused_count() == fused_before, "%u left after the last flow",
          oko_fused_count() - fused_before);
    oko_instance_unref(inst);
    printf("chains and fused code shared and freed: %s\n",
           failures ? "FAILED" : "ok");
}

/* Fused code is held to its budget: a chain whose programs' code does not
 * fit what is left runs them one by one, with the same results, and gets
 * its code with a later flow once there is room. */
static void
test_fused_budget(const char *dir)
{
    oko_fused_set_enabled(true);
    struct oko_instance *inst = load(dir, "baseline.o", 9);
    struct oko_chain one, zero;
    bool ok;

    /* Room for one chain: its bound is a page for the frame and the
     * program's own code (one page). */
    oko_fused_set_max_bytes(oko_fused_bytes() + 8192);
    oko_chain_init(&one);
    oko_chain_append(&one, inst, true);
    oko_chain_init(&zero);
    oko_chain_append(&zero, inst, false);
    struct oko_dp_chain *a = oko_dp_chain_create(&one, &owner0, &ok);
    struct oko_dp_chain *b = oko_dp_chain_create(&zero, &owner0, &ok);
    CHECK(a->fused && !b->fused, "first chain fused, second over budget");

    struct dp_packet_batch batch, refused;
    struct dp_packet *pkts[BATCH];
    make_batch(&batch, pkts);
    dp_packet_batch_init(&refused);
    size_t mark = oko_dp_history_enter();
    struct oko_dp_checks checks;
    oko_dp_checks_init(&checks);
    CHECK(oko_dp_chain_check_batch(&checks, b, &batch, &refused) == BATCH,
          "unfused chain [baseline:0] refuses every packet");
    oko_dp_history_leave(mark);
    dp_packet_delete_batch(&refused, true);

    /* The first chain gone, its room is free: a new flow with the second
     * chain shares it and gets its code. */
    oko_dp_chain_destroy(a);
    struct oko_dp_chain *c = oko_dp_chain_create(&zero, &owner0, &ok);
    CHECK(c == b && b->fused && b->fused_fn,
          "a flow of the unfused chain, the budget free again: fused");
    oko_dp_chain_destroy(c);
    oko_dp_chain_destroy(b);
    oko_fused_set_max_bytes(0);
    oko_instance_unref(inst);
    printf("fused code held to its budget: %s\n", failures ? "FAILED" : "ok");
}

/* Reads 'packet' as fused code does (oko_fused_pkt_layout()). */
static void
read_as_fused(const struct dp_packet *packet, const void **data,
              uint32_t *len)
{
    const struct oko_jit_pkt_layout *layout = oko_fused_pkt_layout();
    const uint8_t *raw = (const uint8_t *) packet;
    uint8_t *base;
    uint16_t ofs;

    memcpy(&base, raw + layout->base, sizeof base);
    memcpy(&ofs, raw + layout->data_ofs, sizeof ofs);
    memcpy(len, raw + layout->len, sizeof *len);
    *data = ofs == UINT16_MAX ? NULL : base + ofs;
}

/* Fused code reads a dp_packet's data and length where dp_packet_data()
 * and dp_packet_size() do: with headroom, without data, and longer than a
 * program may see. */
static void
test_fused_reads_dp_packet(void)
{
    uint8_t bytes[100] = { 0 };
    struct dp_packet *p = dp_packet_clone_data_with_headroom(bytes,
                                                             sizeof bytes,
                                                             64);
    const void *data;
    uint32_t len;

    read_as_fused(p, &data, &len);
    CHECK(data == dp_packet_data(p) && len == dp_packet_size(p),
          "data %p len %"PRIu32" against %p %"PRIu32, data, len,
          dp_packet_data(p), dp_packet_size(p));
#ifdef DPDK_NETDEV
    /* An mbuf's segment length is 16 bits and dp_packet_set_size() asserts
     * that a packet fits it; its total length, which dp_packet_size()
     * reads, is 32 bits: set where a multi-segment mbuf would have it. */
    p->mbuf.pkt_len = OKO_MAX_PKT_LEN + 1;
#else
    dp_packet_set_size(p, OKO_MAX_PKT_LEN + 1);
#endif
    read_as_fused(p, &data, &len);
    CHECK(len == OKO_MAX_PKT_LEN + 1 && len == dp_packet_size(p),
          "len %"PRIu32" against %"PRIu32, len, dp_packet_size(p));
    dp_packet_set_data(p, NULL);
    read_as_fused(p, &data, &len);
    CHECK(!data && !dp_packet_data(p), "no data: %p", data);
    dp_packet_delete(p);
    printf("fused code reads a dp_packet's data and length: %s\n",
           failures ? "FAILED" : "ok");
}

static void *
one_pass(void *arg OVS_UNUSED)
{
    oko_dp_history_leave(oko_dp_history_enter());
    return NULL;
}

/* A thread's history (its first pass maps it) is unmapped when the thread
 * exits: PMD threads are recreated when the PMD configuration changes. */
static void
test_history_freed_with_its_thread(void)
{
    enum { THREADS = 4 };
    pthread_t threads[THREADS];

    one_pass(NULL);                 /* This thread's, kept while it runs. */
    unsigned int before = oko_dp_history_count();
    for (int i = 0; i < THREADS; i++) {
        threads[i] = ovs_thread_create("oko-pass", one_pass, NULL);
    }
    for (int i = 0; i < THREADS; i++) {
        xpthread_join(threads[i], NULL);
    }
    CHECK(before >= 1 && oko_dp_history_count() == before,
          "%u histories before %d threads made one each, %u after they "
          "exited", before, THREADS, oko_dp_history_count());
    printf("history freed with its thread: %s\n",
           failures ? "FAILED" : "ok");
}

/* Sorts a batch holding 'batch_of' (positions in 'arrival', -1: a packet
 * not in the input) and checks it against 'want' (positions again). */
static bool
arrival_sorted(struct dp_packet *const arrival[], size_t n,
               struct dp_packet *stranger, const int batch_of[],
               const int want[], size_t k)
{
    struct oko_dp_arrival order;
    struct dp_packet_batch batch;

    oko_dp_arrival_init(&order, arrival, n);
    dp_packet_batch_init(&batch);
    for (size_t i = 0; i < k; i++) {
        batch.packets[i] = batch_of[i] < 0 ? stranger : arrival[batch_of[i]];
    }
    batch.count = k;
    oko_dp_arrival_sort(&order, &batch);
    for (size_t i = 0; i < k; i++) {
        struct dp_packet *p = want[i] < 0 ? stranger : arrival[want[i]];
        if (batch.packets[i] != p) {
            return false;
        }
    }
    return true;
}

/* Packets a chain refused rejoin batches in the order the pass received
 * them: a full burst of packets a constant stride apart (as an mbuf pool
 * gives them, the case that makes a pointer hash collide), arrived in a
 * shuffled order. */
static void
test_arrival_order(void)
{
    enum { N = NETDEV_MAX_BURST, STRIDE = 4096 };
    struct spaced {
        struct dp_packet packet;
        uint8_t pad[STRIDE - sizeof(struct dp_packet)];
    };
    BUILD_ASSERT_DECL(sizeof(struct spaced) == STRIDE);
    static struct spaced pool[N + 1];
    struct dp_packet *arrival[N];
    struct dp_packet *stranger = &pool[N].packet;
    int batch_of[N], want[N];
    int before = failures;

    for (size_t i = 0; i < N; i++) {
        /* 7 is prime to N: every packet once, out of memory order. */
        arrival[i] = &pool[i * 7 % N].packet;
    }
    /* The whole burst, reversed. */
    for (size_t i = 0; i < N; i++) {
        batch_of[i] = N - 1 - i;
        want[i] = i;
    }
    CHECK(arrival_sorted(arrival, N, stranger, batch_of, want, N),
          "a reversed burst is not put back in arrival order");
    /* A flow's batch (positions 3, 9, 20) joined by refused packets
     * (30, 1, 12) after it, and a packet not in the input (first). */
    int joined[] = { 3, 9, 20, 30, 1, 12, -1 };
    int joined_want[] = { -1, 1, 3, 9, 12, 20, 30 };
    CHECK(arrival_sorted(arrival, N, stranger, joined, joined_want,
                         ARRAY_SIZE(joined)),
          "a batch joined by refused packets is not in arrival order");
    /* A pass of 5: the table holds only those. */
    int few[] = { 4, 0, 2 };
    int few_want[] = { 0, 2, 4 };
    CHECK(arrival_sorted(arrival, 5, stranger, few, few_want,
                         ARRAY_SIZE(few)),
          "a short pass's packets are not in arrival order");
    printf("refused packets rejoin in arrival order: %s\n",
           failures > before ? "FAILED" : "ok");
}

int
main(int argc, char *argv[])
{
    const char *dir = argc > 1 ? argv[1] : ".";

    test_flip_inside_batch(dir, true);
    test_flip_inside_batch(dir, false);
    test_chains_shared(dir);
    test_fused_budget(dir);
    test_history_freed_with_its_thread();
    test_fused_reads_dp_packet();
    test_arrival_order();
    return failures ? 1 : 0;
}
