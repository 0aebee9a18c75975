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

/* Program-local calls (RFC 9669 "call local", src 1), inlined at load time.
 *
 * A filter is one function run per packet, so instead of teaching the
 * verifier, the interpreter and the JIT about call frames, each call is
 * replaced by a copy of the function it calls:
 *
 *   - the callee keeps the ISA's calling convention: r1-r5 are its
 *     arguments (already in place), r0 its result, r6-r9 are the caller's
 *     again after the call (those the callee writes and the caller still
 *     needs are saved on the stack around the copy and loaded back);
 *   - the callee gets a stack frame of its own below the caller's: each r10
 *     access in the copy is moved down by the caller's frame (its deepest
 *     r10-relative access, found by following r10 copies through mov and
 *     add/sub of constants) plus the save area, so the 512 bytes are shared
 *     by the frames of one call path, as in Linux;
 *   - the callee's exits jump to the end of the copy.
 *
 * The verifier then checks the whole inlined program like any other (so a
 * callee's stack use beyond 512 bytes, a loop through a call, ... are
 * rejected by the usual rules), and reports original instruction indexes
 * through prog->origin.  Recursion is rejected here, as is nesting deeper
 * than OKO_MAX_CALL_DEPTH. */

#include "oko-inline.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-isa.h"

#define FP 10
/* Register fields are 4 bits: bad numbers (11-15) are the verifier's to
 * reject, but must not be indexes out of bounds here. */
#define N_REG_FIELDS 16
#define STACK_BYTES 512
#define PSEUDO_CALL 1
#define UNKNOWN_DEPTH (STACK_BYTES + 8)     /* r10 escaped: assume the worst */

#define CALLEE_SAVED                                                          \
    (OKO_REG_BIT(6) | OKO_REG_BIT(7) | OKO_REG_BIT(8) | OKO_REG_BIT(9))

struct function {
    int start, end;                 /* [start, end) in the original program */
    int depth;                      /* bytes of stack below its r10 it uses */
    unsigned writes;                /* registers it or its callees write */
    int state;                      /* DFS: 0 new, 1 on the path, 2 done */
};

struct inliner {
    const struct oko_insn *insns;
    int n;
    char *error;
    bool *lddw_tail;
    int *func_of;                   /* function index of each insn */
    struct function *funcs;
    int n_funcs;
    /* registers read after each insn, same function */
    unsigned *live_out;

    /* Output. */
    struct oko_insn *out;
    uint32_t *origin;
    size_t n_out, cap;
};

