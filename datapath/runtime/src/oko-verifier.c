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
/* Oko's verifier (thesis ch. 3.3.2, with the Linux verifier's model of
 * register types).
 *
 * Pass 1 checks the program's shape: known opcodes, registers, lddw pairs,
 * jump targets, and that the control-flow graph has no cycle (so every path
 * ends).  Pass 2 walks every path from the entry with an abstract state per
 * path: for each register and stack byte, what it holds.  Numbers are
 * abstract scalars (oko-scalar.h: known bits and signed/unsigned ranges at
 * 64 and 32 bits); the packet length ('len' in r2) is tracked symbolically
 * as "len + k", so comparisons against it raise the proven minimum length;
 * pointers carry a fixed offset and a variable part (a scalar) and, for
 * packet pointers compared with the packet end, a proven readable range.
 * docs/filter-programs.md states each rule and why it is sound.
 * At points where paths join, a state that another explored state covers
 * is pruned; registers that no path from there reads (liveness, computed
 * backwards over the control-flow graph) are left out of the comparison,
 * so a dead register's leftover value does not keep paths apart.  A budget
 * on the work (instructions explored, state comparisons by the memory they
 * read, copies of a register narrowed with it) and a cap on branches
 * waiting to be explored turn path
 * explosion into a "too complex" rejection instead of a hang: at most about
 * 0.6 s and 30 MB per verification. */

#include "oko-verifier.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-helpers.h"
#include "oko-isa.h"
#include "oko-arena.h"
#include "oko-scalar.h"

#define N_REGS 11
#define FP 10
#define STACK_BYTES 512
#define STACK_SLOTS (STACK_BYTES / 8)
#define MAX_OFFSET (1 << 29)            /* bound on pointers' fixed offsets */
#define MAX_VAR_OFFSET (1 << 20)        /* bound on pointers' variable parts */
#define MAX_LEN_DELTA (1 << 20)         /* bound on k in "len + k" */
#define MAX_STATES_PER_INSN 32
#define MAX_STATES 8192
/* all stored states of one verification */
#define MAX_STORED_BYTES (16u << 20)
/* branches waiting (8.6 KB each: 8.8 MB) */
#define MAX_PENDING 1024

enum vtype {
    T_NOT_INIT,
    T_SCALAR,               /* a number: v */
    T_LEN,                  /* the number len + off */
    T_PKT,                  /* packet + off + var (var: v) */
    T_PKT_END,              /* packet + len + off */
    T_STACK,                /* frame pointer + off + var */
    T_MAP,                  /* reference to map 'map' */
    T_MAP_VALUE,            /* value of map 'map' + off + var */
    T_MAP_VALUE_OR_NULL,    /* the same, or NULL */
};

static const char *const type_names[] = {
    [T_NOT_INIT] = "nothing (never set)",
    [T_SCALAR] = "a number",
    [T_LEN] = "the packet length",
    [T_PKT] = "a packet pointer",
    [T_PKT_END] = "the packet end pointer",
    [T_STACK] = "a stack pointer",
    [T_MAP] = "a map reference",
    [T_MAP_VALUE] = "a map value pointer",
    [T_MAP_VALUE_OR_NULL] = "a map value pointer that may be NULL",
};

/* A scalar with an id is "base(id) + off" as integers (no wrap-around):
 * copies and copies plus a constant that cannot wrap share the id, so a
 * fact learned about one applies to all.  A packet pointer whose variable
 * part came from such a scalar remembers it in rel_id/rel_off (var =
 * base(rel_id) + rel_off), so that a comparison like "ihl + 34 <= len"
 * proves reads at packet + 14 + ihl.  Map value pointers name the lookup
 * that returned them ('obj'): two pointers are into the same object only
 * if they name the same lookup. */
struct vreg {
    uint8_t type;           /* enum vtype */
    uint16_t map;
    int32_t range;          /* T_PKT: bytes readable from packet + var */
    /* pointers: fixed offset; T_LEN: k; scalars: delta */
    int64_t off;
    /* scalars: base; T_PKT: range group; OR_NULL: lookup */
    uint32_t id;
    /* T_MAP_VALUE(_OR_NULL): the lookup it came from */
    uint32_t obj;
    /* T_PKT: var = base(rel_id) + rel_off, if non-zero */
    uint32_t rel_id;
    int64_t rel_off;
    /* T_SCALAR: the value; pointers: the variable part */
    struct oko_scalar v;
};

/* "len >= base(id) + gap". */
struct len_fact {
    uint32_t id;
    int64_t gap;
};
#define MAX_LEN_FACTS 8

/* Stack byte states. */
enum { S_INVALID, S_MISC, S_SPILL };

struct vstate {
    struct vreg regs[N_REGS];
    uint8_t stype[STACK_BYTES];             /* byte i is fp - 512 + i */
    struct vreg spill[STACK_SLOTS];
    uint64_t len_min, len_max;
    struct len_fact facts[MAX_LEN_FACTS];
    int n_facts;
    int pc;
};

/* An explored state kept at a join point for pruning: a vstate without the
 * spill slots that hold no spill (most programs spill to a few), about 2 KB
 * instead of 8.6 KB.  Kept in an arena (oko-arena.h) of at most
 * MAX_STORED_BYTES: when it is full, no more states are kept, which only
 * makes pruning weaker (the budget still bounds the work). */
struct stored_state {
    struct stored_state *next;
    struct vreg regs[N_REGS];
    uint8_t stype[STACK_BYTES];
    uint64_t len_min, len_max;
    struct len_fact facts[MAX_LEN_FACTS];
    int n_facts;
    uint64_t spilled;                       /* bit i: slot i is in spill[] */
    /* the spilled slots, in slot order */
    struct vreg spill[];
};

struct verifier {
    const struct oko_program *prog;
    const struct oko_insn *insns;
    int n;
    char *error;
    /* in-degree, up to 2 (join point) */
    uint8_t *join;
    uint8_t *lddw_tail;                     /* insn is the 2nd half of lddw */
    /* registers read later, per insn */
    uint16_t *live;
    struct stored_state **seen;
    int *n_seen;
    size_t n_stored;
    struct oko_arena stored;                /* where the stored states are */
    struct vstate *pending;
    size_t n_pending, max_pending;
    uint32_t next_id;
    size_t explored, budget, pruned;
    /* stored states compared at join points */
    size_t compared;
    /* their cost, charged to the budget */
    size_t compare_cost;
    /* copies narrowed with a register, charged */
    size_t narrowed;
    size_t max_depth;                       /* most pending states at once */
    uint64_t min_len;
    /* NULL, or 1 per instruction reached */
    uint8_t *explored_insns;
};

/* The work done so far, as the budget counts it. */
static size_t
work(const struct verifier *v)
{
    return v->explored + v->compare_cost + v->narrowed;
}

