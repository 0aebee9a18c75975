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

/* Result folding (oko-fold.h): which packet bytes a program's verdict can
 * depend on.
 *
 * A dependency analysis over every path of the (loop-free, verified)
 * program.  Each register and stack slot holds one of: a known constant; a
 * number computed from constants and packet bytes, with the set of bytes it
 * may depend on; the length plus a constant; a pointer into the packet, to
 * its end (packet + length + constant) or into the stack, at a constant
 * offset.  A branch on numbers that may depend on packet bytes adds those
 * bytes to the verdict's dependencies and explores both sides; a branch on
 * the length must come out the same for every length from OKO_FOLD_MIN_LEN
 * up, and only that side is explored; the verdict (r0 at each exit) adds
 * its own bytes.  Anything else (a helper call, a map, a packet read at an
 * offset that is not constant, the length in arithmetic, ...) stops the
 * analysis with "no". */

#include "oko-fold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-isa.h"
#include "oko-verifier.h"

#define N_REGS 11
#define FP 10
#define STACK_BYTES 512
#define STACK_SLOTS (STACK_BYTES / 8)
#define MAX_K (1 << 20)             /* bound on offsets and length deltas */
#define MAX_STEPS (1 << 16)         /* instructions over all paths */
#define MAX_PENDING 256             /* branches waiting to be explored */
/* Pointers compare as these numbers: the offset above a base far from 0,
 * so that their order is the integers' order in every comparison. */
#define POINTER_BASE ((uint64_t) 1 << 40)

enum kind {
    K_NONE,                 /* not written on this path */
    K_CONST,                /* the number 'k' */
    K_DATA,                 /* a number that depends on packet bytes 'mask' */
    K_LEN,                  /* the packet's length + k */
    K_PKT,                  /* packet + k */
    K_END,                  /* packet + length + k */
    K_STACK,                /* frame pointer + k */
};

struct value {
    enum kind kind;
    uint64_t k;
    uint64_t mask;
};

enum { SLOT_NONE, SLOT_SPILL, SLOT_MISC };

/* 8 bytes of stack: a value stored whole, or bytes of constants and
 * packet-derived numbers written in parts (their dependencies in 'mask'). */
struct slot {
    int kind;
    struct value v;
    uint64_t mask;
};

struct path {
    int pc;
    struct value regs[N_REGS];
    struct slot slots[STACK_SLOTS];
};

struct folder {
    const struct oko_program *prog;
    struct oko_fold *out;
    struct path *pending;
    size_t n_pending;
    size_t steps;
};

/* Stops the analysis: 'prog' does not fold, because of instruction 'pc'. */
static int
no(struct folder *f, int pc, const char *why)
{
    f->out->foldable = false;
    f->out->why_pc = f->prog->origin ? (int) f->prog->origin[pc] : pc;
    f->out->why = why;
    return -1;
}

static struct value
constant(uint64_t k)
{
    return (struct value) { .kind = K_CONST, .k = k };
}

static struct value
data(uint64_t mask)
{
    return (struct value) { .kind = K_DATA, .mask = mask };
}

static bool
is_number(const struct value *v)
{
    return v->kind == K_CONST || v->kind == K_DATA;
}

static uint64_t
mask_of(const struct value *v)
{
    return v->kind == K_DATA ? v->mask : 0;
}

static bool
small(int64_t k)
{
    return k > -MAX_K && k < MAX_K;
}

/* 'size' bytes at 'off' from packet start, as a dependency mask. */
static bool
packet_bytes(int64_t off, int size, uint64_t *mask)
{
    if (off < 0 || off + size > OKO_FOLD_BYTES) {
        return false;
    }
    *mask = 0;
    for (int i = 0; i < size; i++) {
        *mask |= (uint64_t) 1 << (off + i);
    }
    return true;
}

static int
size_bytes(uint8_t opcode)
{
    switch (opcode & 0x18) {
    case SIZE_B: return 1;
    case SIZE_H: return 2;
    case SIZE_W: return 4;
    default: return 8;
    }
}

/* The stack slots that 'size' bytes at frame offset 'off' cover, in
 * [*first, *last]; false if outside the stack. */
static bool
stack_slots(int64_t off, int size, int *first, int *last)
{
    if (off < -STACK_BYTES || off + size > 0) {
        return false;
    }
    *first = (int) ((off + STACK_BYTES) / 8);
    *last = (int) ((off + STACK_BYTES + size - 1) / 8);
    return true;
}

