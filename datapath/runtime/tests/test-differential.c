/* Differential testing (CUnit): generated programs that the verifier
 * accepts run in our interpreter, our JIT and DPDK's librte_bpf
 * interpreter on random packets; r0 must agree everywhere.
 *
 * Two generators: the full instruction set (ours only: librte_bpf has no
 * JMP32, signed division, sign-extending moves or most atomics), and the
 * subset both implement with the same meaning (no division by a register
 * that may be 0, no shift by a register: librte_bpf aborts or leaves them
 * to C's undefined behaviour; "le16"/"le32", which it leaves untruncated
 * where RFC 9669 truncates).  Programs start by setting every register
 * they use, r2 to the packet length (librte_bpf passes only r1).
 *
 * librte_bpf's JIT is no oracle: on DPDK 22.11 it crashed on 37 of 1932
 * such programs and disagreed with librte_bpf's own interpreter on others
 * (measured 2026-11-22), so it is left to the benchmarks. */
#include <CUnit/Basic.h>
#include <rte_bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-filter.h"
#include "oko-isa.h"
#include "util.h"

#define PKT_LEN 64
#define STACK_SLOTS_USED 8
#define MAX_BODY 40

struct gen {
    unsigned seed;
    /* full ISA, or the librte_bpf subset */
    bool full;
    struct oko_insn insns[256];
    size_t n;
};

static unsigned
rnd(struct gen *g, unsigned n)
{
    return rand_r(&g->seed) % n;
}

static void
put(struct gen *g, uint8_t opcode, int dst, int src, int16_t off, int32_t imm)
{
    g->insns[g->n++] = (struct oko_insn){ .opcode = opcode,
                                          .dst = dst,
                                          .src = src,
                                          .off = off,
                                          .imm = imm };
}

/* A register the program may write: r0, r2-r9 (r1 stays the packet). */
static int
data_reg(struct gen *g)
{
    static const int regs[] = { 0, 2, 3, 4, 5, 6, 7, 8, 9 };
    return regs[rnd(g, 9)];
}

static int32_t
interesting_imm(struct gen *g)
{
    static const int32_t values[]
        = { 0,  1,  -1,  2,          7,         8,          31,   32,
            63, 64, 255, 0x7fffffff, INT32_MIN, 0x12345678, -100, 65535 };
    return rnd(g, 3) ? values[rnd(g, 16)] : (int32_t) rand_r(&g->seed);
}

static void
gen_alu(struct gen *g)
{
    bool is64 = rnd(g, 2);
    int cls = is64 ? CLASS_ALU64 : CLASS_ALU;
    int dst = data_reg(g);
    static const int ops[] = { 0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60,
                               0x70, 0x80, 0x90, 0xa0, 0xb0, 0xc0, 0xd0 };
    int op = ops[rnd(g, 14)];
    bool x = rnd(g, 2);
    switch (op) {
    case 0x80:
        put(g, cls | op, dst, 0, 0, 0);
        return;
    case 0xd0: {
        int width = 16 << rnd(g, 3);
        if (g->full && rnd(g, 3) == 0) {
            put(g, CLASS_ALU64 | OP_END, dst, 0, 0, width);       /* bswap */
        } else if (g->full) {
            put(g, CLASS_ALU | OP_END | (rnd(g, 2) ? SRC_X : 0), dst, 0, 0,
                width);
        } else {
            /* librte_bpf: see above */
            put(g, CLASS_ALU | OP_END | SRC_X, dst, 0, 0, width);
        }
        return;
    }
    case 0x60: case 0x70: case 0xc0:
        if (x && g->full) {
            put(g, cls | op | SRC_X, dst, data_reg(g), 0, 0);
        } else {
            put(g, cls | op, dst, 0, 0, rnd(g, is64 ? 64 : 32));
        }
        return;
    case 0x30: case 0x90: {
        int16_t off = g->full && rnd(g, 2) ? 1 : 0;
        if (x && g->full) {
            put(g, cls | op | SRC_X, dst, data_reg(g), off, 0);
        } else {
            int32_t imm = interesting_imm(g);
            if (!g->full && imm == 0) {
                imm = 3;
            }
            put(g, cls | op, dst, 0, off, imm);
        }
        return;
    }
    case 0xb0:
        if (g->full && x && rnd(g, 3) == 0) {
            int widths[] = { 8, 16, 32 };
            put(g, cls | op | SRC_X, dst, data_reg(g),
                widths[rnd(g, is64 ? 3 : 2)], 0);
            return;
        }
        /* fall through */
    default:
        if (x) {
            put(g, cls | op | SRC_X, dst, data_reg(g), 0, 0);
        } else {
            put(g, cls | op, dst, 0, 0, interesting_imm(g));
        }
    }
}