static int
verr(struct verifier *v, int pc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
verr(struct verifier *v, int pc, const char *fmt, ...)
{
    /* Errors name the instruction as the author wrote it, also in the copy
     * of a function inlined at a call. */
    if (v->prog->origin && pc >= 0 && pc < v->n) {
        pc = v->prog->origin[pc];
    }
    va_list args;
    va_start(args, fmt);
    int err = oko_isa_verror(v->error, pc, fmt, args);
    va_end(args);
    return err;
}

static bool
is_pointer(const struct vreg *r)
{
    return r->type >= T_PKT;
}

static bool
is_number(const struct vreg *r)
{
    return r->type == T_SCALAR || r->type == T_LEN;
}

static const char *
map_name(const struct verifier *v, int map)
{
    return v->prog->maps[map].name;
}

/* ---- Pass 1: shape ---- */

/* Checks an ALU instruction's opcode and offset; returns NULL or what is
 * wrong. */
static const char *
alu_opcode_error(const struct oko_insn *insn, bool is64)
{
    int op = insn->opcode & 0xf0;
    bool x = insn->opcode & SRC_X;
    switch (op) {
    case 0x00: case 0x10: case 0x20: case 0x40: case 0x50: case 0x60:
    case 0x70: case 0xa0: case 0xc0:
        return insn->off ? "the offset field must be 0" : NULL;
    case 0x30: case 0x90:                   /* div, mod: off 1 = signed */
        return insn->off == 0 || insn->off == 1
                   ? NULL
                   : "the offset of div/mod must be 0 or 1";
    case 0x80:                              /* neg */
        return x           ? "unknown opcode"
               : insn->off ? "the offset field must be 0"
                           : NULL;
    case 0xb0:                              /* mov, movsx */
        return insn->off == 0
                       || (x
                           && (insn->off == 8 || insn->off == 16
                               || (is64 && insn->off == 32)))
                   ? NULL
                   : "the offset of mov must be 0 (or 8, 16, 32 for movsx)";
    case OP_END:
        if (is64 && x) {
            return "unknown opcode";
        }
        if (insn->off) {
            return "the offset field must be 0";
        }
        return insn->imm == 16 || insn->imm == 32 || insn->imm == 64
               ? NULL : "byte swap width (imm) must be 16, 32 or 64";
    default:
        return "unknown opcode";
    }
}

/* Checks an ALU instruction's fields; returns NULL or what is wrong.  The
 * fields an operation does not use must be 0, as the Linux verifier and
 * PREVAIL require: a program that sets them means something this verifier
 * does not know (a later ISA revision may give them a meaning), and its
 * checks would reason about an operand the engines then ignore. */
static const char *
alu_encoding_error(const struct oko_insn *insn, bool is64)
{
    const char *problem = alu_opcode_error(insn, is64);
    if (problem) {
        return problem;
    }
    int op = insn->opcode & 0xf0;
    bool x = insn->opcode & SRC_X;
    if (op == 0x80) {
        return insn->src || insn->imm
                   ? "neg has one operand: src and imm must be 0"
                   : NULL;
    }
    if (op == OP_END) {
        return insn->src ? "the src field of a byte swap must be 0" : NULL;
    }
    if (x && insn->imm) {
        return "the imm field must be 0 when the source is a register";
    }
    if (!x && insn->src) {
        return "the src field must be 0 when the source is an immediate";
    }
    return NULL;
}

/* Checks one instruction's encoding.  'pc' is known not to be an lddw
 * tail. */
static int
check_encoding(struct verifier *v, int pc)
{
    const struct oko_insn *insn = &v->insns[pc];
    int cls = insn->opcode & 0x07;
    int op = insn->opcode & 0xf0;
    int mode = insn->opcode & 0xe0;
    int size = insn->opcode & 0x18;

    if (insn->dst >= N_REGS || (insn->src >= N_REGS && cls != CLASS_LD)) {
        return verr(v, pc, "invalid register r%d (there are r0 to r10)",
                    insn->dst >= N_REGS ? insn->dst : insn->src);
    }
    switch (cls) {
    case CLASS_LD:
        if (insn->opcode != LDDW_OPCODE) {
            if (mode == 0x20 || mode == 0x40) {
                return verr(v, pc,
                            "legacy packet access (BPF_ABS/BPF_IND) is not "
                            "supported: "
                            "read the packet through r1");
            }
            break;
        }
        if (pc + 1 >= v->n) {
            return verr(v, pc,
                        "lddw is the last instruction; its second half is "
                        "missing");
        }
        if (v->insns[pc + 1].opcode || v->insns[pc + 1].dst
            || v->insns[pc + 1].src || v->insns[pc + 1].off) {
            return verr(v, pc + 1,
                        "malformed second half of lddw (it must be all zero "
                        "but imm)");
        }
        if (insn->off) {
            return verr(v, pc, "lddw does not use its offset; it must be 0");
        }
        if (insn->src == OKO_PSEUDO_MAP_INDEX) {
            if (insn->imm < 0 || (size_t) insn->imm >= v->prog->n_maps) {
                return verr(v, pc,
                            "reference to map index %d, but the program "
                            "declares %zu maps",
                            insn->imm, v->prog->n_maps);
            }
        } else if (insn->src != 0) {
            return verr(v, pc, "lddw with src %d is not supported", insn->src);
        }
        return 0;
    /* Unused fields must be 0 here too, as for ALU (alu_encoding_error()),
     * and as the Linux verifier and PREVAIL require: a later revision of the
     * instruction set may give them a meaning our engines would ignore. */
    case CLASS_LDX:
        if (mode == MODE_MEM || (mode == MODE_MEMSX && size != SIZE_DW)) {
            return insn->imm ? verr(v, pc,
                                    "opcode 0x%02x: a load does not use imm; "
                                    "it must be 0",
                                    insn->opcode)
                             : 0;
        }
        break;
    case CLASS_ST:
        if (mode == MODE_MEM) {
            return insn->src ? verr(v, pc,
                                    "opcode 0x%02x: a store of an immediate "
                                    "does not use "
                                    "src; it must be 0",
                                    insn->opcode)
                             : 0;
        }
        break;
    case CLASS_STX:
        if (mode == MODE_MEM) {
            return insn->imm ? verr(v, pc,
                                    "opcode 0x%02x: a store from a register "
                                    "does not use "
                                    "imm; it must be 0",
                                    insn->opcode)
                             : 0;
        }
        if (mode == MODE_ATOMIC && (size == SIZE_W || size == SIZE_DW)) {
            int a = insn->imm;
            if (a == ATOMIC_ADD || a == ATOMIC_OR || a == ATOMIC_AND
                || a == ATOMIC_XOR || a == (ATOMIC_ADD | ATOMIC_FETCH)
                || a == (ATOMIC_OR | ATOMIC_FETCH)
                || a == (ATOMIC_AND | ATOMIC_FETCH)
                || a == (ATOMIC_XOR | ATOMIC_FETCH) || a == ATOMIC_XCHG
                || a == ATOMIC_CMPXCHG) {
                return 0;
            }
            return verr(v, pc, "unknown atomic operation 0x%x", (unsigned) a);
        }
        break;
    case CLASS_ALU:
    case CLASS_ALU64: {
        const char *problem = alu_encoding_error(insn, cls == CLASS_ALU64);
        if (!problem) {
            return 0;
        }
        if (strcmp(problem, "unknown opcode")) {
            return verr(v, pc, "opcode 0x%02x: %s", insn->opcode, problem);
        }
        break;
    }
    case CLASS_JMP:
    case CLASS_JMP32:
        if (op == OP_CALL) {
            if (cls == CLASS_JMP32) {
                break;
            }
            if (insn->opcode & SRC_X) {
                return verr(v, pc, "indirect calls (callx) are not supported");
            }
            if (insn->src == 1) {
                /* oko_program_inline_calls() replaces them before. */
                return verr(v, pc,
                            "program-local call left in the program (inline "
                            "calls first)");
            }
            if (insn->src != 0) {
                return verr(v, pc,
                            "calls to kernel functions are not supported");
            }
            if (!oko_helper_proto(insn->imm)) {
                /* Checked here too, so that unreachable code cannot hold one.
                 */
                return verr(v, pc, "call to unknown helper %d", insn->imm);
            }
            if (insn->dst || insn->off) {
                return verr(v, pc,
                            "opcode 0x85: a call uses only imm (the helper); "
                            "dst and off "
                            "must be 0");
            }
            return 0;
        }
        if (op == OP_EXIT) {
            if (cls == CLASS_JMP32 || (insn->opcode & SRC_X)) {
                break;
            }
            if (insn->dst || insn->src || insn->off || insn->imm) {
                return verr(v, pc,
                            "opcode 0x95: exit uses no field; dst, src, off "
                            "and imm must "
                            "be 0");
            }
            return 0;
        }
        if (op == 0xe0 || op == 0xf0
            || (op == OP_JA && (insn->opcode & SRC_X))) {
            break;
        }
        /* Unused fields must be 0, as for ALU (alu_encoding_error()). */
        if (op == OP_JA) {
            if (insn->src || insn->dst
                || (cls == CLASS_JMP ? insn->imm : insn->off)) {
                return verr(v, pc,
                            "opcode 0x%02x: ja uses only its %s; the other "
                            "fields must be 0",
                            insn->opcode, cls == CLASS_JMP ? "offset" : "imm");
            }
        } else if ((insn->opcode & SRC_X) ? insn->imm != 0 : insn->src != 0) {
            return verr(v, pc,
                        "opcode 0x%02x: the %s field must be 0 when the "
                        "source is %s",
                        insn->opcode, (insn->opcode & SRC_X) ? "imm" : "src",
                        (insn->opcode & SRC_X) ? "a register"
                                               : "an immediate");
        }
        {
            long target = (long) pc + 1 + oko_isa_jump_delta(insn);
            if (target < 0 || target >= v->n) {
                return verr(v, pc,
                            "jump out of the program (to insn %ld of %d)",
                            target, v->n);
            }
            if (v->lddw_tail[target]) {
                return verr(v, pc,
                            "jump into the middle of the lddw at insn %ld",
                            target - 1);
            }
        }
        return 0;
    }
    return verr(v, pc, "unknown opcode 0x%02x", insn->opcode);
}

/* Successors of 'pc' in the control-flow graph; returns their count. */
static int
successors(const struct verifier *v, int pc, int succ[2])
{
    const struct oko_insn *insn = &v->insns[pc];
    int cls = insn->opcode & 0x07;
    int op = insn->opcode & 0xf0;
    if (cls == CLASS_LD) {
        succ[0] = pc + 2;
        return 1;
    }
    if (cls == CLASS_JMP || cls == CLASS_JMP32) {
        if (op == OP_EXIT) {
            return 0;
        }
        if (op == OP_JA) {
            succ[0] = pc + 1 + oko_isa_jump_delta(insn);
            return 1;
        }
        if (op != OP_CALL) {
            succ[0] = pc + 1;
            succ[1] = pc + 1 + insn->off;
            return 2;
        }
    }
    succ[0] = pc + 1;
    return 1;
}

/* Depth-first search from the entry: an edge to an instruction still on
 * the search stack closes a cycle. */
static int
check_cfg(struct verifier *v)
{
    enum { WHITE, GREY, BLACK };
    uint8_t *color = calloc(v->n, 1);
    int *stack = malloc(v->n * sizeof *stack);
    uint8_t *next_succ = calloc(v->n, 1);
    int err = 0;
    if (!color || !stack || !next_succ) {
        err = ENOMEM;
        goto out;
    }
    int depth = 0;
    stack[depth++] = 0;
    color[0] = GREY;
    while (depth && !err) {
        int pc = stack[depth - 1];
        int succ[2];
        int n = successors(v, pc, succ);
        if (next_succ[pc] == n) {
            color[pc] = BLACK;
            depth--;
            continue;
        }
        int s = succ[next_succ[pc]++];
        if (s >= v->n) {
            err = verr(v, pc, "execution can run past the last instruction "
                       "(the program must end with exit)");
        } else if (color[s] == GREY) {
            err = verr(v, pc,
                       "jump back to insn %d makes a loop (loops are not "
                       "allowed)",
                       s);
        } else {
            if (v->join[s] < 2) {
                v->join[s]++;               /* in-degree, saturating at 2 */
            }
            if (color[s] == WHITE) {
                color[s] = GREY;
                stack[depth++] = s;
            }
        }
    }
out:
    free(color);
    free(stack);
    free(next_succ);
    return err;
}

/* ---- Register liveness ---- */


/* Registers instruction 'pc' reads ('*use') and writes ('*def').  A call
 * reads the arguments of its helper's prototype (all five if the helper is
 * unknown: the walk rejects such a call anyway). */
static void
insn_use_def(const struct verifier *v, int pc, uint16_t *use, uint16_t *def)
{
    const struct oko_insn *insn = &v->insns[pc];

    int cls = insn->opcode & 0x07;

    oko_isa_use_def(insn, use, def);
    if ((cls == CLASS_JMP || cls == CLASS_JMP32)
        && (insn->opcode & 0xf0) == OP_CALL) {
        const struct oko_helper_proto *proto = oko_helper_proto(insn->imm);
        if (proto) {
            *use = 0;
            for (int i = 0; i < 5 && proto->args[i] != OKO_ARG_NONE; i++) {
                *use |= OKO_REG_BIT(i + 1);
            }
        }
    }
}

/* live[pc]: registers some path from 'pc' reads before writing.  The graph
 * has no cycles, but jumps may go backwards, so iterate to a fixed point
 * (a pass in reverse order settles almost everything). */
static int
compute_liveness(struct verifier *v)
{
    v->live = calloc(v->n, sizeof *v->live);
    if (!v->live) {
        return ENOMEM;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int pc = v->n - 1; pc >= 0; pc--) {
            if (v->lddw_tail[pc]) {
                continue;
            }
            int succ[2];
            int n = successors(v, pc, succ);
            uint16_t out = 0, use, def;
            for (int i = 0; i < n; i++) {
                out |= succ[i] < v->n ? v->live[succ[i]] : 0;
            }
            insn_use_def(v, pc, &use, &def);
            uint16_t in = use | (out & ~def) | OKO_REG_BIT(FP);
            if (in != v->live[pc]) {
                v->live[pc] = in;
                changed = true;
            }
        }
    }
    return 0;
}