static int
do_load(struct folder *f, struct path *p, const struct oko_insn *insn)
{
    const struct value *base = &p->regs[insn->src];
    int size = size_bytes(insn->opcode);
    struct value *dst = &p->regs[insn->dst];

    if (base->kind == K_PKT) {
        uint64_t mask;
        if (!packet_bytes((int64_t) base->k + insn->off, size, &mask)) {
            return no(f, p->pc, "it reads the packet beyond the first "
                      "64 bytes");
        }
        *dst = data(mask);
        return 0;
    }
    if (base->kind != K_STACK) {
        return no(f, p->pc, "it reads memory other than its packet and "
                  "stack");
    }

    int first, last;
    int64_t off = (int64_t) base->k + insn->off;
    if (!stack_slots(off, size, &first, &last)) {
        return no(f, p->pc, "it reads outside its stack");
    }
    const struct slot *s = &p->slots[first];
    if (size == 8 && first == last && s->kind == SLOT_SPILL
        && (insn->opcode & 0xe0) == MODE_MEM) {
        *dst = s->v;                    /* a whole value back */
        return 0;
    }
    uint64_t mask = 0;
    for (int i = first; i <= last; i++) {
        s = &p->slots[i];
        if (s->kind == SLOT_MISC) {
            mask |= s->mask;
        } else if (s->kind == SLOT_SPILL && is_number(&s->v)) {
            mask |= mask_of(&s->v);
        } else {
            return no(f, p->pc, "it reads part of a stored pointer or "
                      "length");
        }
    }
    *dst = data(mask);
    return 0;
}

static int
do_store(struct folder *f, struct path *p, const struct oko_insn *insn)
{
    const struct value *base = &p->regs[insn->dst];
    int size = size_bytes(insn->opcode);
    struct value v = (insn->opcode & 0x07) == CLASS_ST
                     ? constant((uint64_t) (int64_t) insn->imm)
                     : p->regs[insn->src];

    if ((insn->opcode & 0xe0) != MODE_MEM) {
        return no(f, p->pc, "it uses an atomic operation");
    }
    if (base->kind != K_STACK) {
        return no(f, p->pc, "it writes memory other than its stack");
    }
    int first, last;
    int64_t off = (int64_t) base->k + insn->off;
    if (!stack_slots(off, size, &first, &last)) {
        return no(f, p->pc, "it writes outside its stack");
    }
    if (size == 8 && first == last && (off % 8) == 0) {
        p->slots[first] = (struct slot) { .kind = SLOT_SPILL, .v = v };
        return 0;
    }
    if (!is_number(&v)) {
        return no(f, p->pc, "it stores part of a pointer or length");
    }
    for (int i = first; i <= last; i++) {
        struct slot *s = &p->slots[i];
        uint64_t mask = mask_of(&v);
        if (s->kind == SLOT_SPILL) {
            if (!is_number(&s->v)) {
                return no(f, p->pc, "it overwrites part of a stored "
                          "pointer or length");
            }
            mask |= mask_of(&s->v);
        } else if (s->kind == SLOT_MISC) {
            mask |= s->mask;
        }
        *s = (struct slot) { .kind = SLOT_MISC, .mask = mask };
    }
    return 0;
}

/* dst = dst + src or dst - src ('sub') where a pointer or the length is
 * involved: the sums and differences whose result is still one of the
 * forms above.  Returns false for any other. */
static bool
offset_arith(struct value *dst, const struct value *src, bool sub)
{
    enum kind a = dst->kind, b = src->kind;
    int64_t ka = (int64_t) dst->k, kb = (int64_t) src->k;
    struct value r;

    if (!small(ka) || !small(kb)) {
        return false;
    }
    if (!sub) {
        if (b == K_CONST && (a == K_PKT || a == K_END || a == K_STACK
                             || a == K_LEN)) {
            r = (struct value) { .kind = a, .k = ka + kb };
        } else if (a == K_CONST && (b == K_PKT || b == K_END || b == K_STACK
                                    || b == K_LEN)) {
            r = (struct value) { .kind = b, .k = ka + kb };
        } else if ((a == K_PKT && b == K_LEN) || (a == K_LEN && b == K_PKT)) {
            r = (struct value) { .kind = K_END, .k = ka + kb };
        } else {
            return false;
        }
    } else {
        if (b == K_CONST && (a == K_PKT || a == K_END || a == K_STACK
                             || a == K_LEN)) {
            r = (struct value) { .kind = a, .k = ka - kb };
        } else if (a == b && a != K_CONST) {
            r = constant(ka - kb);      /* (x + ka) - (x + kb) */
        } else if (a == K_END && b == K_PKT) {
            r = (struct value) { .kind = K_LEN, .k = ka - kb };
        } else {
            return false;
        }
    }
    if (r.kind != K_CONST && !small((int64_t) r.k)) {
        return false;
    }
    *dst = r;
    return true;
}