static void
gen_memory(struct gen *g)
{
    static const int sizes[] = { SIZE_B, SIZE_H, SIZE_W, SIZE_DW };
    int size = sizes[rnd(g, 4)];
    int bytes = size == SIZE_B   ? 1
                : size == SIZE_H ? 2
                : size == SIZE_W ? 4
                                 : 8;
    int16_t stack_off
        = -(int16_t) (bytes * (1 + rnd(g, STACK_SLOTS_USED * 8 / bytes)));
    switch (rnd(g, g->full ? 5 : 4)) {
    case 0: {                                           /* packet read */
        bool sx = g->full && size != SIZE_DW && rnd(g, 3) == 0;
        put(g, CLASS_LDX | (sx ? MODE_MEMSX : MODE_MEM) | size, data_reg(g), 1,
            0, 0);
        g->insns[g->n - 1].off = rnd(g, PKT_LEN - bytes + 1);
        break;
    }
    case 1:                                             /* stack read */
        put(g, CLASS_LDX | MODE_MEM | size, data_reg(g), 10, stack_off, 0);
        break;
    case 2:
        put(g, CLASS_STX | MODE_MEM | size, 10, data_reg(g), stack_off, 0);
        break;
    case 3:
        put(g, CLASS_ST | MODE_MEM | size, 10, 0, stack_off,
            interesting_imm(g));
        break;
    /* atomic on the stack */
    default: {
        static const int ops[]
            = { 0x00, 0x01, 0x40, 0x41, 0x50, 0x51, 0xa0, 0xa1, 0xe1, 0xf1 };
        bool w = rnd(g, 2);
        int16_t off
            = w ? -8 * (1 + rnd(g, STACK_SLOTS_USED)) : -4 * (1 + rnd(g, 16));
        put(g, CLASS_STX | MODE_ATOMIC | (w ? SIZE_DW : SIZE_W), 10,
            data_reg(g), off, ops[rnd(g, 10)]);
    }
    }
}

/* A program: prologue, body with forward jumps, "exit". */
static void
generate(struct gen *g)
{
    g->n = 0;
    for (int r = 0; r <= 9; r++) {
        if (r == 1) {
            continue;
        }
        if (r == 2) {
            put(g, CLASS_ALU64 | 0xb0, 2, 0, 0, PKT_LEN);
        } else if (rnd(g, 4)) {
            put(g, CLASS_ALU64 | 0xb0, r, 0, 0, interesting_imm(g));
        } else {
            put(g, LDDW_OPCODE, r, 0, 0, rand_r(&g->seed));
            put(g, 0, 0, 0, 0, rand_r(&g->seed));
        }
    }
    for (int slot = 1; slot <= STACK_SLOTS_USED; slot++) {
        put(g, CLASS_ST | MODE_MEM | SIZE_DW, 10, 0, -8 * slot,
            interesting_imm(g));
    }
    size_t body = 1 + rnd(g, MAX_BODY);
    /* index of the final exit */
    size_t end = g->n + body;
    while (g->n < end) {
        int what = rnd(g, 10);
        if (what < 5) {
            gen_alu(g);
        } else if (what < 8) {
            gen_memory(g);
        } else {
            static const int ops[] = { 0x10, 0x20, 0x30, 0x40, 0x50, 0x60,
                                       0x70, 0xa0, 0xb0, 0xc0, 0xd0 };
            int cls = g->full && rnd(g, 3) == 0 ? CLASS_JMP32 : CLASS_JMP;
            /* forward, at most to the exit */
            int16_t off = rnd(g, end - g->n);
            if (rnd(g, 2)) {
                put(g, cls | ops[rnd(g, 11)] | SRC_X, data_reg(g), data_reg(g),
                    off, 0);
            } else {
                put(g, cls | ops[rnd(g, 11)], data_reg(g), 0, off,
                    interesting_imm(g));
            }
        }
    }
    g->n = end;
    put(g, CLASS_JMP | OP_EXIT, 0, 0, 0, 0);
}

