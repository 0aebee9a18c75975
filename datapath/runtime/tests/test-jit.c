/* Unit tests of where the JIT puts its code (CUnit): near the runtime's
 * text, so that helper calls are direct, and anywhere when nothing near is
 * free, with the same results either way.  And of fused chains: one
 * function running several programs gives what running them one by one
 * gives. */
#define _GNU_SOURCE
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "oko-asm.h"
#include "oko-filter.h"
#include "oko-helpers.h"
#include "oko-jit.h"
#include "util.h"

#define N_FILTERS 300
#define IPPROTO_TCP 6

static bool
within_rel32(const void *code, const void *target)
{
    intptr_t distance = (intptr_t) target - (intptr_t) code;
    return distance == (int32_t) distance;
}

static struct oko_filter *
load_jitted(const char *name)
{
    size_t size;
    void *elf = read_prog_file(name, &size);
    struct oko_filter_options opts = { .interpret = false };
    struct oko_filter *filter = NULL;
    char error[OKO_ERROR_MAX];
    int err = oko_filter_load(elf, size, &opts, &filter, error);
    free(elf);
    CU_ASSERT_EQUAL_FATAL(err, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(filter->jit.fn);
    return filter;
}

/* count_by_proto calls five helpers: the first TCP packet does not match,
 * the second does (its protocol was seen), and the count map holds 2. */
static void
check_count_by_proto(struct oko_filter *filter)
{
    uint8_t pkt[64] = { 0 };
    pkt[12] = 0x08;
    pkt[14] = 0x45;
    pkt[23] = IPPROTO_TCP;
    CU_ASSERT_EQUAL(oko_filter_run(filter, pkt, sizeof pkt), 0);
    CU_ASSERT_EQUAL(oko_filter_run(filter, pkt, sizeof pkt), 1);
    uint32_t proto = IPPROTO_TCP;
    oko_epoch_enter();
    const uint64_t *count = oko_map_lookup(filter->maps[0], &proto);
    CU_ASSERT_PTR_NOT_NULL(count);
    if (count) {
        CU_ASSERT_EQUAL(*count, 2);
    }
    oko_epoch_exit();
}

static void
test_code_near_helpers(void)
{
    static struct oko_filter *filters[N_FILTERS];
    /* the second reuses the first's space */
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < N_FILTERS; i++) {
            filters[i] = load_jitted("count_by_proto.o");
            for (int h = 1; h < OKO_N_HELPERS; h++) {
                if (oko_helper_table[h]) {
                    CU_ASSERT(within_rel32(filters[i]->jit.code,
                                           (void *) oko_helper_table[h]));
                }
            }
        }
        for (int i = 0; i < N_FILTERS; i++) {
            check_count_by_proto(filters[i]);
            oko_filter_destroy(filters[i]);
        }
    }
}

/* Fills the pages the JIT would search with a mapping of our own. */
static void
occupy_near_window(void **start, size_t *size)
{
    uintptr_t window;
    CU_ASSERT_EQUAL_FATAL(oko_jit_near_window(&window, size), 0);
    *start = (void *) window;
    void *p = mmap(*start, *size, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
                       | MAP_FIXED_NOREPLACE,
                   -1, 0);
    CU_ASSERT_EQUAL_FATAL(p, *start);
}

static void
test_code_anywhere_when_nothing_near_is_free(void)
{
    void *window;
    size_t window_size;
    occupy_near_window(&window, &window_size);

    struct oko_filter *filter = load_jitted("count_by_proto.o");
    uint8_t *code = filter->jit.code;
    CU_ASSERT(code + filter->jit.size <= (uint8_t *) window
              || code >= (uint8_t *) window + window_size);
    check_count_by_proto(filter);
    oko_filter_destroy(filter);

    munmap(window, window_size);
    filter = load_jitted("count_by_proto.o");
    CU_ASSERT(within_rel32(filter->jit.code, (void *) oko_helper_table[1]));
    check_count_by_proto(filter);
    oko_filter_destroy(filter);
}

/* ---- Fused chains ---- */

/* Programs of the chain tests: stateless (reads the packet), stateful with
 * helpers (count_by_proto), stateful without a packet read (first_packets,
 * a limit of one), a constant (baseline), and bpf-to-bpf calls inlined
 * (functions). */