static int
do_alu(struct folder *f, struct path *p, const struct oko_insn *insn)
{
    bool is64 = (insn->opcode & 0x07) == CLASS_ALU64;
    int op = insn->opcode & 0xf0;
    struct value *dst = &p->regs[insn->dst];
    struct value src = (insn->opcode & SRC_X) && op != OP_END
                       ? p->regs[insn->src]
                       : constant((uint64_t) (int64_t) insn->imm);

    if (op == 0xb0) {                               /* mov */
        if (is64 && insn->off == 0) {
            *dst = src;
        } else if (src.kind == K_CONST) {
            *dst = constant(oko_isa_alu(op, insn->off, is64, 0, src.k));
        } else if (src.kind == K_DATA) {
            *dst = src;
        } else if (src.kind == K_LEN && !is64 && insn->off == 0
                   && (int64_t) src.k >= -OKO_FOLD_MIN_LEN
                   && (int64_t) src.k < MAX_K) {
            /* len + k is below 2^31 and, from OKO_FOLD_MIN_LEN up, not
             * negative: its low 32 bits are itself. */
            f->out->uses_len = true;
            *dst = src;
        } else {
            return no(f, p->pc, "it truncates a pointer or the length");
        }
        return 0;
    }
    if (is64 && (op == 0x00 || op == 0x10)
        && !(is_number(dst) && is_number(&src))) {
        if (!offset_arith(dst, &src, op == 0x10)) {
            return no(f, p->pc, "it computes with a pointer or the length "
                      "beyond adding constants");
        }
        return 0;
    }
    if (!is_number(dst) || !is_number(&src)) {
        return no(f, p->pc, "it computes with a pointer or the length "
                  "beyond adding constants");
    }
    if (op == OP_END) {
        if (dst->kind == K_CONST) {     /* as the interpreter does it */
            *dst = constant(oko_isa_endian(is64 || (insn->opcode & SRC_X),
                                           insn->imm, dst->k));
        }
    } else if (dst->kind == K_CONST && (src.kind == K_CONST || op == 0x80)) {
        *dst = constant(oko_isa_alu(op, insn->off, is64, dst->k, src.k));
    } else {
        *dst = data(mask_of(dst) | (op == 0x80 ? 0 : mask_of(&src)));
    }
    return 0;
}

/* The number a value of kind K_CONST, K_LEN, K_PKT or K_END is when the
 * packet is 'len' bytes long. */
static uint64_t
value_at(const struct value *v, uint64_t len)
{
    switch (v->kind) {
    case K_CONST: return v->k;
    case K_LEN: return len + v->k;
    case K_PKT: return POINTER_BASE + v->k;
    case K_END: return POINTER_BASE + len + v->k;
    case K_NONE:
    case K_DATA:
    case K_STACK:
    default: return 0;
    }
}

/* Whether the branch on 'a' and 'b' is taken the same way for every length
 * from OKO_FOLD_MIN_LEN to OKO_MAX_PKT_LEN: 1 or 0 if so, -1 if not or if
 * that cannot be shown.  Each side is a constant, the length plus a
 * constant, or a pointer into the packet or to its end; at least one side
 * uses the length. */