/* ---- Abstract values ---- */

static void
mark_scalar(struct verifier *v, struct vreg *r, const struct oko_scalar *value)
{
    memset(r, 0, sizeof *r);
    r->type = T_SCALAR;
    r->v = *value;
    r->id = oko_scalar_is_const(value) ? 0 : ++v->next_id;
}

static void
mark_unknown(struct verifier *v, struct vreg *r)
{
    struct oko_scalar unknown = oko_scalar_unknown();
    mark_scalar(v, r, &unknown);
}

static void
mark_range(struct verifier *v, struct vreg *r, uint64_t lo, uint64_t hi)
{
    struct oko_scalar range = oko_scalar_urange(lo, hi);
    mark_scalar(v, r, &range);
}

static void
mark_const(struct vreg *r, uint64_t value)
{
    memset(r, 0, sizeof *r);
    r->type = T_SCALAR;
    r->v = oko_scalar_const(value);
}

static bool
is_const(const struct vreg *r)
{
    return r->type == T_SCALAR && oko_scalar_is_const(&r->v);
}

static uint64_t
const_value(const struct vreg *r)
{
    return r->v.t.value;
}

/* The value of a number register (scalar, or len + k as a scalar). */
static struct oko_scalar
number_value(const struct vstate *s, const struct vreg *r)
{
    if (r->type != T_LEN) {
        return r->v;
    }
    struct oko_scalar len = oko_scalar_urange(s->len_min, s->len_max);
    struct oko_scalar k = oko_scalar_const((uint64_t) r->off);
    return oko_scalar_alu(0x00, 0, true, &len, &k);
}

/* A pointer's variable part has no variable part: its constant value. */
static bool
var_is_const(const struct vreg *r, uint64_t value)
{
    return oko_scalar_is_const(&r->v) && r->v.t.value == value;
}

/* ---- Stack ---- */

/* Checks that [off, off + size) lies in the stack; returns the byte index
 * of 'off' in stype[]. */
static int
stack_bounds(struct verifier *v, int pc, int64_t off, int64_t size, int *index)
{
    if (off < -STACK_BYTES || off + size > 0) {
        return verr(v, pc, "stack access at fp%+" PRId64 " size %" PRId64
                    " is outside the 512-byte stack", off, size);
    }
    *index = STACK_BYTES + off;
    return 0;
}

/* Checks that 'size' bytes at byte index 'i' are initialised and hold no
 * part of a spilled pointer. */
static int
stack_readable(struct verifier *v, int pc, const struct vstate *s, int i,
               int64_t size)
{
    for (int64_t b = i; b < i + size; b++) {
        if (s->stype[b] == S_INVALID) {
            return verr(v, pc, "reads uninitialised stack at fp%+d",
                        (int) (b - STACK_BYTES));
        }
        if (s->stype[b] == S_SPILL && is_pointer(&s->spill[b / 8])) {
            return verr(v, pc,
                        "reads part of a pointer spilled at fp%+d as a number",
                        (int) (b / 8 * 8 - STACK_BYTES));
        }
    }
    return 0;
}

/* Marks 'size' bytes at index 'i' as holding a number.  A spilled number
 * they overlap becomes plain bytes; a spilled pointer they overlap is an
 * error: its other bytes would be readable as a number (an address). */
static int
stack_write_misc(struct verifier *v, int pc, struct vstate *s, int i, int size)
{
    for (int b = i; b < i + size; b++) {
        if (s->stype[b] == S_SPILL && is_pointer(&s->spill[b / 8])) {
            return verr(v, pc,
                        "overwrites part of the pointer spilled at fp%+d "
                        "(a spilled pointer can only be replaced whole, by an "
                        "8-byte store)",
                        b / 8 * 8 - STACK_BYTES);
        }
    }
    for (int b = i; b < i + size; b++) {
        if (s->stype[b] == S_SPILL) {
            int slot = b / 8;
            for (int k = 0; k < 8; k++) {
                s->stype[slot * 8 + k] = S_MISC;
            }
        }
        s->stype[b] = S_MISC;
    }
    return 0;
}

/* ---- Memory access ---- */

static const char *const size_names[] = { "u32", "u16", "u8", "u64" };

/* Checks an access of 'size' bytes at 'r' + 'off'.  For stack accesses sets
 * '*stack_index' to the byte index when the offset is fixed, else -1. */
static int
check_access(struct verifier *v, int pc, struct vstate *s, int regno,
             int64_t off, int64_t size, bool write, int *stack_index)
{
    const struct vreg *r = &s->regs[regno];
    /* Only for pointers: their fixed offsets are below 2^29 and variable
     * parts below 2^20, so neither sum can overflow.  A number's 'off' and
     * range are anything (it is refused below, as a base). */
    bool pointer
        = r->type == T_PKT || r->type == T_STACK || r->type == T_MAP_VALUE;
    int64_t lo = pointer ? r->off + off : 0;
    int64_t var = pointer ? (int64_t) (r->v.umax - r->v.umin) : 0;
    *stack_index = -1;

    switch (r->type) {
    case T_PKT:
        if (write) {
            return verr(v, pc,
                        "writes to the packet are not allowed (the packet is "
                        "read-only)");
        }
        if (lo + (int64_t) r->v.umin < 0) {
            return verr(v, pc,
                        "packet read at offset %" PRId64
                        " is before the packet start",
                        lo + (int64_t) r->v.umin);
        }
        if (lo >= 0 && r->id && lo + size <= r->range) {
            return 0;
        }
        if (r->rel_id) {
            for (int i = 0; i < s->n_facts; i++) {
                if (s->facts[i].id == r->rel_id
                    && lo + r->rel_off + size <= s->facts[i].gap) {
                    return 0;
                }
            }
        }
        if ((int64_t) r->v.umax + lo + size <= (int64_t) s->len_min) {
            return 0;
        }
        if (r->v.umax) {
            return verr(v, pc,
                        "packet read of %" PRId64
                        " bytes at a variable offset %" PRId64 "+[%" PRIu64
                        ", %" PRIu64 "] is not proven within len "
                        "(compare the pointer with the packet end first)",
                        size, lo, r->v.umin, r->v.umax);
        }
        return verr(v, pc,
                    "packet read of %" PRId64 " bytes at offset %" PRId64
                    " is not proven within len (only %" PRIu64 " bytes are; "
                    "compare len first)",
                    size, lo, s->len_min);
    case T_STACK: {
        if (var) {
            lo += r->v.umin;
        }
        int index = 0;
        int err = stack_bounds(v, pc, lo, size + var, &index);
        if (err) {
            return err;
        }
        if (var) {
            if (write) {
                for (int b = index; b < index + size + var; b++) {
                    if (s->stype[b] == S_SPILL) {
                        return verr(v, pc,
                                    "write at a variable stack offset may hit "
                                    "the register spilled at fp%+d",
                                    b / 8 * 8 - STACK_BYTES);
                    }
                }
                return 0;
            }
            return stack_readable(v, pc, s, index, size + var);
        }
        *stack_index = index;
        return 0;
    }
    case T_MAP_VALUE: {
        uint32_t value_size = v->prog->maps[r->map].value_size;
        if (lo + (int64_t) r->v.umin < 0
            || lo + (int64_t) r->v.umax + size > value_size) {
            return verr(v, pc,
                        "%s access at offset %" PRId64
                        "%s of a value of map '%s' "
                        "is outside its %u bytes",
                        size_names[size == 8   ? 3
                                   : size == 4 ? 0
                                   : size == 2 ? 1
                                               : 2],
                        lo + (int64_t) r->v.umin, var ? " (+variable)" : "",
                        map_name(v, r->map), value_size);
        }
        return 0;
    }
    case T_MAP_VALUE_OR_NULL:
        return verr(v, pc,
                    "r%d may be NULL (a map lookup's result): compare it with "
                    "0 "
                    "before using it",
                    regno);
    case T_PKT_END:
        return verr(v, pc,
                    "r%d is the packet end pointer: nothing can be read or "
                    "written there",
                    regno);
    case T_MAP:
        return verr(v, pc, "r%d is a map reference, not a pointer to memory "
                    "(use oko_map_lookup)", regno);
    case T_NOT_INIT:
        return verr(v, pc, "r%d is used before it is set", regno);
    default:
        return verr(v, pc,
                    "r%d is %s, not a pointer: cannot %s memory through it",
                    regno, type_names[r->type], write ? "write" : "read");
    }
}

static int
size_bytes(int size_bits)
{
    switch (size_bits) {
    case SIZE_B: return 1;
    case SIZE_H: return 2;
    case SIZE_W: return 4;
    default: return 8;
    }
}

static uint64_t
max_of_size(int bytes)
{
    return bytes == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * bytes)) - 1;
}

static int
do_ldx(struct verifier *v, struct vstate *s, const struct oko_insn *insn)
{
    int pc = s->pc;
    int size = size_bytes(insn->opcode & 0x18);
    bool sx = (insn->opcode & 0xe0) == MODE_MEMSX;
    int index;
    if (insn->dst == FP) {
        return verr(v, pc, "r10 (the frame pointer) is read-only");
    }
    int err
        = check_access(v, pc, s, insn->src, insn->off, size, false, &index);
    if (err) {
        return err;
    }
    if (index >= 0) {
        /* Fixed stack offset: restore a spilled register, else a number. */
        if (size == 8 && index % 8 == 0 && s->stype[index] == S_SPILL) {
            s->regs[insn->dst] = s->spill[index / 8];
            return 0;
        }
        err = stack_readable(v, pc, s, index, size);
        if (err) {
            return err;
        }
    }
    struct oko_scalar loaded = oko_scalar_urange(0, max_of_size(size));
    if (sx) {
        struct oko_scalar unused = oko_scalar_const(0);
        loaded = oko_scalar_alu(0xb0, 8 * size, true, &unused, &loaded);
    }
    mark_scalar(v, &s->regs[insn->dst], &loaded);
    return 0;
}