static const char *const chain_progs[] = {
    "http_to_10_0_0_1.o", "count_by_proto.o", "first_packets.o", "baseline.o",
    "functions.o",
};
#define N_CHAIN_PROGS (sizeof chain_progs / sizeof chain_progs[0])

static void
make_packet(uint8_t pkt[64], unsigned int seed)
{
    memset(pkt, 0, 64);
    pkt[12] = 0x08;                             /* IPv4 */
    pkt[14] = 0x45;
    pkt[23] = seed % 3 ? IPPROTO_TCP : 17;
    pkt[30] = 10;                               /* 10.0.0.1 or 10.0.0.2 */
    pkt[33] = 1 + seed % 2;
    pkt[36] = 0;
    pkt[37] = seed % 5 ? 80 : 22;               /* dst port */
}

static uint64_t
map_count(const struct oko_filter *filter, uint32_t key)
{
    oko_epoch_enter();
    const uint64_t *v = oko_map_lookup(filter->maps[0], &key);
    uint64_t count = v ? *v : 0;
    oko_epoch_exit();
    return count;
}

/* The reference: each program through its own JIT'd function, stopping at
 * the first r0 that differs from what the chain expects. */
static uint64_t
run_one_by_one(struct oko_filter *const filters[], const uint64_t expect[],
               size_t n, const void *pkt, uint64_t len, uint64_t *r0)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = oko_filter_run(filters[i], pkt, len);
        if (r != expect[i]) {
            *r0 = r;
            return i;
        }
    }
    return n;
}

/* A packet structure as the tests give fused code: the buffer, the data's
 * offset in it, the length, as a dp_packet holds them (other members
 * around them, so that an offset mixed up shows). */
struct test_pkt {
    uint32_t len;
    uint64_t pad;
    void *base;
    uint16_t data_ofs;
};

static const struct oko_jit_pkt_layout test_layout = {
    .base = offsetof(struct test_pkt, base),
    .data_ofs = offsetof(struct test_pkt, data_ofs),
    .len = offsetof(struct test_pkt, len),
};

/* 'data' as a test_pkt whose buffer starts 'headroom' bytes before it. */
static struct test_pkt
test_pkt(const void *data, uint32_t len, uint16_t headroom)
{
    return (struct test_pkt) {
        .len = len, .pad = 0x5a5a5a5a5a5a5a5aull,
        .base = (uint8_t *) data - headroom, .data_ofs = headroom,
    };
}

static int
compile_chain(const struct oko_jit_chain_link *links, size_t n,
              struct oko_jit_chain *chain, char error[OKO_ERROR_MAX])
{
    return oko_jit_compile_chain(links, n, &test_layout, chain, error);
}

/* The fused chain of 'n' programs on one packet, as run_one_by_one()
 * reports it: the refusing program's index with its r0, or 'n'. */
static uint64_t
run_fused(const struct oko_jit_chain *chain, size_t n, const void *pkt,
          uint64_t len, uint64_t *r0)
{
    struct test_pkt tp = test_pkt(pkt, len, 3);
    const void *one = &tp;
    struct oko_jit_refusal refusal = { .at = 99, .r0 = 99 };

    oko_epoch_enter();
    uint64_t accepted = chain->fn(&one, 1, oko_stack_top(), &refusal);
    oko_epoch_exit();
    if (accepted == 1) {
        CU_ASSERT(refusal.at == 99 && refusal.r0 == 99);
        return n;
    }
    CU_ASSERT_EQUAL(accepted, 0);
    *r0 = refusal.r0;
    return refusal.at;
}

/* Round 'round''s chain: 1 to N_CHAIN_PROGS of the programs, rotated, with
 * the round's bits as expected results; the references in 'ref_chain',
 * the fused copies' code in 'links'.  Returns its length. */
