/* libFuzzer target: a structured program generator for the verifier, with
 * checked execution (oko-checked.h) as the oracle.
 *
 * The input is read as a sequence of choices, not as instructions: a
 * packet length and bytes, then gadgets of one to five instructions, each
 * one of the shapes the verifier's past unsoundness came from: arithmetic
 * (ALU and ALU32, byte swaps, sign extension) on the length and on numbers
 * read from the packet, comparisons with extreme constants, pointer
 * arithmetic and pointer differences, spills with partial overwrites and
 * reloads, packet/stack/map value accesses through computed pointers, map
 * lookups, and forward jumps that make joins.  Every accepted program runs
 * checked on the packet twice (the second run sees map state); any trap is
 * a finding (the program accepted something the verifier promises it
 * cannot do).  With OKO_FUZZ_DUMP=DIR in the environment, each generated
 * program is also written to DIR for the second opinion
 * (tools/second-opinion: accepted programs as a-N, rejected ones as r-N). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/second-opinion/dump-format.h"
#include "fuzz-common.h"
#include "oko-checked.h"
#include "oko-epoch.h"
#include "oko-filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
    const uint8_t *p;
    size_t left;
};

static uint8_t
byte(struct input *in)
{
    if (!in->left) {
        return 0;
    }
    in->left--;
    return *in->p++;
}

static const int64_t extremes[] = {
    0,
    1,
    -1,
    2,
    7,
    14,
    20,
    34,
    60,
    255,
    256,
    511,
    512,
    1500,
    65535,
    65536,
    INT32_MAX,
    INT32_MIN,
    (int64_t) UINT32_MAX,
    (int64_t) UINT32_MAX + 1,
    INT64_MAX,
    INT64_MIN,
    INT64_MAX - 1,
    INT64_MIN + 1,
    1 << 20,
    -(1 << 20),
    1 << 29,
    -8,
};
#define N_EXTREMES (sizeof extremes / sizeof *extremes)

struct gen {
    struct oko_insn insns[OKO_MAX_INSNS];
    int n;
    /* Forward jumps waiting for a target: their index and how many gadgets
     * ahead they land. */
    int jumps[64], jump_gadgets[64], n_jumps;
};

static void
emit(struct gen *g, uint8_t opcode, int dst, int src, int16_t off, int32_t imm)
{
    if (g->n < OKO_MAX_INSNS - 8) {
        g->insns[g->n++] = (struct oko_insn){ .opcode = opcode,
                                              .dst = dst,
                                              .src = src,
                                              .off = off,
                                              .imm = imm };
    }
}

static void
emit_lddw(struct gen *g, int dst, int src, uint64_t value)
{
    emit(g, 0x18, dst, src, 0, (int32_t) value);
    emit(g, 0x00, 0, 0, 0, (int32_t) (value >> 32));
}

static const uint8_t alu_ops[] = {
    0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60,
    0x70, 0x80, 0x90, 0xa0, 0xb0, 0xc0,
};
static const uint8_t jmp_ops[]
    = { 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0xa0, 0xb0, 0xc0, 0xd0 };