static int
length_branch(int op, bool is64, const struct value *a,
              const struct value *b)
{
    bool a_ptr = a->kind == K_PKT || a->kind == K_END;
    bool b_ptr = b->kind == K_PKT || b->kind == K_END;

    if (a_ptr != b_ptr || (a_ptr && !is64) || op == 0x40 /* jset */) {
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        const struct value *v = i ? b : a;
        if (v->kind == K_LEN || v->kind == K_END) {
            /* len + k from OKO_FOLD_MIN_LEN up: not negative and below
             * 2^31, so that both orders (signed, unsigned) and both widths
             * see the same numbers in the same order. */
            if ((int64_t) v->k < -OKO_FOLD_MIN_LEN
                || (int64_t) v->k >= MAX_K) {
                return -1;
            }
        }
    }

    /* Each side is len + constant or a constant, so every comparison is
     * monotonic in len over the range: decided iff both ends agree.
     * Equality also needs the constant side outside the other's range. */
    uint64_t lo = OKO_FOLD_MIN_LEN, hi = OKO_MAX_PKT_LEN;
    int at_lo = oko_isa_jump_taken(op, is64, value_at(a, lo),
                                   value_at(b, lo));
    int at_hi = oko_isa_jump_taken(op, is64, value_at(a, hi),
                                   value_at(b, hi));
    if (at_lo != at_hi) {
        return -1;
    }
    bool a_len = a->kind == K_LEN || a->kind == K_END;
    bool b_len = b->kind == K_LEN || b->kind == K_END;
    if ((op == 0x10 || op == 0x50) && a_len != b_len) {
        const struct value *fixed = a_len ? b : a;
        const struct value *moving = a_len ? a : b;
        uint64_t c = value_at(fixed, 0);
        uint64_t from = value_at(moving, lo), to = value_at(moving, hi);
        if (!is64) {
            c = (uint32_t) c;
        }
        if (c >= from && c <= to) {
            return -1;
        }
    }
    return at_lo;
}

/* Pushes a copy of 'p' continuing at 'pc'. */
static int
fork_path(struct folder *f, const struct path *p, int pc)
{
    if (f->n_pending >= MAX_PENDING) {
        return no(f, p->pc, "it has too many paths to analyse");
    }
    f->pending[f->n_pending] = *p;
    f->pending[f->n_pending].pc = pc;
    f->n_pending++;
    return 0;
}

static int
do_jump(struct folder *f, struct path *p, const struct oko_insn *insn)
{
    bool is64 = (insn->opcode & 0x07) == CLASS_JMP;
    int op = insn->opcode & 0xf0;
    int target = p->pc + 1 + oko_isa_jump_delta(insn);

    if (op == OP_JA) {
        p->pc = target;
        return 0;
    }
    if (op == OP_CALL) {
        return no(f, p->pc, "it calls a helper");
    }
    if (op == OP_EXIT) {
        const struct value *r0 = &p->regs[0];
        if (!is_number(r0)) {
            return no(f, p->pc, "it returns a pointer or the length");
        }
        f->out->depends |= mask_of(r0);
        return 1;
    }

    const struct value *a = &p->regs[insn->dst];
    struct value b = (insn->opcode & SRC_X)
                     ? p->regs[insn->src]
                     : constant((uint64_t) (int64_t) insn->imm);
    int taken;
    if (a->kind == K_CONST && b.kind == K_CONST) {
        taken = oko_isa_jump_taken(op, is64, a->k, b.k);
    } else if (is_number(a) && is_number(&b)) {
        /* Depends on packet bytes: both ways. */
        f->out->depends |= mask_of(a) | mask_of(&b);
        if (fork_path(f, p, target)) {
            return -1;
        }
        p->pc++;
        return 0;
    } else if (a->kind == K_PKT && b.kind == K_PKT && is64 && op != 0x40) {
        taken = oko_isa_jump_taken(op, true, value_at(a, 0),
                                   value_at(&b, 0));
    } else {
        bool len_or_ptr = true;
        for (int i = 0; i < 2; i++) {
            enum kind k = i ? b.kind : a->kind;
            len_or_ptr &= k == K_CONST || k == K_LEN || k == K_PKT
                          || k == K_END;
        }
        if (!len_or_ptr) {
            return no(f, p->pc, "it compares a pointer or the length with "
                      "packet data or the stack");
        }
        taken = length_branch(op, is64, a, &b);
        if (taken < 0) {
            return no(f, p->pc, "a branch on the packet's length goes both "
                      "ways for packets of 14 bytes or more");
        }
        f->out->uses_len = true;
    }
    p->pc = taken ? target : p->pc + 1;
    return 0;
}