static size_t
pick_chain(int round, struct oko_filter *const ref[],
           struct oko_filter *const fused[], struct oko_filter *ref_chain[],
           struct oko_jit_chain_link links[], uint64_t expect[])
{
    size_t n = 1 + round % N_CHAIN_PROGS;
    for (size_t i = 0; i < n; i++) {
        size_t k = (i + round) % N_CHAIN_PROGS;
        ref_chain[i] = ref[k];
        expect[i] = (round >> i) & 1;
        links[i] = (struct oko_jit_chain_link) {
            .insns = fused[k]->code, .n_insns = fused[k]->prog.n_insns,
            .expect = expect[i],
        };
    }
    return n;
}

/* Two copies of every program (the same state at the start), one run one
 * by one and one fused in chains of every length and order the seed picks:
 * the same refusal index, the same r0, and the same map contents after 400
 * packets. */
static void
test_chain_matches_one_by_one(void)
{
    struct oko_filter *ref[N_CHAIN_PROGS], *fused[N_CHAIN_PROGS];
    for (size_t i = 0; i < N_CHAIN_PROGS; i++) {
        ref[i] = load_jitted(chain_progs[i]);
        fused[i] = load_jitted(chain_progs[i]);
    }
    unsigned int seed = 1;
    for (int round = 0; round < 40; round++) {
        struct oko_filter *ref_chain[N_CHAIN_PROGS];
        struct oko_jit_chain_link links[N_CHAIN_PROGS];
        uint64_t expect[N_CHAIN_PROGS];
        size_t n = pick_chain(round, ref, fused, ref_chain, links, expect);
        struct oko_jit_chain chain;
        char error[OKO_ERROR_MAX];
        CU_ASSERT_EQUAL_FATAL(compile_chain(links, n, &chain, error),
                              0);
        for (int p = 0; p < 10; p++) {
            uint8_t pkt[64];
            make_packet(pkt, seed = seed * 1103515245 + 12345);
            uint64_t ref_r0 = 77, fused_r0 = 77;
            uint64_t ref_i = run_one_by_one(ref_chain, expect, n, pkt,
                                            sizeof pkt, &ref_r0);
            uint64_t fused_i = run_fused(&chain, n, pkt, sizeof pkt,
                                       &fused_r0);
            CU_ASSERT_EQUAL(fused_i, ref_i);
            CU_ASSERT_EQUAL(fused_r0, ref_r0);
        }
        oko_jit_chain_free(&chain);
    }
    /* count_by_proto's counts and first_packets's position agree. */
    for (uint32_t proto = 0; proto < 256; proto++) {
        CU_ASSERT_EQUAL(map_count(fused[1], proto), map_count(ref[1], proto));
    }
    /* 'limit' (maps[0]) stays 0 */
    CU_ASSERT_EQUAL(map_count(fused[2], 0), 0);
    for (size_t i = 0; i < N_CHAIN_PROGS; i++) {
        oko_filter_destroy(ref[i]);
        oko_filter_destroy(fused[i]);
    }
}

/* A refusal stops the chain: the program after it does not run (its count
 * stays), and the refusing program's r0 is reported. */
static void
test_chain_stops_at_refusal(void)
{
    struct oko_filter *http = load_jitted("http_to_10_0_0_1.o");
    struct oko_filter *counter = load_jitted("count_by_proto.o");
    struct oko_jit_chain_link links[] = {
        { .insns = http->code, .n_insns = http->prog.n_insns, .expect = 1 },
        { .insns = counter->code,
          .n_insns = counter->prog.n_insns,
          .expect = 1 },
    };
    struct oko_jit_chain chain;
    char error[OKO_ERROR_MAX];
    CU_ASSERT_EQUAL_FATAL(compile_chain(links, 2, &chain, error), 0);

    uint8_t pkt[64];
    make_packet(pkt, 0);                        /* UDP to 10.0.0.1: not HTTP */
    uint64_t r0 = 77;
    CU_ASSERT_EQUAL(run_fused(&chain, 2, pkt, sizeof pkt, &r0), 0);
    CU_ASSERT_EQUAL(r0, 0);
    CU_ASSERT_EQUAL(map_count(counter, 17), 0);

    make_packet(pkt, 1);                        /* TCP port 80 to 10.0.0.2 */
    pkt[33] = 1;                                /* to 10.0.0.1 */
    r0 = 77;
    /* first TCP: 0 */
    CU_ASSERT_EQUAL(run_fused(&chain, 2, pkt, sizeof pkt, &r0), 1);
    CU_ASSERT_EQUAL(r0, 0);
    CU_ASSERT_EQUAL(map_count(counter, IPPROTO_TCP), 1);
    r0 = 77;
    /* seen: accepted */
    CU_ASSERT_EQUAL(run_fused(&chain, 2, pkt, sizeof pkt, &r0), 2);
    CU_ASSERT_EQUAL(r0, 77);
    CU_ASSERT_EQUAL(map_count(counter, IPPROTO_TCP), 2);

    oko_jit_chain_free(&chain);
    oko_filter_destroy(http);
    oko_filter_destroy(counter);
}