static int
do_store(struct verifier *v, struct vstate *s, const struct oko_insn *insn)
{
    int pc = s->pc;
    bool stx = (insn->opcode & 0x07) == CLASS_STX;
    int size = size_bytes(insn->opcode & 0x18);
    const struct vreg *src = stx ? &s->regs[insn->src] : NULL;
    int index;

    if (src && src->type == T_NOT_INIT) {
        return verr(v, pc, "r%d is used before it is set", insn->src);
    }
    int err = check_access(v, pc, s, insn->dst, insn->off, size, true, &index);
    if (err) {
        return err;
    }
    const struct vreg *dst = &s->regs[insn->dst];
    if (src && is_pointer(src)) {
        if (dst->type == T_MAP_VALUE) {
            return verr(v, pc,
                        "storing a pointer into a map value is not allowed");
        }
        if (index < 0 || size != 8 || index % 8) {
            return verr(v, pc,
                        "a pointer can only be spilled whole, to an 8-byte "
                        "aligned "
                        "stack slot");
        }
    }
    if (index >= 0) {
        /* An aligned 8-byte store replaces a whole slot, pointer or not. */
        if (src && size == 8 && index % 8 == 0) {
            s->spill[index / 8] = *src;
            memset(&s->stype[index], S_SPILL, 8);
        } else if (!src && size == 8 && index % 8 == 0) {
            mark_const(&s->spill[index / 8], (uint64_t) (int64_t) insn->imm);
            memset(&s->stype[index], S_SPILL, 8);
        } else {
            return stack_write_misc(v, pc, s, index, size);
        }
    }
    return 0;
}

static int
do_atomic(struct verifier *v, struct vstate *s, const struct oko_insn *insn)
{
    int pc = s->pc;
    int size = size_bytes(insn->opcode & 0x18);
    const struct vreg *src = &s->regs[insn->src];
    int index;

    if (src->type == T_NOT_INIT) {
        return verr(v, pc, "r%d is used before it is set", insn->src);
    }
    if (!is_number(src)) {
        return verr(v, pc,
                    "atomic operation with %s in r%d; only numbers are "
                    "allowed",
                    type_names[src->type], insn->src);
    }
    if (insn->imm == ATOMIC_CMPXCHG && !is_number(&s->regs[0])) {
        return verr(v, pc, "cmpxchg compares with r0, which holds %s",
                    type_names[s->regs[0].type]);
    }
    int err = check_access(v, pc, s, insn->dst, insn->off, size, true, &index);
    if (err) {
        return err;
    }
    const struct vreg *dst = &s->regs[insn->dst];
    if ((dst->off + insn->off) % size || !oko_scalar_is_const(&dst->v)
        || dst->v.t.value % size) {
        return verr(v, pc,
                    "atomic operation at a misaligned or variable offset");
    }
    if (index >= 0) {
        err = stack_readable(v, pc, s, index, size);
        if (err) {
            return err;
        }
        err = stack_write_misc(v, pc, s, index, size);
        if (err) {
            return err;
        }
    }
    if (insn->imm == ATOMIC_CMPXCHG) {
        mark_range(v, &s->regs[0], 0, max_of_size(size));
    } else if (insn->imm & ATOMIC_FETCH) {
        mark_range(v, &s->regs[insn->src], 0, max_of_size(size));
    }
    return 0;
}

/* ---- ALU ---- */

/* 'c' (a 64-bit constant) as a signed offset within (-limit, limit). */
static bool
small_signed(uint64_t c, int64_t limit, int64_t *out)
{
    int64_t x = (int64_t) c;
    if (x <= -limit || x >= limit) {
        return false;
    }
    *out = x;
    return true;
}

/* "len + k" plus or minus a constant, kept symbolic where it is exact. */
static bool
alu_len(const struct vstate *s, const struct oko_insn *insn, struct vreg *dst,
        const struct vreg *src, bool is64)
{
    int op = insn->opcode & 0xf0;
    int64_t c, k;
    if (dst->type != T_LEN || !is_const(src) || (op != 0x00 && op != 0x10)) {
        return false;
    }
    if (is64) {
        if (!small_signed(const_value(src), MAX_LEN_DELTA, &c)) {
            return false;
        }
    } else {
        /* 32 bits: exact when len + k and the result both stay within
         * 0 .. 2^32 - 1 for every len. */
        c = (int32_t) const_value(src);
        if ((int64_t) s->len_min + dst->off < 0
            || (int64_t) s->len_max + dst->off > (int64_t) UINT32_MAX) {
            return false;
        }
    }
    k = dst->off + (op == 0x00 ? c : -c);
    if (k <= -MAX_LEN_DELTA || k >= MAX_LEN_DELTA) {
        return false;
    }
    if (!is64
        && ((int64_t) s->len_min + k < 0
            || (int64_t) s->len_max + k > (int64_t) UINT32_MAX)) {
        return false;
    }
    dst->off = k;
    return true;
}

static int
alu_number(struct verifier *v, struct vstate *s, const struct oko_insn *insn,
           struct vreg *dst, const struct vreg *src, bool is64)
{
    int op = insn->opcode & 0xf0;

    if (op == OP_END) {
        struct oko_scalar x = number_value(s, dst);
        struct oko_scalar r
            = oko_scalar_endian(is64 || (insn->opcode & SRC_X), insn->imm, &x);
        mark_scalar(v, dst, &r);
        return 0;
    }
    if (alu_len(s, insn, dst, src, is64)) {
        return 0;
    }
    int64_t c;
    if (src->type == T_LEN && is64 && op == 0x00 && is_const(dst)
        && small_signed(const_value(dst), MAX_LEN_DELTA, &c)
        && src->off + c > -MAX_LEN_DELTA && src->off + c < MAX_LEN_DELTA) {
        *dst = *src;                        /* c + (len + k) */
        dst->off += c;
        return 0;
    }

    struct oko_scalar a = number_value(s, dst), b = number_value(s, src);
    struct oko_scalar r = oko_scalar_alu(op, insn->off, is64, &a, &b);
    if (dst->type == T_SCALAR && dst->id && is64 && is_const(src)
        && (op == 0x00 || op == 0x10)
        && small_signed(const_value(src), MAX_OFFSET, &c)) {
        /* base + off +/- c keeps its base when no member wraps around
         * (the relation to the base is one of integers). */
        int64_t delta = op == 0x00 ? c : -c;
        bool wraps = delta >= 0 ? a.umax > UINT64_MAX - (uint64_t) delta
                                : a.umin < (uint64_t) -delta;
        int64_t off = dst->off + delta;
        if (!wraps && off > -MAX_OFFSET && off < MAX_OFFSET) {
            dst->v = r;
            dst->off = off;
            return 0;
        }
    }
    mark_scalar(v, dst, &r);
    return 0;
}

/* The offset of a pointer into its object, as a scalar: off + var. */
static struct oko_scalar
pointer_offset(const struct vreg *p)
{
    struct oko_scalar off = oko_scalar_const((uint64_t) p->off);
    return oko_scalar_alu(0x00, 0, true, &off, &p->v);
}

/* dst - src, both pointers.  A difference is a number only between two
 * pointers into the same object (the packet, the stack, one map value
 * returned by one lookup): then it is the difference of their offsets,
 * computed in the scalar domain.  The packet end minus a packet pointer is
 * "len + k" (the bytes left).  Everything else would turn an address into a
 * number and is refused. */
static int
pointer_difference(struct verifier *v, struct vstate *s, int pc,
                   struct vreg *dst, const struct vreg *src)
{
    if (dst->type == T_PKT && src->type == T_PKT_END) {
        return verr(v, pc,
                    "subtracting the packet end pointer from a packet pointer "
                    "is not "
                    "allowed (it is minus the bytes left; subtract the other "
                    "way round)");
    }
    if (dst->type == T_PKT_END && src->type == T_PKT) {
        /* (pkt + len + e) - (pkt + o + var) */
        if (oko_scalar_is_const(&src->v)) {
            int64_t k = dst->off - src->off - (int64_t) src->v.t.value;
            if (k > -MAX_LEN_DELTA && k < MAX_LEN_DELTA) {
                memset(dst, 0, sizeof *dst);
                dst->type = T_LEN;
                dst->off = k;
                return 0;
            }
        }
        struct vreg end = { .type = T_LEN, .off = dst->off };
        struct oko_scalar left = number_value(s, &end),
                          used = pointer_offset(src);
        struct oko_scalar r = oko_scalar_alu(0x10, 0, true, &left, &used);
        mark_scalar(v, dst, &r);
        return 0;
    }
    if (dst->type == T_PKT_END && src->type == T_PKT_END) {
        mark_const(dst, (uint64_t) (dst->off - src->off));
        return 0;
    }
    bool same_object = dst->type == src->type
                       && (dst->type == T_PKT || dst->type == T_STACK
                           || (dst->type == T_MAP_VALUE && dst->map == src->map
                               && dst->obj == src->obj));
    if (!same_object) {
        if (dst->type == src->type && dst->type == T_MAP_VALUE) {
            return verr(v, pc,
                        "subtracting pointers into two different objects "
                        "(values of "
                        "two lookups) is not allowed");
        }
        return verr(v, pc,
                    "subtracting %s from %s is not allowed (pointers into two "
                    "different objects)",
                    type_names[src->type], type_names[dst->type]);
    }
    struct oko_scalar a = pointer_offset(dst), b = pointer_offset(src);
    struct oko_scalar r = oko_scalar_alu(0x10, 0, true, &a, &b);
    mark_scalar(v, dst, &r);
    return 0;
}

static int
alu_pointer(struct verifier *v, struct vstate *s, const struct oko_insn *insn,
            struct vreg *dst, struct vreg *src, bool is64)
{
    int pc = s->pc;
    int op = insn->opcode & 0xf0;

    if (!is64) {
        return verr(v, pc, "32-bit arithmetic on a pointer is not allowed");
    }
    if (op != 0x00 && op != 0x10) {
        return verr(v, pc,
                    "only adding or subtracting a number is allowed on a "
                    "pointer "
                    "(r%d holds %s)",
                    is_pointer(dst) ? insn->dst : insn->src,
                    type_names[is_pointer(dst) ? dst->type : src->type]);
    }
    if (is_pointer(dst) && is_pointer(src)) {
        if (op != 0x10) {
            return verr(v, pc, "adding two pointers is not allowed");
        }
        if (dst->type == T_MAP || src->type == T_MAP
            || dst->type == T_MAP_VALUE_OR_NULL
            || src->type == T_MAP_VALUE_OR_NULL) {
            return verr(v, pc, "subtracting %s from %s is not allowed",
                        type_names[src->type], type_names[dst->type]);
        }
        return pointer_difference(v, s, pc, dst, src);
    }