/* One gadget, chosen by the next byte. */
static void
gadget(struct gen *g, struct input *in)
{
    uint8_t kind = byte(in) % 12, a = byte(in), b = byte(in);
    int r = 3 + a % 7, s = 3 + b % 7;      /* r3..r9 */
    int64_t k = extremes[byte(in) % N_EXTREMES];
    bool is64 = a & 0x80;
    switch (kind) {
    /* a copy of len, or of the packet/stack pointer */
    case 0:
        emit(g, 0xbf, r, (b % 3 == 0) ? 2 : (b % 3 == 1) ? 1 : 10, 0, 0);
        break;
    /* ALU/ALU32 with an extreme constant or a register */
    case 1: {
        uint8_t op = alu_ops[b % sizeof alu_ops];
        int16_t off = (op == 0x30 || op == 0x90) ? (a >> 6) & 1
                      : op == 0xb0 && (a & 0x40)
                          ? (int16_t[]){ 8, 16, 32 }[b % 3]
                          : 0;
        if (op == 0xb0 && off == 32 && !is64) {
            off = 16;
        }
        if ((a & 0x20) && op != 0x80) {
            emit(g, (is64 ? 0x07 : 0x04) | op | 0x08, r, s, off, 0);
        } else {                            /* movsx only from a register */
            emit(g, (is64 ? 0x07 : 0x04) | op, r, 0, op == 0xb0 ? 0 : off,
                 (int32_t) k);
        }
        break;
    }
    case 2:                                 /* byte swap */
        emit(g, a & 1 ? 0xd7 : 0xd4 | (a & 2 ? 0x08 : 0), r, 0, 0,
             16 << (b % 3));
        break;
    case 3:                                 /* a 64-bit extreme constant */
        emit_lddw(g, r, 0, (uint64_t) k + (uint64_t) (int8_t) b);
        break;
    /* compare and jump a few gadgets ahead */
    case 4: {
        uint8_t op = jmp_ops[b % sizeof jmp_ops];
        uint8_t cls = a & 0x40 ? 0x06 : 0x05;
        if (g->n_jumps < 64) {
            g->jumps[g->n_jumps] = g->n;
            g->jump_gadgets[g->n_jumps++] = 1 + a % 4;
        }
        if (a & 0x20) {
            emit(g, cls | op | 0x08, r, a & 0x10 ? 2 : s, 0, 0);
        } else {
            emit(g, cls | op, r, 0, 0, (int32_t) k);
        }
        break;
    }
    /* load through a register (packet, stack, value) */
    case 5:
        /* MEM (0x61) or, but for 8 bytes, MEMSX (0x81) loads of each size. */
        emit(g,
             (a & 0x40 && b % 4 != 3 ? 0x81 : 0x61)
                 | (uint8_t[]){ 0x00, 0x08, 0x10, 0x18 }[b % 4],
             r, a & 0x20 ? s : (a & 0x10 ? 1 : 10),
             (int16_t) ((int8_t) byte(in)), 0);
        break;
    /* store: spill, partial overwrite, through pointers */
    case 6:
        if (a & 0x40) {
            emit(g, 0x62 | (uint8_t[]){ 0x00, 0x08, 0x10, 0x18 }[b % 4],
                 a & 0x20 ? s : 10, 0, (int16_t) (-8 * (1 + a % 8) + (b >> 5)),
                 (int32_t) k);
        } else {
            emit(g, 0x63 | (uint8_t[]){ 0x18, 0x18, 0x00, 0x10 }[b % 4],
                 a & 0x20 ? s : 10, a & 0x10 ? 1 : r,
                 (int16_t) (-8 * (1 + a % 8) + (b >> 6)), 0);
        }
        break;
    /* pointer plus a register, pointer difference */
    case 7:
        emit(g, 0x0f | (a & 1 ? 0x10 : 0), r, s, 0, 0);
        break;
    case 8: {                               /* map lookup, key on the stack */
        int map = b % 3;                    /* hash, array, lru */
        emit(g, 0x62, 10, 0, -16, (int32_t) k & 7);
        emit(g, 0x7a, 10, 0, -8, (int32_t) k & 7);
        emit(g, 0xbf, 2, 10, 0, 0);
        emit(g, 0x07, 2, 0, 0, map == 2 ? -8 : -16);
        emit_lddw(g, 1, OKO_PSEUDO_MAP_INDEX, map);
        emit(g, 0x85, 0, 0, 0, 1);
        emit(g, 0xbf, r, 0, 0, 0);
        /* Callers' r1 is gone: give it back for later packet gadgets. */
        emit(g, 0xbf, 1, 0, 0, 0);
        emit(g, 0xb7, 1, 0, 0, 0);
        break;
    }
    case 9:                                 /* null check of a value */
        emit(g, 0x55, r, 0, 1, 0);
        emit(g, 0xb7, r, 0, 0, 0);
        break;
    case 10:                                /* atomic add to memory */
        emit(g, a & 1 ? 0xc3 : 0xdb, a & 0x20 ? s : 10, r,
             (int16_t) (-8 * (1 + a % 8)), 0);
        break;
    default:                                /* the verdict */
        emit(g, 0xbf, 0, r, 0, 0);
        break;
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct gen g;
    struct input in = { data, size };
    size_t len = byte(&in) | (byte(&in) & 0x7) << 8;
    uint8_t pkt[2048];
    for (size_t i = 0; i < len; i++) {
        pkt[i] = byte(&in);
    }
    memset(&g, 0, sizeof g);
    /* Prologue: r0 and r3-r9 hold numbers, some from the packet length. */
    for (int r = 0; r <= 9; r++) {
        if (r == 1 || r == 2) {
            continue;
        }
        emit(&g, 0xb7, r, 0, 0, (int8_t) byte(&in));
    }
    int starts[512], n_gadgets = 0;
    while (in.left && n_gadgets < 500 && g.n < OKO_MAX_INSNS - 64) {
        starts[n_gadgets++] = g.n;
        gadget(&g, &in);
    }
    starts[n_gadgets] = g.n;
    emit(&g, 0xb7, 0, 0, 0, 0);
    emit(&g, 0x95, 0, 0, 0, 0);
    /* Resolve the forward jumps to gadget starts (or the epilogue). */
    for (int j = 0; j < g.n_jumps; j++) {
        int at = g.jumps[j], gi = 0;
        while (gi < n_gadgets && starts[gi] <= at) {
            gi++;
        }
        gi += g.jump_gadgets[j] - 1;
        int target = gi < n_gadgets ? starts[gi] : starts[n_gadgets];
        g.insns[at].off = (int16_t) (target - at - 1);
    }

    struct oko_program prog;
    memset(&prog, 0, sizeof prog);
    prog.insns = malloc(g.n * sizeof *prog.insns);
    memcpy(prog.insns, g.insns, g.n * sizeof *prog.insns);
    prog.n_insns = g.n;
    prog.n_maps = sizeof fuzz_maps / sizeof *fuzz_maps;
    memcpy(prog.maps, fuzz_maps, sizeof fuzz_maps);

    static uint8_t explored[OKO_MAX_INSNS];
    memset(explored, 0, sizeof explored);
    struct oko_filter_options opts
        = { .verify = { .budget = 200000, .explored = explored },
            .interpret = true };
    struct oko_filter *f;
    char error[OKO_ERROR_MAX];
    const char *dump_dir = getenv("OKO_FUZZ_DUMP");
    static unsigned dumped;
    char dump_path[4096];
    if (dump_dir) {
        snprintf(dump_path, sizeof dump_path, "%s/%u", dump_dir, dumped++);
        oko_dump_write(dump_path, &prog);
    }
    int rejected = oko_filter_from_program(&prog, &opts, &f, error);
    if (dump_dir) {
        char named[4096 + 8];
        snprintf(named, sizeof named, "%s/%c-%u", dump_dir,
                 rejected ? 'r' : 'a', dumped - 1);
        rename(dump_path, named);
    }
    if (rejected) {
        if (getenv("OKO_FUZZ_SHOW")) {
            fprintf(stderr, "rejected: %s\n", error);
        }
        return 0;
    }
    uint8_t *packet = malloc(len ? len : 1);
    memcpy(packet, pkt, len);
    for (int run = 0; run < 2; run++) {
        uint64_t r0;
        oko_epoch_enter();
        int err = oko_checked_run(&f->prog, f->maps, explored, packet, len,
                                  &r0, error);
        oko_epoch_exit();
        if (err) {
            fprintf(stderr, "checked execution of an accepted program: %s\n",
                    error);
            __builtin_trap();
        }
    }
    if (f->fold.foldable) {
        oko_epoch_enter();
        uint64_t r0 = oko_interp_run(f->code, packet, len, oko_stack_top());
        oko_epoch_exit();
        fuzz_folded_verdict(f, packet, len, r0);
    }
    if (getenv("OKO_FUZZ_SHOW")) {
        fprintf(stderr, "accepted: %zu instructions\n", f->prog.n_insns);
    }
    free(packet);
    oko_filter_destroy(f);
    return 0;
}