/* One call for a batch: the fused chain over 16 packets of different
 * contents and lengths, called again after each refusal (as the datapath
 * does), stops at the same packets with the same program and r0 as the
 * programs run one by one on each packet, and leaves the same map
 * contents.  With no packets it returns 0 and runs nothing. */
static void
test_chain_batch_matches_one_by_one(void)
{
    enum { BATCH = 16 };
    struct oko_filter *ref[N_CHAIN_PROGS], *fused[N_CHAIN_PROGS];
    for (size_t i = 0; i < N_CHAIN_PROGS; i++) {
        ref[i] = load_jitted(chain_progs[i]);
        fused[i] = load_jitted(chain_progs[i]);
    }
    unsigned int seed = 7;
    size_t n_refused = 0, n_accepted = 0;
    for (int round = 0; round < 40; round++) {
        struct oko_filter *ref_chain[N_CHAIN_PROGS];
        struct oko_jit_chain_link links[N_CHAIN_PROGS];
        uint64_t expect[N_CHAIN_PROGS];
        size_t n = pick_chain(round, ref, fused, ref_chain, links, expect);
        struct oko_jit_chain chain;
        char error[OKO_ERROR_MAX];
        CU_ASSERT_EQUAL_FATAL(compile_chain(links, n, &chain, error), 0);

        uint8_t data[BATCH][64];
        struct test_pkt tp[BATCH];
        const void *pkts[BATCH];
        uint64_t ref_at[BATCH], ref_r0[BATCH];
        for (size_t p = 0; p < BATCH; p++) {
            make_packet(data[p], seed = seed * 1103515245 + 12345);
            /* Some too short for their TCP header. */
            uint32_t len = 34 + (seed >> 8) % 31;
            tp[p] = test_pkt(data[p], len, p % 4);
            pkts[p] = &tp[p];
            ref_r0[p] = 77;
            ref_at[p] = run_one_by_one(ref_chain, expect, n, data[p], len,
                                       &ref_r0[p]);
        }
        oko_epoch_enter();
        size_t i = 0;
        while (i < BATCH) {
            struct oko_jit_refusal refusal = { .at = 99, .r0 = 99 };
            uint64_t accepted = chain.fn(&pkts[i], BATCH - i,
                                         oko_stack_top(), &refusal);
            CU_ASSERT_FATAL(accepted <= BATCH - i);
            for (size_t p = i; p < i + accepted; p++) {
                CU_ASSERT_EQUAL(ref_at[p], n);
                n_accepted++;
            }
            i += accepted;
            if (i < BATCH) {
                CU_ASSERT_EQUAL(refusal.at, ref_at[i]);
                CU_ASSERT_EQUAL(refusal.r0, ref_r0[i]);
                n_refused++;
                i++;
            } else {
                CU_ASSERT(refusal.at == 99 && refusal.r0 == 99);
            }
        }
        struct oko_jit_refusal untouched = { .at = 99, .r0 = 99 };
        CU_ASSERT_EQUAL(chain.fn(pkts, 0, oko_stack_top(), &untouched), 0);
        CU_ASSERT(untouched.at == 99 && untouched.r0 == 99);
        oko_epoch_exit();
        oko_jit_chain_free(&chain);
    }
    /* Both kinds happened, in the same batches. */
    CU_ASSERT(n_refused > 40 && n_accepted > 40);
    for (uint32_t proto = 0; proto < 256; proto++) {
        CU_ASSERT_EQUAL(map_count(fused[1], proto), map_count(ref[1], proto));
    }
    for (size_t i = 0; i < N_CHAIN_PROGS; i++) {
        oko_filter_destroy(ref[i]);
        oko_filter_destroy(fused[i]);
    }
}