#define N_PACKETS 8

static struct rte_bpf *
rte_load(const struct gen *g)
{
    struct rte_bpf_prm prm = {
        .ins = (const struct ebpf_insn *) g->insns,
        .nb_ins = g->n,
        .prog_arg = { .type = RTE_BPF_ARG_PTR, .size = PKT_LEN },
    };
    return rte_bpf_load(&prm);
}

static void
run_generated(bool full, int rounds, unsigned seed)
{
    struct gen g = { .seed = seed, .full = full };
    int accepted = 0, compared_rte = 0, rte_refused = 0, mismatches = 0;
    long runs = 0;
    for (int round = 0; round < rounds; round++) {
        generate(&g);
        struct oko_program prog = { .n_insns = g.n };
        prog.insns = malloc(g.n * sizeof *prog.insns);
        memcpy(prog.insns, g.insns, g.n * sizeof *prog.insns);
        struct oko_filter_options opts = { .verify = { .min_len = PKT_LEN } };
        struct oko_filter *f;
        char error[OKO_ERROR_MAX];
        if (oko_filter_from_program(&prog, &opts, &f, error)) {
            continue;
        }
        accepted++;
        struct rte_bpf *rte = full ? NULL : rte_load(&g);
        bool with_rte = rte != NULL;
        if (!full) {
            compared_rte += with_rte;
            rte_refused += !with_rte;
        }
        for (int p = 0; p < N_PACKETS; p++) {
            uint8_t pkt[PKT_LEN];
            for (int i = 0; i < PKT_LEN; i++) {
                pkt[i] = rand_r(&g.seed);
            }
            uint64_t interp
                = oko_interp_run(f->code, pkt, PKT_LEN, oko_stack_top());
            uint64_t jit = f->jit.fn(pkt, PKT_LEN, oko_stack_top());
            uint64_t rte_r0 = with_rte ? rte_bpf_exec(rte, pkt) : interp;
            bool same = interp == jit && rte_r0 == interp;
            if (!same && mismatches < 5) {
                printf("\n  seed %u round %d: interp %#llx jit %#llx "
                       "librte_bpf %#llx",
                       seed, round, (unsigned long long) interp,
                       (unsigned long long) jit, (unsigned long long) rte_r0);
            }
            mismatches += !same;
            runs++;
        }
        if (rte) {
            rte_bpf_destroy(rte);
        }
        oko_filter_destroy(f);
    }
    printf("\n  %s: %d programs, %d accepted, %ld packet runs, %d also in "
           "librte_bpf "
           "(%d refused by its validator), %d mismatches\n",
           full ? "full ISA" : "common subset", rounds, accepted, runs,
           compared_rte, rte_refused, mismatches);
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT(accepted > rounds / 2);
    if (!full) {
        CU_ASSERT(compared_rte > accepted / 2);
    }
}

static void
test_full_isa(void)
{
    run_generated(true, 10000, 1);
}

static void
test_common_subset(void)
{
    run_generated(false, 10000, 2);
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "interpreter = JIT, full instruction set", test_full_isa },
        { "interpreter = JIT = librte_bpf, common subset",
          test_common_subset },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "differential", cases);
}