    /* Exactly one pointer.  Put it in 'ptr', the number in 'num'. */
    struct vreg ptr = is_pointer(dst) ? *dst : *src;
    struct vreg num = is_pointer(dst) ? *src : *dst;
    if (!is_pointer(dst) && op == 0x10) {
        return verr(v, pc,
                    "subtracting a pointer from a number is not allowed");
    }
    switch (ptr.type) {
    case T_MAP:
        return verr(v, pc, "arithmetic on a map reference is not allowed");
    case T_MAP_VALUE_OR_NULL:
        return verr(v, pc,
                    "arithmetic on a map value pointer that may be NULL "
                    "(compare it with 0 first)");
    default:
        break;
    }
    if (num.type == T_LEN && ptr.type == T_PKT && op == 0x00
        && var_is_const(&ptr, 0) && ptr.off + num.off > -MAX_OFFSET
        && ptr.off + num.off < MAX_OFFSET) {
        /* pkt + o + len + k: the end, moved */
        int64_t k = ptr.off + num.off;
        memset(dst, 0, sizeof *dst);
        dst->type = T_PKT_END;
        dst->off = k;
        return 0;
    }
    struct oko_scalar n = number_value(s, &num);
    int64_t delta;
    if (oko_scalar_is_const(&n)
        && small_signed(n.t.value, MAX_OFFSET, &delta)) {
        int64_t off = ptr.off + (op == 0x00 ? delta : -delta);
        if (off <= -MAX_OFFSET || off >= MAX_OFFSET) {
            return verr(v, pc, "pointer offset %" PRId64 " is out of range",
                        off);
        }
        ptr.off = off;
        *dst = ptr;
        return 0;
    }
    if (oko_scalar_is_const(&n)) {
        return verr(v, pc, "adding %" PRId64 " to a pointer is out of range",
                    (int64_t) n.t.value);
    }
    if (op == 0x10) {
        return verr(v, pc,
                    "subtracting a variable from a pointer is not allowed");
    }
    if (ptr.type == T_PKT_END) {
        return verr(v, pc,
                    "adding a variable to the packet end pointer is not "
                    "allowed");
    }
    /* The variable part is a number in [0, MAX_VAR_OFFSET): both summands
     * are, so the sum is exact. */
    if (n.umax >= MAX_VAR_OFFSET || ptr.v.umax + n.umax >= MAX_VAR_OFFSET) {
        return verr(v, pc,
                    "variable offset added to %s may be as large as %" PRIu64
                    ": bound it with a comparison first",
                    type_names[ptr.type], n.umax);
    }
    if (ptr.type == T_PKT) {
        bool first_var = var_is_const(&ptr, 0);
        ptr.id = ++v->next_id;              /* a new base: packet + var */
        ptr.range = 0;
        ptr.rel_id = first_var && num.type == T_SCALAR ? num.id : 0;
        ptr.rel_off = num.off;
    }
    ptr.v = oko_scalar_alu(0x00, 0, true, &ptr.v, &n);
    *dst = ptr;
    return 0;
}

static int
do_alu(struct verifier *v, struct vstate *s, const struct oko_insn *insn)
{
    int pc = s->pc;
    bool is64 = (insn->opcode & 0x07) == CLASS_ALU64;
    int op = insn->opcode & 0xf0;
    struct vreg *dst = &s->regs[insn->dst];
    struct vreg src;

    if (insn->dst == FP) {
        return verr(v, pc, "r10 (the frame pointer) is read-only");
    }
    if ((insn->opcode & SRC_X) && op != OP_END) {
        /* For END the bit selects the byte order: no source register. */
        src = s->regs[insn->src];
        if (src.type == T_NOT_INIT) {
            return verr(v, pc, "r%d is used before it is set", insn->src);
        }
    } else {
        mark_const(&src, is64 ? (uint64_t) (int64_t) insn->imm
                              : (uint32_t) insn->imm);
    }

    if (op == 0xb0) {                       /* mov */
        if (insn->off) {                    /* movsx */
            if (!is_number(&src)) {
                return verr(v, pc, "sign-extending move of %s",
                            type_names[src.type]);
            }
            struct oko_scalar x = number_value(s, &src);
            struct oko_scalar r = oko_scalar_alu(op, insn->off, is64, &x, &x);
            mark_scalar(v, dst, &r);
            return 0;
        }
        if (is64) {
            *dst = src;
            return 0;
        }
        if (is_pointer(&src)) {
            return verr(v, pc, "32-bit move of %s is not allowed",
                        type_names[src.type]);
        }
        struct oko_scalar x = number_value(s, &src);
        bool fits = src.type == T_LEN
                    ? (int64_t) s->len_min + src.off >= 0
                      && (int64_t) s->len_max + src.off <= (int64_t) UINT32_MAX
                    : x.umax <= UINT32_MAX;
        if (fits) {
            /* the same value: keeps len + k and ids */
            *dst = src;
            return 0;
        }
        struct oko_scalar r = oko_scalar_alu(op, 0, false, &x, &x);
        mark_scalar(v, dst, &r);
        return 0;
    }

    if (dst->type == T_NOT_INIT) {
        return verr(v, pc, "r%d is used before it is set", insn->dst);
    }
    if (op == OP_END || op == 0x80) {
        if (is_pointer(dst)) {
            return verr(v, pc, "%s of %s is not allowed",
                        op == 0x80 ? "negation" : "byte swap",
                        type_names[dst->type]);
        }
        return alu_number(v, s, insn, dst, &src, is64);
    }
    if (is_pointer(dst) || is_pointer(&src)) {
        return alu_pointer(v, s, insn, dst, &src, is64);
    }
    return alu_number(v, s, insn, dst, &src, is64);
}

/* ---- Calls ---- */

static int
check_mem_arg(struct verifier *v, struct vstate *s, int regno, uint64_t size,
              const struct oko_helper_proto *proto, const char *what)
{
    int pc = s->pc;
    const struct vreg *r = &s->regs[regno];
    int index = -1;
    if (r->type != T_STACK && r->type != T_PKT && r->type != T_MAP_VALUE) {
        if (r->type == T_MAP_VALUE_OR_NULL) {
            return check_access(v, pc, s, regno, 0, 1, false, &index);
        }
        return verr(v, pc,
                    "%s: argument r%d (%s) must point to %" PRIu64
                    " readable bytes "
                    "on the stack, in a map value or in the packet; it holds "
                    "%s",
                    proto->name, regno, what, size, type_names[r->type]);
    }
    if (!size) {
        return 0;
    }
    if (size > OKO_MAX_PKT_LEN) {
        return verr(v, pc,
                    "%s: argument r%d (%s) of %" PRIu64 " bytes is too large",
                    proto->name, regno, what, size);
    }
    int err = check_access(v, pc, s, regno, 0, size, false, &index);
    if (!err && index >= 0) {
        err = stack_readable(v, pc, s, index, size);
    }
    if (err) {
        char reason[OKO_ERROR_MAX];
        const char *colon = strchr(v->error, ':');
        snprintf(reason, sizeof reason, "%s", colon ? colon + 2 : v->error);
        return verr(v, pc, "%s: argument r%d (%s, %" PRIu64 " bytes): %s",
                    proto->name, regno, what, size, reason);
    }
    return 0;
}

static const char *const map_type_names[] = {
    "unknown", "hash", "array", "lru_hash", "bloom", "count_min", "lpm",
};

static int
do_call(struct verifier *v, struct vstate *s, const struct oko_insn *insn)
{
    int pc = s->pc;
    const struct oko_helper_proto *proto = oko_helper_proto(insn->imm);
    if (!proto) {
        return verr(v, pc, "call to unknown helper %d", insn->imm);
    }
    int map = -1;
    for (int i = 0; i < 5; i++) {
        int regno = i + 1;
        const struct vreg *r = &s->regs[regno];
        enum oko_arg_kind kind = proto->args[i];
        if (kind == OKO_ARG_NONE) {
            continue;
        }
        if (r->type == T_NOT_INIT) {
            return verr(v, pc, "%s: argument r%d is used before it is set",
                        proto->name, regno);
        }
        int err = 0;
        switch (kind) {
        case OKO_ARG_MAP:
            if (r->type != T_MAP) {
                return verr(v, pc,
                            "%s: argument r%d must be a map reference (&map); "
                            "it holds %s",
                            proto->name, regno, type_names[r->type]);
            }
            map = r->map;
            uint32_t type = v->prog->maps[map].type;
            if (type >= 32 || !(proto->map_types & (UINT32_C(1) << type))) {
                return verr(v, pc, "%s cannot be used on map '%s' of type %s",
                            proto->name, map_name(v, map),
                            type < 7 ? map_type_names[type] : "unknown");
            }
            break;
        case OKO_ARG_KEY:
            err = check_mem_arg(v, s, regno, v->prog->maps[map].key_size,
                                proto, "key");
            break;
        case OKO_ARG_VALUE:
            err = check_mem_arg(v, s, regno, v->prog->maps[map].value_size,
                                proto, "value");
            break;
        case OKO_ARG_SCALAR:
            if (!is_number(r)) {
                return verr(v, pc,
                            "%s: argument r%d must be a number; it holds %s",
                            proto->name, regno, type_names[r->type]);
            }
            break;
        case OKO_ARG_MEM:
            break;                          /* checked with its size */
        case OKO_ARG_MEM_SIZE: {
            if (!is_number(r)) {
                return verr(v, pc,
                            "%s: argument r%d must be a size; it holds %s",
                            proto->name, regno, type_names[r->type]);
            }
            uint64_t hi = number_value(s, r).umax;
            if (hi > STACK_BYTES) {
                return verr(v, pc,
                            "%s: size in r%d may be up to %" PRIu64
                            "; at most %d",
                            proto->name, regno, hi, STACK_BYTES);
            }
            err = check_mem_arg(v, s, regno - 1, hi, proto, "memory");
            break;
        }
        case OKO_ARG_NONE:
            break;
        }
        if (err) {
            return err;
        }
    }
    for (int r = 1; r <= 5; r++) {
        memset(&s->regs[r], 0, sizeof s->regs[r]);
    }
    if (proto->ret == OKO_RET_MAP_VALUE_OR_NULL) {
        struct vreg *r0 = &s->regs[0];
        memset(r0, 0, sizeof *r0);
        r0->type = T_MAP_VALUE_OR_NULL;
        r0->map = map;
        r0->id = ++v->next_id;
        /* each lookup's value is an object of its own */
        r0->obj = r0->id;
    } else {
        mark_unknown(v, &s->regs[0]);
    }
    return 0;
}