/* No program runs on a packet without data (its offset UINT16_MAX, or a
 * NULL pointer) or longer than OKO_MAX_PKT_LEN: the fused code refuses it
 * at the first program with the r0 oko_filter_run_in_section() gives, and
 * goes on with the next packet when called again.  count_by_proto counts
 * the runs. */
static void
test_chain_refuses_packets_it_cannot_run(void)
{
    struct oko_filter *counter = load_jitted("count_by_proto.o");
    struct oko_jit_chain_link links[] = {
        { .insns = counter->code, .n_insns = counter->prog.n_insns,
          .expect = 1 },
    };
    struct oko_jit_chain chain;
    char error[OKO_ERROR_MAX];
    CU_ASSERT_EQUAL_FATAL(compile_chain(links, 1, &chain, error), 0);

    uint8_t data[64];
    make_packet(data, 0);                       /* UDP */
    struct test_pkt tp[5] = {
        test_pkt(data, sizeof data, 0),         /* runs */
        test_pkt(data, sizeof data, 0),         /* no data */
        test_pkt(NULL, sizeof data, 0),         /* NULL data */
        test_pkt(data, OKO_MAX_PKT_LEN + 1, 0), /* too long */
        test_pkt(data, sizeof data, 0),         /* runs */
    };
    tp[1].data_ofs = UINT16_MAX;
    const void *pkts[5] = { &tp[0], &tp[1], &tp[2], &tp[3], &tp[4] };
    /* Packet 0 runs and is refused (the first UDP packet is not "seen"
     * yet); 1 to 3 do not run; 4 runs and is accepted. */
    static const uint64_t r0[4] = {
        0, OKO_R0_NO_PACKET, OKO_R0_NO_PACKET, OKO_R0_TOO_LONG,
    };

    oko_epoch_enter();
    for (size_t i = 0; i < 4; i++) {
        struct oko_jit_refusal refusal = { .at = 99, .r0 = 99 };
        CU_ASSERT_EQUAL(chain.fn(&pkts[i], 5 - i, oko_stack_top(), &refusal),
                        0);
        CU_ASSERT_EQUAL(refusal.at, 0);
        CU_ASSERT_EQUAL(refusal.r0, r0[i]);
    }
    struct oko_jit_refusal refusal = { .at = 99, .r0 = 99 };
    CU_ASSERT_EQUAL(chain.fn(&pkts[4], 1, oko_stack_top(), &refusal), 1);
    oko_epoch_exit();
    CU_ASSERT_EQUAL(map_count(counter, 17), 2);

    oko_jit_chain_free(&chain);
    oko_filter_destroy(counter);
}

/* A program that keeps some of r6-r9 across a helper call, with or without
 * a division (r12): its verdict on a packet of 'len' bytes whose first byte
 * is 'first'.  Each register it keeps adds to the verdict, so a loop that
 * put its cursor into one of them would show. */
struct keeper {
    bool r7, r9, divides;
};

static void
keeper_text(const struct keeper *k, char *buf, size_t size)
{
    const char *op = k->divides ? "div" : "mul";
    snprintf(buf, size,
             ".map runs array 4 8 1\n"
             "mov %%r0, 0\n"
             "jlt %%r2, 14, exit\n"
             "ldxb %%r6, [%%r1+0]\n"
             "%s"
             "mov %%r8, %%r2\n"
             "%s"
             "%s %%r8, %s\n"
             "stw [%%r10-4], 0\n"
             "mov %%r2, %%r10\n"
             "add %%r2, -4\n"
             "lddw %%r1, map runs\n"
             "call 1\n"                 /* clobbers r0-r5 */
             "jeq %%r0, 0, L1\n"
             "ldxdw %%r3, [%%r0+0]\n"
             "add %%r3, 1\n"
             "stxdw [%%r0+0], %%r3\n"
             "L1:\n"
             "mov %%r0, %%r8\n"
             "add %%r0, %%r6\n"
             "%s%s"
             "and %%r0, 1\n"
             "exit\n",
             k->r7 ? "mov %r7, %r2\n" : "",
             k->r9 ? "mov %r9, 3\n" : "", op, k->r9 ? "%r9" : "3",
             k->r7 ? "add %r0, %r7\n" : "", k->r9 ? "add %r0, %r9\n" : "");
}