/* Runs one path to its end: 0, or -1 if the program does not fold. */
static int
explore_path(struct folder *f, struct path *p)
{
    const struct oko_program *prog = f->prog;

    for (;;) {
        if (p->pc < 0 || (size_t) p->pc >= prog->n_insns) {
            return no(f, 0, "a path leaves the program");
        }
        if (++f->steps > MAX_STEPS) {
            return no(f, p->pc, "it has too many paths to analyse");
        }
        const struct oko_insn *insn = &prog->insns[p->pc];
        int r;

        switch (insn->opcode & 0x07) {
        case CLASS_LD:
            if (insn->opcode != LDDW_OPCODE
                || (size_t) p->pc + 1 >= prog->n_insns) {
                return no(f, p->pc, "it uses a legacy packet load");
            }
            if (insn->src != 0) {
                return no(f, p->pc, "it uses a map");
            }
            p->regs[insn->dst] = constant((uint32_t) insn->imm
                                          | (uint64_t) (uint32_t)
                                            prog->insns[p->pc + 1].imm
                                            << 32);
            p->pc += 2;
            continue;
        case CLASS_LDX:
            r = do_load(f, p, insn);
            break;
        case CLASS_ST:
        case CLASS_STX:
            r = do_store(f, p, insn);
            break;
        case CLASS_ALU:
        case CLASS_ALU64:
            r = do_alu(f, p, insn);
            break;
        case CLASS_JMP:
        case CLASS_JMP32:
            r = do_jump(f, p, insn);
            if (r) {
                return r > 0 ? 0 : -1;
            }
            continue;                   /* it set pc */
        default:
            return no(f, p->pc, "it uses an unknown instruction");
        }
        if (r) {
            return -1;
        }
        p->pc++;
    }
}

void
oko_fold_analyse(const struct oko_program *prog, struct oko_fold *out)
{
    struct folder f = { .prog = prog, .out = out };

    *out = (struct oko_fold) { .foldable = true };
    f.pending = malloc(MAX_PENDING * sizeof *f.pending);
    if (!f.pending) {
        no(&f, 0, "out of memory");
        return;
    }
    /* State first, wherever it is: the plainest reason for a person. */
    for (size_t pc = 0; pc < prog->n_insns; pc++) {
        const struct oko_insn *insn = &prog->insns[pc];
        if (insn->opcode == LDDW_OPCODE && insn->src != 0) {
            no(&f, (int) pc, "it uses a map");
        } else if (insn->opcode == (CLASS_JMP | OP_CALL)) {
            no(&f, (int) pc, "it calls a helper");
        } else {
            continue;
        }
        free(f.pending);
        return;
    }

    struct path *start = &f.pending[f.n_pending++];
    memset(start, 0, sizeof *start);
    start->regs[1] = (struct value) { .kind = K_PKT };
    start->regs[2] = (struct value) { .kind = K_LEN };
    start->regs[FP] = (struct value) { .kind = K_STACK };

    struct path *p = malloc(sizeof *p);
    if (!p) {
        no(&f, 0, "out of memory");
    }
    while (p && f.n_pending && out->foldable) {
        *p = f.pending[--f.n_pending];
        if (explore_path(&f, p)) {
            break;
        }
    }
    if (!out->foldable) {
        out->uses_len = false;
        out->depends = 0;
    }
    free(p);
    free(f.pending);
}

void
oko_fold_format(const struct oko_fold *fold, char *buf, size_t size)
{
    size_t n = 0;

#define APPEND(...)                                                       \
    do {                                                                  \
        int len_ = snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__); \
        n += len_ > 0 ? (size_t) len_ : 0;                                \
    } while (0)

    if (!fold->foldable) {
        APPEND("does not fold: insn %d: %s", fold->why_pc, fold->why);
        return;
    }
    if (!fold->depends) {
        APPEND("folds: on no packet byte");
    } else {
        APPEND("folds: on byte%s ", fold->depends & (fold->depends - 1)
                                    ? "s" : "");
        const char *sep = "";
        for (int i = 0; i < OKO_FOLD_BYTES; i++) {
            if (!(fold->depends >> i & 1)) {
                continue;
            }
            int j = i;
            while (j + 1 < OKO_FOLD_BYTES && fold->depends >> (j + 1) & 1) {
                j++;
            }
            APPEND(j > i ? "%s%d-%d" : "%s%d", sep, i, j);
            sep = ",";
            i = j;
        }
    }
    if (fold->uses_len) {
        APPEND(", for packets of %d bytes or more", OKO_FOLD_MIN_LEN);
    }
#undef APPEND
}