/* ---- Conditional jumps ---- */

/* Relations between two values ("int", not the enum type, so that switches
 * may list only the relations they act on). */
enum {
    R_EQ = OKO_REL_EQ,
    R_NE = OKO_REL_NE,
    R_GT = OKO_REL_GT,
    R_GE = OKO_REL_GE,
    R_LT = OKO_REL_LT,
    R_LE = OKO_REL_LE,
    R_SGT = OKO_REL_SGT,
    R_SGE = OKO_REL_SGE,
    R_SLT = OKO_REL_SLT,
    R_SLE = OKO_REL_SLE,
    R_SET = OKO_REL_SET,
    R_NSET = OKO_REL_NSET,
};

/* The relation "dst OP src" that holds when the jump is 'taken' (or not). */
static int
jump_rel(int op, bool taken)
{
    static const int rels[16][2] = {
        [0x1] = { R_NE, R_EQ },   [0x2] = { R_LE, R_GT },
        [0x3] = { R_LT, R_GE },   [0x4] = { R_NSET, R_SET },
        [0x5] = { R_EQ, R_NE },   [0x6] = { R_SLE, R_SGT },
        [0x7] = { R_SLT, R_SGE }, [0xa] = { R_GE, R_LT },
        [0xb] = { R_GT, R_LE },   [0xc] = { R_SGE, R_SLT },
        [0xd] = { R_SGT, R_SLE },
    };
    return rels[op >> 4][taken];
}

/* "a REL b" as "b FLIP(REL) a". */
static int
flip_rel(int r)
{
    switch (r) {
    case R_GT: return R_LT;
    case R_GE: return R_LE;
    case R_LT: return R_GT;
    case R_LE: return R_GE;
    case R_SGT: return R_SLT;
    case R_SGE: return R_SLE;
    case R_SLT: return R_SGT;
    case R_SLE: return R_SGE;
    default: return r;
    }
}

/* Narrows the register 'r' (in 's', or a copy) to 'value', and every scalar
 * that shares its base: x = r + (x.off - r.off) as integers.  Returns false
 * if some copy has no value left (the branch cannot be taken).  Each copy
 * besides 'r' costs a step of the budget: a register copied into all 64
 * stack slots would otherwise make every comparison 65 narrowings (each an
 * addition and a meet) for the price of one instruction, 14 s of work in
 * a program of 4,000 instructions. */
static bool
set_scalar(struct verifier *v, struct vstate *s, const struct vreg *r,
           const struct oko_scalar *value)
{
    uint32_t id = r->id;
    int64_t off = r->off;
    bool is_reg = r >= s->regs && r < s->regs + N_REGS;
    if (!id) {
        /* No copies: only the register, if 'r' is one (not an immediate). */
        return !is_reg || oko_scalar_meet(&s->regs[r - s->regs].v, value);
    }
    for (int i = 0; i < N_REGS + STACK_SLOTS; i++) {
        struct vreg *x = i < N_REGS ? &s->regs[i] : &s->spill[i - N_REGS];
        if (i >= N_REGS && s->stype[(i - N_REGS) * 8] != S_SPILL) {
            continue;
        }
        if (x->type != T_SCALAR
            || !((is_reg && x == r) || (id && x->id == id))) {
            continue;
        }
        if (x != r) {
            v->narrowed++;
        }
        struct oko_scalar shifted = *value;
        if (x->off != off) {
            struct oko_scalar shift
                = oko_scalar_const((uint64_t) (x->off - off));
            shifted = oko_scalar_alu(0x00, 0, true, value, &shift);
        }
        if (!oko_scalar_meet(&x->v, &shifted)) {
            return false;
        }
    }
    return true;
}

/* Narrows the packet length by "len + k REL c", compared over 64 bits or
 * (is32) the low 32.  Works on mathematical integers: len + k is below 2^25
 * in magnitude, so at 32 and 64 bits it wraps at most once (below zero,
 * for the unsigned reading) and never for the signed one.  The lengths
 * satisfying the relation on each piece form an interval; the new bounds
 * are the hull of those.  Returns false if no length satisfies it. */
static bool
narrow_len(struct vstate *s, int rel, int64_t k, uint64_t c, bool is32)
{
    typedef __int128 i128;
    int bits = is32 ? 32 : 64;
    i128 m = (i128) 1 << bits;
    bool is_signed = rel >= R_SGT && rel <= R_SLE;
    i128 cv;
    if (is32) {
        cv = is_signed ? (i128) (int32_t) c : (i128) (uint32_t) c;
    } else {
        cv = is_signed ? (i128) (int64_t) c : (i128) c;
    }
    if (is_signed) {
        rel = rel - R_SGT + R_GT;
    }
    /* Pieces of [len_min, len_max] on which the compared value is len + d. */
    struct { i128 lo, hi, d; } pieces[2];
    int n = 0;
    i128 lo = s->len_min, hi = s->len_max;
    if (!is_signed && lo + k < 0) {
        i128 top = hi < -k - 1 ? hi : -k - 1;
        pieces[n++] = (typeof(pieces[0])) { lo, top, k + m };
        lo = -k;
    }
    if (lo <= hi) {
        pieces[n++] = (typeof(pieces[0])) { lo, hi, k };
    }
    i128 new_lo = 0, new_hi = -1;
    for (int i = 0; i < n; i++) {
        i128 p = pieces[i].lo, q = pieces[i].hi, d = pieces[i].d, t = cv - d;
        switch (rel) {
        case R_EQ: if (t > p) p = t; if (t < q) q = t; break;
        case R_NE: if (p + d == cv) p++; if (q + d == cv) q--; break;
        case R_GT: if (t + 1 > p) p = t + 1; break;
        case R_GE: if (t > p) p = t; break;
        case R_LT: if (t - 1 < q) q = t - 1; break;
        case R_LE: if (t < q) q = t; break;
        case R_SET: case R_NSET:
            if (p == q) {
                uint64_t w = (uint64_t) ((p + d) % m),
                         cw = (uint64_t) (cv % m);
                if (((w & cw) != 0) != (rel == R_SET)) {
                    q = p - 1;
                }
            }
            break;
        default: break;
        }
        if (p > q) {
            continue;
        }
        if (new_lo > new_hi) {
            new_lo = p;
            new_hi = q;
        } else {
            new_lo = p < new_lo ? p : new_lo;
            new_hi = q > new_hi ? q : new_hi;
        }
    }
    if (new_lo > new_hi) {
        return false;
    }
    s->len_min = (uint64_t) new_lo;
    s->len_max = (uint64_t) new_hi;
    return true;
}

/* Records what "len + k REL x" says about len and x's base. */
static void
learn_len_fact(struct vstate *s, int64_t k, const struct vreg *x, int rel)
{
    if ((int64_t) s->len_min + k < 0 || x->v.umax > INT64_MAX) {
        return;                             /* either side may wrap */
    }
    int64_t gap;
    switch (rel) {
    /* len >= base + off - k */
    case R_GE: case R_SGE: gap = x->off - k; break;
    case R_GT: case R_SGT: gap = x->off - k + 1; break;
    default: return;
    }
    for (int i = 0; i < s->n_facts; i++) {
        if (s->facts[i].id == x->id) {
            if (s->facts[i].gap < gap) {
                s->facts[i].gap = gap;
            }
            return;
        }
    }
    int slot = s->n_facts < MAX_LEN_FACTS ? s->n_facts++
                                          : (int) (x->id % MAX_LEN_FACTS);
    s->facts[slot].id = x->id;
    s->facts[slot].gap = gap;
}

/* Narrows 's' by "a REL b" on numbers; returns false if impossible. */
static bool
narrow_numbers(struct verifier *v, struct vstate *s, struct vreg *a,
               struct vreg *b, int rel, bool is32)
{
    if (b->type == T_LEN && a->type != T_LEN) {
        struct vreg *t = a;
        a = b;
        b = t;
        rel = flip_rel(rel);
    }
    if (a->type == T_LEN && is_const(b)) {
        return narrow_len(s, rel, a->off, const_value(b), is32);
    }
    if (a->type == T_LEN && b->type == T_SCALAR && b->id && !is32) {
        learn_len_fact(s, a->off, b, rel);
    }
    /* In the scalar domain (len + k as its range): both sides narrowed,
     * and what a scalar learned is shared with its copies. */
    struct oko_scalar x = number_value(s, a), y = number_value(s, b);
    if (!oko_scalar_relate((enum oko_rel) rel, !is32, &x, &y)) {
        return false;
    }
    if (a->type == T_SCALAR && !set_scalar(v, s, a, &x)) {
        return false;
    }
    if (b->type == T_SCALAR && !set_scalar(v, s, b, &y)) {
        return false;
    }
    return true;
}

/* Records that packet + var(id) + 'readable' <= packet end, for the pointer
 * 'p' (with its id).  Returns false if no packet length allows it. */
static bool
learn_pkt_range(struct vstate *s, const struct vreg *p, int64_t readable)
{
    if (readable <= 0) {
        return true;
    }
    if (oko_scalar_is_const(&p->v)) {
        /* both below 2^30 */
        uint64_t need = (uint64_t) readable + p->v.t.value;
        if (need > s->len_max) {
            return false;
        }
        if (s->len_min < need) {
            s->len_min = need;
        }
        return true;
    }
    if (readable > MAX_VAR_OFFSET) {
        return true;
    }
    for (int i = 0; i < N_REGS + STACK_SLOTS; i++) {
        struct vreg *x = i < N_REGS ? &s->regs[i] : &s->spill[i - N_REGS];
        if (i >= N_REGS && s->stype[(i - N_REGS) * 8] != S_SPILL) {
            continue;
        }
        if (x->type == T_PKT && x->id == p->id && x->range < readable) {
            x->range = readable;
        }
    }
    return true;
}

/* Narrows 's' by "a REL b" where one is a pointer; returns 1 if the branch is
 * possible, 0 if not, or an error (negative, message written). */