static uint64_t
keeper_verdict(const struct keeper *k, uint32_t len, uint8_t first)
{
    if (len < 14) {
        return 0;
    }
    uint64_t v = (k->divides ? len / 3 : len * 3) + first;
    v += k->r7 ? len : 0;
    v += k->r9 ? 3 : 0;
    return v & 1;
}

/* Chains of one and two programs that leave no callee-saved register
 * spare, one, or two or more (r12 among them or not): the fused loop keeps
 * its cursor in the frame or in spare registers, and every packet of a
 * batch gets the verdicts its programs give, each program running once per
 * packet it reaches. */
static void
test_chain_spare_registers(void)
{
    static const struct keeper keepers[] = {
        { .r7 = true, .r9 = true, .divides = true },    /* none spare */
        { .r7 = true, .r9 = true, .divides = false },   /* r12 */
        { .r7 = true, .r9 = false, .divides = false },  /* r15, r12 */
        { .r7 = true, .r9 = false, .divides = true },   /* r15 */
        { .r7 = false, .r9 = false, .divides = true },  /* r13, r15 */
        { .r7 = false, .r9 = true, .divides = false },  /* r13, r12 */
    };
    enum { N_KEEPERS = sizeof keepers / sizeof keepers[0], BATCH = 16 };
    struct oko_filter *filters[N_KEEPERS];

    for (size_t i = 0; i < N_KEEPERS; i++) {
        char text[1024], error[OKO_ERROR_MAX];
        struct oko_program prog;
        struct oko_filter_options opts = { .interpret = false };

        keeper_text(&keepers[i], text, sizeof text);
        CU_ASSERT_EQUAL_FATAL(oko_asm(text, &prog, error), 0);
        CU_ASSERT_EQUAL_FATAL(oko_filter_from_program(&prog, &opts,
                                                      &filters[i], error), 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(filters[i]->jit.fn);
    }

    uint8_t data[BATCH][64];
    struct test_pkt tp[BATCH];
    const void *pkts[BATCH];
    for (size_t p = 0; p < BATCH; p++) {
        memset(data[p], 0, sizeof data[p]);
        data[p][0] = p * 7;
        tp[p] = test_pkt(data[p], 10 + p * 3, p % 4);   /* 10 to 55 */
        pkts[p] = &tp[p];
    }

    uint64_t runs[N_KEEPERS] = { 0 };
    for (size_t a = 0; a < N_KEEPERS; a++) {
        for (size_t b = 0; b <= N_KEEPERS; b++) {
            /* b == N_KEEPERS: 'a' alone. */
            size_t n = b < N_KEEPERS ? 2 : 1;
            size_t idx[2] = { a, b % N_KEEPERS };
            const struct keeper *k[2] = { &keepers[idx[0]],
                                          &keepers[idx[1]] };
            struct oko_jit_chain_link links[2];
            for (size_t i = 0; i < n; i++) {
                links[i] = (struct oko_jit_chain_link) {
                    .insns = filters[idx[i]]->code,
                    .n_insns = filters[idx[i]]->prog.n_insns,
                    .expect = 1,
                };
            }
            struct oko_jit_chain chain;
            char error[OKO_ERROR_MAX];
            CU_ASSERT_EQUAL_FATAL(compile_chain(links, n, &chain, error), 0);

            oko_epoch_enter();
            size_t i = 0;
            while (i < BATCH) {
                struct oko_jit_refusal refusal = { .at = 99, .r0 = 99 };
                uint64_t accepted = chain.fn(&pkts[i], BATCH - i,
                                             oko_stack_top(), &refusal);
                CU_ASSERT_FATAL(accepted <= BATCH - i);
                for (size_t p = i; p < i + accepted + (i + accepted < BATCH);
                     p++) {
                    /* The programs that ran on packet p, and where the
                     * first refused it (n: none). */
                    size_t at = n;
                    for (size_t l = 0; l < n && at == n; l++) {
                        runs[idx[l]] += tp[p].len >= 14;
                        if (!keeper_verdict(k[l], tp[p].len, data[p][0])) {
                            at = l;
                        }
                    }
                    if (p < i + accepted) {
                        CU_ASSERT_EQUAL(at, n);
                    } else {
                        CU_ASSERT_EQUAL(refusal.at, at);
                        CU_ASSERT_EQUAL(refusal.r0, 0);
                    }
                }
                i += accepted + 1;
            }
            oko_epoch_exit();
            oko_jit_chain_free(&chain);
        }
    }
    for (size_t i = 0; i < N_KEEPERS; i++) {
        /* Each run counted once (packets shorter than 14 bytes return
         * before the map). */
        CU_ASSERT(runs[i] > 0);
        CU_ASSERT_EQUAL(map_count(filters[i], 0), runs[i]);
        oko_filter_destroy(filters[i]);
    }
}

static void
test_chain_limits(void)
{
    struct oko_filter *base = load_jitted("baseline.o");
    struct oko_jit_chain_link links[OKO_JIT_CHAIN_MAX + 1];
    for (size_t i = 0; i <= OKO_JIT_CHAIN_MAX; i++) {
        links[i] = (struct oko_jit_chain_link) {
            .insns = base->code, .n_insns = base->prog.n_insns, .expect = 1,
        };
    }
    struct oko_jit_chain chain;
    char error[OKO_ERROR_MAX];
    CU_ASSERT_EQUAL(compile_chain(links, 0, &chain, error), EINVAL);
    CU_ASSERT_EQUAL(compile_chain(links, OKO_JIT_CHAIN_MAX + 1, &chain,
                                          error),
                    EINVAL);
    links[1].n_insns = 0;
    CU_ASSERT_EQUAL(compile_chain(links, 2, &chain, error), EINVAL);
    links[1].n_insns = OKO_MAX_INSNS + 1;
    CU_ASSERT_EQUAL(compile_chain(links, 2, &chain, error), EINVAL);
    links[1].n_insns = base->prog.n_insns;
    links[1].expect = (uint64_t) INT32_MAX + 1;
    CU_ASSERT_EQUAL(compile_chain(links, 2, &chain, error), EINVAL);
    links[1].expect = 1;

    /* The longest chain runs every program. */
    CU_ASSERT_EQUAL_FATAL(compile_chain(links, OKO_JIT_CHAIN_MAX,
                                                &chain, error),
                          0);
    uint8_t pkt[64] = { 0 };
    uint64_t r0 = 77;
    CU_ASSERT_EQUAL(run_fused(&chain, OKO_JIT_CHAIN_MAX, pkt, sizeof pkt,
                              &r0),
                    OKO_JIT_CHAIN_MAX);
    oko_jit_chain_free(&chain);

    /* The last program refuses. */
    links[OKO_JIT_CHAIN_MAX - 1].expect = 0;
    CU_ASSERT_EQUAL_FATAL(compile_chain(links, OKO_JIT_CHAIN_MAX,
                                                &chain, error),
                          0);
    CU_ASSERT_EQUAL(run_fused(&chain, OKO_JIT_CHAIN_MAX, pkt, sizeof pkt,
                              &r0),
                    OKO_JIT_CHAIN_MAX - 1);
    CU_ASSERT_EQUAL(r0, 1);
    oko_jit_chain_free(&chain);
    oko_filter_destroy(base);
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "code near the helpers", test_code_near_helpers },
        { "code anywhere when nothing near is free",
          test_code_anywhere_when_nothing_near_is_free },
        { "fused chain = programs one by one", test_chain_matches_one_by_one },
        { "fused chain stops at a refusal", test_chain_stops_at_refusal },
        { "fused chain over a batch = programs one by one",
          test_chain_batch_matches_one_by_one },
        { "fused chain refuses packets no program may run on",
          test_chain_refuses_packets_it_cannot_run },
        { "fused chain limits", test_chain_limits },
        { "fused chain with and without spare registers",
          test_chain_spare_registers },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "jit placement", cases);
}