static int
ierr(struct inliner *in, int pc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
ierr(struct inliner *in, int pc, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int err = oko_isa_verror(in->error, pc, fmt, args);
    va_end(args);
    return err;
}

static bool
is_local_call(const struct oko_insn *insn)
{
    return insn->opcode == (CLASS_JMP | OP_CALL) && insn->src == PSEUDO_CALL;
}

static bool
is_jump(const struct oko_insn *insn)
{
    int cls = insn->opcode & 0x07, op = insn->opcode & 0xf0;
    return (cls == CLASS_JMP || cls == CLASS_JMP32) && op != OP_CALL
           && op != OP_EXIT;
}

static bool
is_exit(const struct oko_insn *insn)
{
    return insn->opcode == (CLASS_JMP | OP_EXIT);
}

static bool
is_unconditional(const struct oko_insn *insn)
{
    return (insn->opcode & 0xf0) == OP_JA && !(insn->opcode & SRC_X)
           && ((insn->opcode & 0x07) == CLASS_JMP
               || (insn->opcode & 0x07) == CLASS_JMP32);
}

static int
call_target(const struct inliner *in, int pc)
{
    return pc + 1 + in->insns[pc].imm;
}

/* Function starts: 0 and every call target; each function runs to the next
 * start.  Checks that control stays inside its function. */
static int
find_functions(struct inliner *in)
{
    bool *starts = calloc(in->n + 1, sizeof *starts);
    if (!starts) {
        return ENOMEM;
    }
    starts[0] = true;
    for (int pc = 0; pc < in->n; pc++) {
        if (in->lddw_tail[pc] || !is_local_call(&in->insns[pc])) {
            continue;
        }
        long target = (long) pc + 1 + in->insns[pc].imm;
        if (target < 0 || target >= in->n) {
            free(starts);
            return ierr(in, pc, "call to insn %ld, outside the program",
                        target);
        }
        if (in->lddw_tail[target]) {
            free(starts);
            return ierr(in, pc, "call into the middle of the lddw at insn %ld",
                        target - 1);
        }
        starts[target] = true;
    }
    for (int pc = 0; pc < in->n; pc++) {
        in->n_funcs += starts[pc];
    }
    in->funcs = calloc(in->n_funcs, sizeof *in->funcs);
    if (!in->funcs) {
        free(starts);
        return ENOMEM;
    }
    int f = -1;
    for (int pc = 0; pc < in->n; pc++) {
        if (starts[pc]) {
            if (f >= 0) {
                in->funcs[f].end = pc;
            }
            in->funcs[++f].start = pc;
        }
        in->func_of[pc] = f;
    }
    in->funcs[f].end = in->n;
    free(starts);

    for (int pc = 0; pc < in->n; pc++) {
        const struct oko_insn *insn = &in->insns[pc];
        const struct function *fn = &in->funcs[in->func_of[pc]];
        if (in->lddw_tail[pc]) {
            continue;
        }
        if (is_jump(insn)) {
            long target = (long) pc + 1 + oko_isa_jump_delta(insn);
            if (target < 0 || target >= in->n) {
                return ierr(in, pc,
                            "jump out of the program (to insn %ld of %d)",
                            target, in->n);
            }
            if (in->lddw_tail[target]) {
                return ierr(in, pc,
                            "jump into the middle of the lddw at insn %ld",
                            target - 1);
            }
            if (in->func_of[target] != in->func_of[pc]) {
                return ierr(in, pc,
                            "jump from the function at insn %d into the "
                            "function at insn %d",
                            fn->start, in->funcs[in->func_of[target]].start);
            }
        }
        int next = pc + 1 + (insn->opcode == LDDW_OPCODE);
        if (next == fn->end && next < in->n && !is_exit(insn)
            && !is_unconditional(insn)) {
            return ierr(in, pc,
                        "the function at insn %d runs on into the function at "
                        "insn %d "
                        "(it must end with exit or a jump)",
                        fn->start, next);
        }
    }
    return 0;
}

/* The deepest byte below r10 function 'f' can touch: r10 is followed
 * through mov and add/sub of constants in instruction order (the verifier
 * rejects loops later; a backward jump's state is ignored here).  A copy of
 * r10 that escapes this bookkeeping (stored, or combined with other values)
 * makes the depth unknown: the callee then gets no room of its own. */
static int
frame_depth(const struct inliner *in, const struct function *f)
{
    enum { NOT_FP = 0, FP_KNOWN = 1 };
    int len = f->end - f->start;
    /* Per insn and register: known FP offset, or NOT_FP.  'reached' marks
     * instructions some path arrives at. */
    int64_t (*offset)[N_REG_FIELDS] = calloc(len, sizeof *offset);
    uint8_t (*kind)[N_REG_FIELDS] = calloc(len, sizeof *kind);
    bool *reached = calloc(len, sizeof *reached);
    /* 64 bits: 4,096 additions of 32-bit constants fit */
    int64_t depth = 0;

    if (!offset || !kind || !reached) {
        depth = UNKNOWN_DEPTH;
        goto out;
    }
    reached[0] = true;
    kind[0][FP] = FP_KNOWN;
    for (int i = 0; i < len && depth < UNKNOWN_DEPTH; i++) {
        int pc = f->start + i;
        const struct oko_insn *insn = &in->insns[pc];
        if (!reached[i] || in->lddw_tail[pc]) {
            continue;
        }
        int64_t off[N_REG_FIELDS];
        uint8_t k[N_REG_FIELDS];
        memcpy(off, offset[i], sizeof off);
        memcpy(k, kind[i], sizeof k);
        int cls = insn->opcode & 0x07, op = insn->opcode & 0xf0;
        bool src_fp = (insn->opcode & SRC_X) && op != OP_END
                      && k[insn->src] == FP_KNOWN;

        for (int r = 0; r < N_REG_FIELDS; r++) {
            if (k[r] == FP_KNOWN && -off[r] > depth) {
                depth = -off[r];
            }
        }
        switch (cls) {
        case CLASS_ALU64:
            if (op == 0xb0 && (insn->opcode & SRC_X)) {            /* mov */
                k[insn->dst] = k[insn->src];
                off[insn->dst] = off[insn->src];
            } else if (op == 0xb0) {
                k[insn->dst] = NOT_FP;
            } else if ((op == 0x00 || op == 0x10) && !(insn->opcode & SRC_X)
                       && k[insn->dst] == FP_KNOWN) {
                /* add/sub k */
                off[insn->dst]
                    += op == 0x00 ? (int64_t) insn->imm : -(int64_t) insn->imm;
            } else if (k[insn->dst] == FP_KNOWN || src_fp) {
                depth = UNKNOWN_DEPTH;
            } else {
                k[insn->dst] = NOT_FP;
            }
            break;
        case CLASS_ALU:
            if (op != 0xb0 && k[insn->dst] == FP_KNOWN) {
                depth = UNKNOWN_DEPTH;
            } else if (src_fp) {
                depth = UNKNOWN_DEPTH;
            }
            k[insn->dst] = NOT_FP;
            break;
        case CLASS_LD:
            k[insn->dst] = NOT_FP;
            break;
        case CLASS_LDX:
            if (k[insn->src] == FP_KNOWN
                && -(off[insn->src] + insn->off) > depth) {
                depth = -(off[insn->src] + insn->off);
            }
            k[insn->dst] = NOT_FP;
            break;
        case CLASS_ST:
        case CLASS_STX:
            if (k[insn->dst] == FP_KNOWN
                && -(off[insn->dst] + insn->off) > depth) {
                depth = -(off[insn->dst] + insn->off);
            }
            if (cls == CLASS_STX && k[insn->src] == FP_KNOWN) {
                /* a stack address stored away */
                depth = UNKNOWN_DEPTH;
            }
            if (cls == CLASS_STX && (insn->opcode & 0xe0) == MODE_ATOMIC) {
                k[0] = k[insn->src] = NOT_FP;
            }
            break;
        case CLASS_JMP:
        case CLASS_JMP32:
            if (op == OP_CALL) {
                for (int r = 0; r <= 5; r++) {
                    k[r] = NOT_FP;
                }
            }
            break;
        }
        int succ[2], n_succ = 0;
        if (is_jump(insn)) {
            succ[n_succ++] = pc + 1 + oko_isa_jump_delta(insn);
            if (!is_unconditional(insn)) {
                succ[n_succ++] = pc + 1;
            }
        } else if (!is_exit(insn)) {
            succ[n_succ++] = pc + 1 + (insn->opcode == LDDW_OPCODE);
        }
        for (int s = 0; s < n_succ; s++) {
            int j = succ[s] - f->start;
            if (j <= i || j >= len) {
                continue;
            }
            if (!reached[j]) {
                reached[j] = true;
                memcpy(offset[j], off, sizeof off);
                memcpy(kind[j], k, sizeof k);
                continue;
            }
            /* Join: a register that points into the frame on any path is
             * taken to, at the deepest of its offsets, so that accesses
             * through it after the join count (more depth, never less). */
            for (int r = 0; r < N_REG_FIELDS; r++) {
                if (k[r] != FP_KNOWN) {
                    continue;
                }
                if (kind[j][r] != FP_KNOWN || off[r] < offset[j][r]) {
                    offset[j][r] = off[r];
                }
                kind[j][r] = FP_KNOWN;
            }
        }
    }
out:
    free(offset);
    free(kind);
    free(reached);
    depth = depth > UNKNOWN_DEPTH ? UNKNOWN_DEPTH : depth;
    return (int) ((depth + 7) & ~7);
}

/* Registers live after each instruction of function 'f' (backward, to a
 * fixed point: a few passes, since there are no loops to go round). */
static void
liveness(struct inliner *in, const struct function *f)
{
    bool changed = true;
    for (int pass = 0; changed && pass < 64; pass++) {
        changed = false;
        for (int pc = f->end - 1; pc >= f->start; pc--) {
            const struct oko_insn *insn = &in->insns[pc];
            if (in->lddw_tail[pc]) {
                continue;
            }
            unsigned out = 0;
            int next = pc + 1 + (insn->opcode == LDDW_OPCODE);
            if (is_jump(insn)) {
                int target = pc + 1 + oko_isa_jump_delta(insn);
                if (target >= f->start && target < f->end) {
                    uint16_t use, def;
                    oko_isa_use_def(&in->insns[target], &use, &def);
                    out |= use | (in->live_out[target] & ~def);
                }
            }
            if (!is_exit(insn) && !is_unconditional(insn) && next < f->end) {
                uint16_t use, def;
                oko_isa_use_def(&in->insns[next], &use, &def);
                out |= use | (in->live_out[next] & ~def);
            }
            if (out != in->live_out[pc]) {
                in->live_out[pc] = out;
                changed = true;
            }
        }
    }
}

/* Orders the call graph (callees first) and rejects recursion. */
static int
visit(struct inliner *in, int fi, int depth, int *order, int *n_order)
{
    struct function *f = &in->funcs[fi];
    if (f->state == 2) {
        return 0;
    }
    f->state = 1;
    for (int pc = f->start; pc < f->end; pc++) {
        if (in->lddw_tail[pc] || !is_local_call(&in->insns[pc])) {
            continue;
        }
        int callee = in->func_of[call_target(in, pc)];
        if (in->funcs[callee].state == 1) {
            return ierr(in, pc,
                        "recursive call (of the function at insn %d): not "
                        "allowed",
                        in->funcs[callee].start);
        }
        if (depth + 1 > OKO_MAX_CALL_DEPTH) {
            return ierr(in, pc, "calls nested deeper than %d",
                        OKO_MAX_CALL_DEPTH);
        }
        int err = visit(in, callee, depth + 1, order, n_order);
        if (err) {
            return err;
        }
    }
    unsigned writes = 0;
    for (int pc = f->start; pc < f->end; pc++) {
        uint16_t use, def;
        if (in->lddw_tail[pc]) {
            continue;
        }
        const struct oko_insn *insn = &in->insns[pc];
        oko_isa_use_def(insn, &use, &def);
        writes |= def;
        if (is_local_call(insn)) {
            /* What the copy leaves changed: r6-r9 are restored only where
             * this function still needs them; count them all. */
            writes |= in->funcs[in->func_of[call_target(in, pc)]].writes;
        }
    }
    f->writes = writes;
    f->state = 2;
    order[(*n_order)++] = fi;
    return 0;
}

static int
emit(struct inliner *in, struct oko_insn insn, int origin)
{
    if (in->n_out >= OKO_MAX_INSNS) {
        return ierr(in, origin,
                    "with its calls inlined the program has more than %d "
                    "instructions",
                    OKO_MAX_INSNS);
    }
    in->out[in->n_out] = insn;
    in->origin[in->n_out] = origin;
    in->n_out++;
    return 0;
}

/* Emits function 'fi' with its r10 accesses moved down by 'shift' bytes;
 * its exits return (exit) if 'top', else jump to the end of the copy. */
static int
emit_function(struct inliner *in, int fi, int shift, bool top)
{
    const struct function *f = &in->funcs[fi];
    int len = f->end - f->start;
    /* output index of each insn */
    size_t *first = malloc(len * sizeof *first);
    size_t *jumps = malloc(len * sizeof *jumps);      /* output jumps to fix */
    size_t n_jumps = 0, *exits = malloc(len * sizeof *exits), n_exits = 0;
    int err = 0;

    if (!first || !jumps || !exits) {
        err = ENOMEM;
        goto out;
    }
    for (int pc = f->start; pc < f->end && !err; pc++) {
        struct oko_insn insn = in->insns[pc];
        int cls = insn.opcode & 0x07;
        first[pc - f->start] = in->n_out;
        if (in->lddw_tail[pc]) {
            err = emit(in, insn, pc);
            continue;
        }
        if (is_local_call(&insn)) {
            int callee = in->func_of[call_target(in, pc)];
            unsigned save
                = in->funcs[callee].writes & CALLEE_SAVED & in->live_out[pc];
            if (f->depth >= UNKNOWN_DEPTH) {
                err = ierr(in, pc,
                           "the function at insn %d keeps or computes stack "
                           "addresses in ways "
                           "that leave its stack use unknown, so it cannot "
                           "call functions",
                           f->start);
                break;
            }
            int area = shift + f->depth, slot = area;
            for (int r = 6; r <= 9 && !err; r++) {
                if (save & OKO_REG_BIT(r)) {
                    slot += 8;
                    err = emit(in,
                               (struct oko_insn){ CLASS_STX | MODE_MEM
                                                      | SIZE_DW,
                                                  FP, r, -slot, 0 },
                               pc);
                }
            }
            if (!err) {
                err = emit_function(in, callee, slot, false);
            }
            for (int r = 6; r <= 9 && !err; r++) {
                if (save & OKO_REG_BIT(r)) {
                    err = emit(in,
                               (struct oko_insn){ CLASS_LDX | MODE_MEM
                                                      | SIZE_DW,
                                                  r, FP, -area - 8, 0 },
                               pc);
                    area += 8;
                }
            }
            continue;
        }
        if (is_exit(&insn) && !top) {
            exits[n_exits++] = in->n_out;
            err = emit(in, (struct oko_insn){ CLASS_JMP | OP_JA, 0, 0, 0, 0 },
                       pc);
            continue;
        }
        if (!top) {
            int mode = insn.opcode & 0xe0;
            bool reg_operand = (cls == CLASS_ALU || cls == CLASS_ALU64
                                || cls == CLASS_JMP || cls == CLASS_JMP32)
                               && (insn.opcode & SRC_X)
                               && (insn.opcode & 0xf0) != OP_END;
            if (insn.opcode == (CLASS_ALU64 | 0xb0 | SRC_X)
                && insn.src == FP) {
                /* A copy of r10 is this frame's r10. */
                if (shift) {
                    err = emit(in, insn, pc);
                    insn = (struct oko_insn){ CLASS_ALU64 | 0x00, insn.dst, 0,
                                              0, -shift };
                }
            } else if ((reg_operand || cls == CLASS_STX) && insn.src == FP) {
                err = ierr(in, pc,
                           "r10 used as an operand in a called function "
                           "(there only memory accesses and mov may use it)");
            } else if ((cls == CLASS_LDX && insn.src == FP
                        && (mode == MODE_MEM || mode == MODE_MEMSX))
                       || ((cls == CLASS_ST || cls == CLASS_STX)
                           && insn.dst == FP)) {
                if (insn.off - shift < INT16_MIN) {
                    err = ierr(in, pc,
                               "stack offset %d is outside the 512-byte stack",
                               insn.off);
                } else {
                    insn.off -= shift;
                }
            }
        }
        if (!err && is_jump(&insn)) {
            jumps[n_jumps++] = in->n_out;
        }
        if (!err) {
            err = emit(in, insn, pc);
        }
    }
    /* Jumps: targets are original indexes inside this function. */
    for (size_t j = 0; j < n_jumps && !err; j++) {
        struct oko_insn *insn = &in->out[jumps[j]];
        int from = in->origin[jumps[j]];
        int target = from + 1 + oko_isa_jump_delta(insn) - f->start;
        if (target < 0 || target >= len) {
            continue;           /* out of the program: the verifier says so */
        }
        long delta = (long) first[target] - (long) jumps[j] - 1;
        if ((insn->opcode & 0x07) == CLASS_JMP32
            && (insn->opcode & 0xf0) == OP_JA) {
            insn->imm = delta;
        } else if (delta < INT16_MIN || delta > INT16_MAX) {
            err = ierr(in, from, "jump too far once calls are inlined");
        } else {
            insn->off = delta;
        }
    }
    for (size_t j = 0; j < n_exits && !err; j++) {
        long delta = (long) in->n_out - (long) exits[j] - 1;
        if (delta > INT16_MAX) {
            err = ierr(in, in->origin[exits[j]],
                       "jump too far once calls are inlined");
        }
        in->out[exits[j]].off = delta;
    }
out:
    free(first);
    free(jumps);
    free(exits);
    return err;
}

int
oko_program_inline_calls(struct oko_program *prog, char error[OKO_ERROR_MAX])
{
    struct inliner in
        = { .insns = prog->insns, .n = prog->n_insns, .error = error };
    int err = 0;
    bool any = false;

    error[0] = '\0';
    if (prog->n_insns > OKO_MAX_INSNS) {
        return 0;               /* the verifier rejects it with its size */
    }
    in.lddw_tail = calloc(in.n + 1, sizeof *in.lddw_tail);
    if (!in.lddw_tail) {
        return ENOMEM;
    }
    for (int pc = 0; pc < in.n; pc++) {
        if (in.insns[pc].opcode == LDDW_OPCODE && pc + 1 < in.n) {
            in.lddw_tail[++pc] = true;
        } else if (is_local_call(&in.insns[pc])) {
            any = true;
        }
    }
    if (!any) {
        free(in.lddw_tail);
        return 0;
    }
    in.func_of = calloc(in.n, sizeof *in.func_of);
    in.live_out = calloc(in.n, sizeof *in.live_out);
    int *order = calloc(in.n, sizeof *order), n_order = 0;
    if (!in.func_of || !in.live_out || !order) {
        err = ENOMEM;
        goto out;
    }
    err = find_functions(&in);
    if (!err) {
        err = visit(&in, 0, 0, order, &n_order);
    }
    for (int i = 0; i < n_order && !err; i++) {
        struct function *f = &in.funcs[order[i]];
        f->depth = frame_depth(&in, f);
        liveness(&in, f);
    }
    if (!err) {
        in.out = malloc(OKO_MAX_INSNS * sizeof *in.out);
        in.origin = malloc(OKO_MAX_INSNS * sizeof *in.origin);
        err = in.out && in.origin ? emit_function(&in, 0, 0, true) : ENOMEM;
    }
    if (!err) {
        free(prog->insns);
        free(prog->origin);
        prog->insns = in.out;
        prog->origin = in.origin;
        prog->n_insns = in.n_out;
        in.out = NULL;
        in.origin = NULL;
    }
out:
    if (err == ENOMEM && !error[0]) {
        snprintf(error, OKO_ERROR_MAX, "out of memory");
    }
    free(in.lddw_tail);
    free(in.func_of);
    free(in.live_out);
    free(in.funcs);
    free(in.out);
    free(in.origin);
    free(order);
    return err;
}