static int
narrow_pointers(struct verifier *v, struct vstate *s, int pc, struct vreg *a,
                struct vreg *b, int rel, bool is32)
{
    if (is32) {
        verr(v, pc, "32-bit comparison of a pointer is not allowed");
        return -1;
    }
    /* "a & b" of two addresses depends on where the object is, not only on
     * the offsets: refused for any pointer. */
    if (rel == R_SET || rel == R_NSET) {
        verr(v, pc, "testing bits of %s (jset) is not allowed",
             type_names[is_pointer(a) ? a->type : b->type]);
        return -1;
    }
    /* NULL check of a map lookup's result. */
    struct vreg *p = a->type == T_MAP_VALUE_OR_NULL   ? a
                     : b->type == T_MAP_VALUE_OR_NULL ? b
                                                      : NULL;
    struct vreg *other = p == a ? b : a;
    if (p && is_const(other) && const_value(other) == 0
        && (rel == R_EQ || rel == R_NE)) {
        uint32_t id = p->id;
        for (int i = 0; i < N_REGS + STACK_SLOTS; i++) {
            struct vreg *x = i < N_REGS ? &s->regs[i] : &s->spill[i - N_REGS];
            if (i >= N_REGS && s->stype[(i - N_REGS) * 8] != S_SPILL) {
                continue;
            }
            if (x->type == T_MAP_VALUE_OR_NULL && x->id == id) {
                if (rel == R_EQ) {
                    mark_const(x, 0);
                } else {
                    x->type = T_MAP_VALUE;
                    x->id = 0;              /* 'obj' still names the lookup */
                }
            }
        }
        return 1;
    }
    /* A pointer compared with 0 (a NULL check clang repeats on a path where
     * it already holds).  Decided where the pointer is inside its object
     * (the start of a packet or map value; the stack frame), which is mapped
     * memory and so never address 0.  Outside (up to 2^29 bytes away), it
     * is 0 for some placement of the object: the branch would tell the
     * program where its object is in memory.  Refused, as by PREVAIL. */
    struct vreg *q = is_pointer(a) ? a : b;
    struct vreg *zero = q == a ? b : a;
    if ((q->type == T_MAP_VALUE || q->type == T_STACK || q->type == T_PKT)
        && is_const(zero) && const_value(zero) == 0
        && (rel == R_EQ || rel == R_NE)) {
        bool inside
            = q->type == T_STACK
                  ? q->off >= -STACK_BYTES && q->off + (int64_t) q->v.umax <= 0
                  : q->off == 0 && q->v.umax == 0;
        if (!inside) {
            verr(v, pc,
                 "comparing %s outside its object with 0 is not allowed "
                 "(compare it before moving it, or compare the offset)",
                 type_names[q->type]);
            return -1;
        }
        return rel == R_NE;
    }
    /* Two pointers compare as their offsets do only if neither address can
     * wrap around 0.  Moving up from an object never wraps (user space ends
     * far below 2^64 - 2^30), moving down may: an object may sit below 2^29
     * (a low heap, a low mapping), and "end - 0x1ffffff0" is then near 2^64.
     * The verifier would decide the branch from the offsets while the run
     * takes the other one, and the branch's outcome would say where the
     * object is in memory.  So both pointers must be at or above their
     * object's start: the packet end moved down by at most the bytes the
     * packet is known to have. */
    if (is_pointer(a) && is_pointer(b)) {
        for (int i = 0; i < 2; i++) {
            struct vreg *x = i ? b : a;
            int64_t start = x->type == T_STACK ? -STACK_BYTES
                            : x->type == T_PKT_END ? -(int64_t) s->len_min : 0;
            if (x->off < start) {
                if (x->type == T_PKT_END) {
                    verr(v, pc,
                         "comparing the packet end moved down by %" PRId64
                         " bytes is "
                         "not allowed: the packet is known to have only "
                         "%" PRIu64 " (it may "
                         "lie before the packet; compare packet + n with the "
                         "end instead)",
                         -x->off, s->len_min);
                } else {
                    verr(v, pc,
                         "comparing %s that may lie before its object's start "
                         "(offset %" PRId64
                         ") with another pointer is not allowed",
                         type_names[x->type], x->off);
                }
                return -1;
            }
        }
    }
    if (b->type == T_PKT && a->type == T_PKT_END) {
        struct vreg *t = a;
        a = b;
        b = t;
        rel = flip_rel(rel);
    }
    if (a->type == T_PKT && b->type == T_PKT_END) {
        /* a = base + o, b = end + e: "base + o <= end + e" proves o - e bytes.
         */
        int64_t o = a->off, e = b->off;
        switch (rel) {
        case R_LE: case R_SLE: return learn_pkt_range(s, a, o - e);
        case R_LT: case R_SLT: return learn_pkt_range(s, a, o - e + 1);
        default: return 1;
        }
    }
    /* Two pointers into one object compare as their offsets do.  Two map
     * values of different lookups compare as their addresses: refused (the
     * branch would tell the program where its objects are). */
    if (is_pointer(a) && is_pointer(b)
        && ((a->type == b->type && a->type != T_MAP
             && a->type != T_MAP_VALUE_OR_NULL
             && (a->type != T_MAP_VALUE
                 || (a->map == b->map && a->obj == b->obj)))
            || (a->type == T_PKT_END && b->type == T_PKT_END))) {
        return 1;
    }
    if (p) {
        verr(v, pc,
             "a map value pointer that may be NULL can only be compared with "
             "0");
    } else {
        verr(v, pc, "comparing %s with %s is not allowed", type_names[a->type],
             type_names[b->type]);
    }
    return -1;
}

static int
do_cond_jump(struct verifier *v, struct vstate *s, const struct oko_insn *insn)
{
    int pc = s->pc;
    bool is32 = (insn->opcode & 0x07) == CLASS_JMP32;
    int op = insn->opcode & 0xf0;
    struct vreg b_imm;

    if (s->regs[insn->dst].type == T_NOT_INIT) {
        return verr(v, pc, "r%d is used before it is set", insn->dst);
    }
    if (insn->opcode & SRC_X) {
        if (s->regs[insn->src].type == T_NOT_INIT) {
            return verr(v, pc, "r%d is used before it is set", insn->src);
        }
    } else {
        mark_const(&b_imm, (uint64_t) (int64_t) insn->imm);
    }

    /* The taken branch goes on the pending stack, the other continues. */
    struct vstate *taken = NULL;
    bool ok[2];
    struct vstate *states[2];
    if (v->n_pending == MAX_PENDING) {
        return verr(v, pc,
                    "the program is too complex: more than %d branches wait "
                    "to be "
                    "explored at once",
                    MAX_PENDING);
    }
    if (v->n_pending == v->max_pending) {
        size_t n = v->max_pending ? v->max_pending * 2 : 64;
        struct vstate *p = realloc(v->pending, n * sizeof *p);
        if (!p) {
            snprintf(v->error, OKO_ERROR_MAX, "out of memory");
            return ENOMEM;
        }
        v->pending = p;
        v->max_pending = n;
    }
    taken = &v->pending[v->n_pending];
    *taken = *s;
    states[0] = s;
    states[1] = taken;
    for (int t = 0; t < 2; t++) {
        struct vstate *st = states[t];
        struct vreg *a = &st->regs[insn->dst];
        struct vreg *b = insn->opcode & SRC_X ? &st->regs[insn->src] : &b_imm;
        int rel = jump_rel(op, t);
        if (is_pointer(a) || is_pointer(b)) {
            int r = narrow_pointers(v, st, pc, a, b, rel, is32);
            if (r < 0) {
                return EINVAL;
            }
            ok[t] = r;
        } else {
            ok[t] = narrow_numbers(v, st, a, b, rel, is32);
        }
        if (insn->opcode & SRC_X) {
            /* Fold a decided comparison of two constants. */
            struct vreg *x = &st->regs[insn->dst], *y = &st->regs[insn->src];
            if (is_const(x) && is_const(y)) {
                ok[t] = oko_isa_jump_taken(op, !is32, const_value(x),
                                           const_value(y))
                        == t;
            }
        } else if (is_const(a)) {
            ok[t] = oko_isa_jump_taken(op, !is32, const_value(a),
                                       const_value(&b_imm))
                    == t;
        }
    }
    s->pc = pc + 1;
    taken->pc = pc + 1 + insn->off;
    if (ok[1]) {
        v->n_pending++;
        if (v->n_pending > v->max_depth) {
            v->max_depth = v->n_pending;
        }
    }
    return ok[0] ? 0 : -1;                  /* -1: this path ends here */
}

/* ---- Pruning ---- */

struct idmap {
    uint32_t old[64], new[64];
    int n;
};

static bool
same_id(struct idmap *m, uint32_t a, uint32_t b)
{
    if (!a || !b) {
        return a == b;
    }
    for (int i = 0; i < m->n; i++) {
        if (m->old[i] == a) {
            return m->new[i] == b;
        }
    }
    if (m->n == 64) {
        return false;
    }
    m->old[m->n] = a;
    m->new[m->n++] = b;
    return true;
}

/* Does 'old' (explored, safe) cover 'new' (everything 'new' can do, 'old'
 * could)? */
static bool
reg_covers(const struct vreg *old, const struct vreg *new, struct idmap *m)
{
    if (old->type == T_NOT_INIT) {
        return true;
    }
    if (old->type != new->type) {
        return false;
    }
    switch (old->type) {
    case T_SCALAR:
        if (!old->v.t.mask && !new->v.t.mask) {         /* both constants */
            /* the common case, quickly */
            return old->v.t.value == new->v.t.value;
        }
        return oko_scalar_covers(&old->v, &new->v)
               && (oko_scalar_is_const(&old->v)
                   || (same_id(m, old->id, new->id) && old->off == new->off));
    case T_LEN:
    case T_PKT_END:
        return old->off == new->off;
    case T_MAP:
        return old->map == new->map;
    case T_PKT:
        return old->off == new->off &&oko_scalar_covers(&old->v, &new->v)
               && new->range >= old->range &&same_id(m, old->id, new->id)
               && same_id(m, old->rel_id, new->rel_id)
               && old->rel_off == new->rel_off;
    case T_STACK:
        return old->off == new->off && oko_scalar_covers(&old->v, &new->v);
    case T_MAP_VALUE:
        return old->off == new->off
               && old->map == new->map &&oko_scalar_covers(&old->v, &new->v)
               && same_id(m, old->obj, new->obj);
    case T_MAP_VALUE_OR_NULL:
        return old->off == new->off
               && old->map == new->map &&same_id(m, old->id, new->id)
               && same_id(m, old->obj, new->obj);
    default:
        return false;
    }
}

static bool
state_covers(const struct stored_state *old, const struct vstate *new,
             uint16_t live)
{
    struct idmap m;
    /* (not zeroed whole: 0.5 KB per comparison) */
    m.n = 0;
    if (new->len_min < old->len_min || new->len_max > old->len_max) {
        return false;
    }
    for (int i = 0; i < N_REGS; i++) {
        if ((live & OKO_REG_BIT(i))
            && !reg_covers(&old->regs[i], &new->regs[i], &m)) {
            return false;
        }
    }
    for (int i = 0; i < old->n_facts; i++) {
        bool implied = false;
        for (int j = 0; j < new->n_facts && !implied; j++) {
            implied = new->facts[j].gap >= old->facts[i].gap
                      && same_id(&m, old->facts[i].id, new->facts[j].id);
        }
        if (!implied) {
            return false;
        }
    }
    /* Slot by slot: a slot is wholly S_SPILL or holds no S_SPILL byte. */
    /* index of the next spill in old->spill[] */
    int k = 0;
    for (int slot = 0; slot < STACK_SLOTS; slot++) {
        const uint8_t *ot = &old->stype[slot * 8], *nt = &new->stype[slot * 8];
        if (old->spilled & (UINT64_C(1) << slot)) {
            if (nt[0] != S_SPILL
                || !reg_covers(&old->spill[k++], &new->spill[slot], &m)) {
                return false;
            }
            continue;
        }
        uint64_t ow, nw;
        memcpy(&ow, ot, 8);
        memcpy(&nw, nt, 8);
        if (ow == nw) {
            /* the same invalid and plain bytes */
            continue;
        }
        bool new_pointer = nt[0] == S_SPILL && is_pointer(&new->spill[slot]);
        for (int b = 0; b < 8; b++) {
            /* A plain byte covers any byte but an invalid one or a pointer's.
             */
            if (ot[b] == S_MISC && (nt[b] == S_INVALID || new_pointer)) {
                return false;
            }
        }
    }
    return true;
}

/* At a join point: true if an explored state covers 's' (the path can
 * stop); otherwise remembers 's'. */
static bool
prune(struct verifier *v, const struct vstate *s)
{
    for (struct stored_state *st = v->seen[s->pc]; st; st = st->next) {
        /* A comparison reads up to the whole stored state: charged to the
         * budget, or paths that never join could make 32 comparisons per
         * instruction explored (each walking 64 spilled slots).  One unit
         * (about the registers and stack byte states, 1.6 KB) plus one per
         * 8 spilled slots it holds (0.8 KB): the budget bounds memory read. */
        v->compared++;
        v->compare_cost += 1 + __builtin_popcountll(st->spilled) / 8;
        if (work(v) > v->budget) {
            return false;                   /* explore() reports it */
        }
        if (state_covers(st, s, v->live[s->pc])) {
            v->pruned++;
            return true;
        }
    }
    if (v->n_seen[s->pc] < MAX_STATES_PER_INSN && v->n_stored < MAX_STATES) {
        uint64_t spilled = 0;
        for (int slot = 0; slot < STACK_SLOTS; slot++) {
            if (s->stype[slot * 8] == S_SPILL) {
                spilled |= UINT64_C(1) << slot;
            }
        }
        int n_spilled = __builtin_popcountll(spilled);
        struct stored_state *st
            = oko_arena_alloc(&v->stored,
                              sizeof *st + n_spilled * sizeof st->spill[0]);
        if (st) {
            memcpy(st->regs, s->regs, sizeof st->regs);
            memcpy(st->stype, s->stype, sizeof st->stype);
            st->len_min = s->len_min;
            st->len_max = s->len_max;
            memcpy(st->facts, s->facts, sizeof st->facts);
            st->n_facts = s->n_facts;
            st->spilled = spilled;
            for (int slot = 0, i = 0; slot < STACK_SLOTS; slot++) {
                if (spilled & (UINT64_C(1) << slot)) {
                    st->spill[i++] = s->spill[slot];
                }
            }
            st->next = v->seen[s->pc];
            v->seen[s->pc] = st;
            v->n_seen[s->pc]++;
            v->n_stored++;
        }
    }
    return false;
}

/* ---- Pass 2 ---- */

/* Executes the instruction at s->pc abstractly.  Returns 0 to continue at
 * the new s->pc, -1 when the path ends, or an error. */
static int
step(struct verifier *v, struct vstate *s)
{
    const struct oko_insn *insn = &v->insns[s->pc];
    int cls = insn->opcode & 0x07;
    int op = insn->opcode & 0xf0;
    int err;

    switch (cls) {
    case CLASS_LD: {
        struct vreg *r = &s->regs[insn->dst];
        if (insn->dst == FP) {
            return verr(v, s->pc, "r10 (the frame pointer) is read-only");
        }
        if (insn->src == OKO_PSEUDO_MAP_INDEX) {
            memset(r, 0, sizeof *r);
            r->type = T_MAP;
            r->map = insn->imm;
        } else {
            mark_const(r, (uint32_t) insn->imm
                              | (uint64_t) (uint32_t) insn[1].imm << 32);
        }
        s->pc += 2;
        return 0;
    }
    case CLASS_LDX:
        err = do_ldx(v, s, insn);
        break;
    case CLASS_ST:
        err = do_store(v, s, insn);
        break;
    case CLASS_STX:
        err = (insn->opcode & 0xe0) == MODE_ATOMIC ? do_atomic(v, s, insn)
                                                   : do_store(v, s, insn);
        break;
    case CLASS_ALU:
    case CLASS_ALU64:
        err = do_alu(v, s, insn);
        break;
    default:                                /* JMP, JMP32 */
        if (op == OP_EXIT) {
            const struct vreg *r0 = &s->regs[0];
            if (r0->type == T_NOT_INIT) {
                return verr(v, s->pc, "r0 (the verdict) is not set at exit");
            }
            if (!is_number(r0)) {
                return verr(v, s->pc,
                            "r0 holds %s at exit; a filter returns a number "
                            "(1 = match, 0 = no match)",
                            type_names[r0->type]);
            }
            return -1;
        }
        if (op == OP_CALL) {
            err = do_call(v, s, insn);
            break;
        }
        if (op == OP_JA) {
            s->pc += 1 + oko_isa_jump_delta(insn);
            return 0;
        }
        return do_cond_jump(v, s, insn);
    }
    if (!err) {
        s->pc++;
    }
    return err;
}

static int
explore(struct verifier *v)
{
    struct vstate *s = malloc(sizeof *s);
    if (!s) {
        return ENOMEM;
    }
    memset(s, 0, sizeof *s);
    s->regs[1].type = T_PKT;
    s->regs[2].type = T_LEN;
    s->regs[FP].type = T_STACK;
    s->len_min = v->min_len;
    s->len_max = v->min_len > OKO_MAX_PKT_LEN ? v->min_len : OKO_MAX_PKT_LEN;

    int err = 0;
    for (;;) {
        ++v->explored;
        if (work(v) > v->budget) {
            err = verr(v, s->pc,
                       "the program is too complex: more than %zu steps "
                       "(instructions "
                       "explored, states compared where paths join, copies "
                       "narrowed by "
                       "comparisons) over all its paths",
                       v->budget);
            break;
        }
        if (v->explored_insns) {
            v->explored_insns[s->pc] = 1;
        }
        int r = v->join[s->pc] >= 2 && prune(v, s) ? -1 : step(v, s);
        if (r > 0) {
            err = r;
            break;
        }
        if (r < 0) {
            if (!v->n_pending) {
                break;
            }
            *s = v->pending[--v->n_pending];
        }
    }
    free(s);
    return err;
}

int
oko_verify(const struct oko_program *prog,
           const struct oko_verify_options *opts,
           struct oko_verify_stats *stats, char error[OKO_ERROR_MAX])
{
    struct verifier v = {
        .prog = prog,
        .insns = prog->insns,
        .n = prog->n_insns,
        .error = error,
        .budget = opts && opts->budget ? opts->budget : OKO_VERIFY_BUDGET,
        .min_len = opts ? opts->min_len : 0,
        .explored_insns = opts ? opts->explored : NULL,
    };
    oko_arena_init(&v.stored, MAX_STORED_BYTES);
    int err = 0;
    error[0] = '\0';

    if (!prog->n_insns) {
        snprintf(error, OKO_ERROR_MAX, "the program has no instructions");
        return EINVAL;
    }
    if (v.min_len > OKO_MAX_MIN_LEN) {
        snprintf(error, OKO_ERROR_MAX,
                 "minimum packet length %" PRIu64 " is above %d", v.min_len,
                 OKO_MAX_MIN_LEN);
        return EINVAL;
    }
    if (prog->n_insns > OKO_MAX_INSNS) {
        snprintf(error, OKO_ERROR_MAX,
                 "program of %zu instructions; at most %d", prog->n_insns,
                 OKO_MAX_INSNS);
        return EINVAL;
    }
    v.join = calloc(v.n, 1);
    v.lddw_tail = calloc(v.n, 1);
    v.seen = calloc(v.n, sizeof *v.seen);
    v.n_seen = calloc(v.n, sizeof *v.n_seen);
    if (!v.join || !v.lddw_tail || !v.seen || !v.n_seen) {
        err = ENOMEM;
        goto out;
    }
    for (int pc = 0; pc < v.n; pc++) {
        if (v.insns[pc].opcode == LDDW_OPCODE && pc + 1 < v.n) {
            v.lddw_tail[++pc] = 1;
        }
    }
    for (int pc = 0; pc < v.n && !err; pc++) {
        if (v.lddw_tail[pc]) {
            continue;
        }
        err = check_encoding(&v, pc);
    }
    if (!err) {
        err = check_cfg(&v);
    }
    if (!err) {
        err = compute_liveness(&v);
    }
    if (!err) {
        err = explore(&v);
    }
out:
    if (err == ENOMEM && !error[0]) {
        snprintf(error, OKO_ERROR_MAX, "out of memory");
    }
    if (stats) {
        stats->explored = v.explored;
        stats->pruned = v.pruned;
        stats->stored = v.n_stored;
        stats->stored_bytes = v.stored.used;
        stats->compared = v.compared;
        stats->compare_cost = v.compare_cost;
        stats->narrowed = v.narrowed;
        stats->max_pending = v.max_depth;
    }
    oko_arena_destroy(&v.stored);
    free(v.join);
    free(v.lddw_tail);
    free(v.live);
    free(v.seen);
    free(v.n_seen);
    free(v.pending);
    return err;
}
