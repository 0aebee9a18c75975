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
/* x86-64 JIT.
 *
 * Register mapping (System V: r1-r5 land exactly where a helper call wants
 * its arguments, r6-r9 and the frame pointer in callee-saved registers):
 *
 *     BPF   r0  r1  r2  r3  r4  r5  r6  r7  r8  r9  r10
 *     x86   rax rdi rsi rdx rcx r8  rbx r13 r14 r15 rbp
 *
 * r9, r10, r11 and r12 are scratch (r12, for division, is saved).  The
 * prologue saves only the callee-saved registers the program touches and,
 * only if the program uses r10, sets rbp to the caller's third argument:
 * the top of the thread's guarded program stack (oko-stack.h), never a
 * frame on the native stack, where the return address is.
 *
 * Every jump is emitted with a 32-bit displacement, so each instruction's
 * size does not depend on where its target is: a first pass records the
 * offsets, a second emits the same bytes with the right displacements.
 *
 * The code is mapped within reach of a 32-bit displacement from the
 * runtime's own text, below it (map_near_text()), as a kernel keeps its BPF
 * JIT images near its text: a helper call is then a direct "call rel32"
 * (5 bytes, predicted like any direct call) instead of a 10-byte movabs and
 * an indirect call, each with its own slot in the indirect branch predictor
 * that every program in the switch competes for.  Where no such address is
 * free the code goes anywhere and calls helpers through a register.
 *
 * Semantics the hardware does not give for free, as RFC 9669 defines them:
 * division by zero (0, or the dividend for modulo), INT_MIN / -1 (no trap),
 * zero extension of 32-bit cmpxchg results. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE                     /* dladdr(), MAP_FIXED_NOREPLACE */
#endif
#include "oko-jit.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "oko-helpers.h"
#include "oko-isa.h"
#include "oko-verifier.h"

#if defined(__x86_64__)

enum {
    RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSP = 4, RBP = 5, RSI = 6, RDI = 7,
    R8 = 8, R9 = 9, R10 = 10, R11 = 11, R12 = 12, R13 = 13, R14 = 14, R15 = 15,
};

static const uint8_t reg_map[11] = {
    RAX, RDI, RSI, RDX, RCX, R8, RBX, R13, R14, R15, RBP,
};

/* keeps rsp 16-byte aligned at calls */
#define FRAME_PAD 8

struct jit_state {
    uint8_t *buf;
    size_t size, cap;
    size_t *insn_offset;                /* native offset of each instruction */
    size_t exit_offset;                 /* the epilogue */
    bool final;                         /* second pass: offsets known */
    bool near;                          /* helpers within a rel32 call */
    bool out_of_reach;                  /* a helper was not, after all */
};

static void
emit_bytes(struct jit_state *s, const void *bytes, size_t n)
{
    if (s->size + n <= s->cap) {
        memcpy(s->buf + s->size, bytes, n);
    }
    s->size += n;
}

static void
emit1(struct jit_state *s, uint8_t b)
{
    emit_bytes(s, &b, 1);
}

static void
emit4(struct jit_state *s, uint32_t v)
{
    emit_bytes(s, &v, 4);
}

static void
emit8(struct jit_state *s, uint64_t v)
{
    emit_bytes(s, &v, 8);
}

/* REX prefix: W (64-bit operand), R (extends ModRM.reg), B (extends
 * ModRM.rm or the base).  'force' emits it even when empty (byte
 * registers sil/dil/bpl/spl). */
static void
emit_rex(struct jit_state *s, bool w, int reg, int rm, bool force)
{
    uint8_t rex = 0x40 | (w ? 8 : 0) | (reg & 8 ? 4 : 0) | (rm & 8 ? 1 : 0);
    if (rex != 0x40 || force) {
        emit1(s, rex);
    }
}

/* ModRM with a register operand. */
static void
emit_modrm_reg(struct jit_state *s, int reg, int rm)
{
    emit1(s, 0xc0 | (reg & 7) << 3 | (rm & 7));
}

/* ModRM (+SIB, +displacement) for [base + disp]. */
static void
emit_modrm_mem(struct jit_state *s, int reg, int base, int32_t disp)
{
    int mod = disp == 0 && (base & 7) != RBP ? 0
              : disp >= -128 && disp <= 127  ? 1
                                             : 2;
    emit1(s, mod << 6 | (reg & 7) << 3 | (base & 7));
    if ((base & 7) == RSP) {
        emit1(s, 0x24);                 /* SIB: base only */
    }
    if (mod == 1) {
        emit1(s, (uint8_t) disp);
    } else if (mod == 2) {
        emit4(s, disp);
    }
}

/* op r/m, reg (register form), e.g. 0x01 add, 0x89 mov. */
static void
emit_alu_rr(struct jit_state *s, bool w, uint8_t opcode, int src, int dst)
{
    emit_rex(s, w, src, dst, false);
    emit1(s, opcode);
    emit_modrm_reg(s, src, dst);
}

/* 0x81 /ext r/m, imm32 (sign-extended in 64-bit mode). */
static void
emit_alu_ri(struct jit_state *s, bool w, int ext, int dst, int32_t imm)
{
    emit_rex(s, w, 0, dst, false);
    emit1(s, 0x81);
    emit_modrm_reg(s, ext, dst);
    emit4(s, imm);
}

static void
emit_mov_rr(struct jit_state *s, bool w, int src, int dst)
{
    emit_alu_rr(s, w, 0x89, src, dst);
}

/* dst = imm (64-bit: sign-extended imm32; 32-bit: zero-extended). */
static void
emit_mov_ri(struct jit_state *s, bool w, int dst, int32_t imm)
{
    if (w) {
        emit_rex(s, true, 0, dst, false);
        emit1(s, 0xc7);
        emit_modrm_reg(s, 0, dst);
        emit4(s, imm);
    } else {
        emit_rex(s, false, 0, dst, false);
        emit1(s, 0xb8 + (dst & 7));
        emit4(s, imm);
    }
}

static void
emit_mov_imm64(struct jit_state *s, int dst, uint64_t imm)
{
    emit_rex(s, true, 0, dst, false);
    emit1(s, 0xb8 + (dst & 7));
    emit8(s, imm);
}

/* jcc rel32 / jmp rel32 to native offset 'target' (pass 2). */
static void
emit_jcc(struct jit_state *s, uint8_t cc, size_t target)
{
    emit1(s, 0x0f);
    emit1(s, cc);
    emit4(s, s->final ? (uint32_t) (target - (s->size + 4)) : 0);
}

static void
emit_jmp(struct jit_state *s, size_t target)
{
    emit1(s, 0xe9);
    emit4(s, s->final ? (uint32_t) (target - (s->size + 4)) : 0);
}

/* A call to a helper: "call rel32" when the code lies near the helpers,
 * otherwise through rax (a scratch register: the call's result lands
 * there anyway). */
static void
emit_call(struct jit_state *s, uintptr_t helper)
{
    if (s->near) {
        emit1(s, 0xe8);
        intptr_t rel
            = s->final
                  ? (intptr_t) (helper - ((uintptr_t) s->buf + s->size + 4))
                  : 0;
        if (rel != (int32_t) rel) {
            s->out_of_reach = true;
        }
        emit4(s, (uint32_t) rel);
    } else {
        emit_mov_imm64(s, RAX, helper);
        emit1(s, 0xff);
        emit_modrm_reg(s, 2, RAX);                  /* call rax */
    }
}

/* A forward jump within the code of one instruction: returns the offset
 * of its displacement, patched by patch_here(). */
static size_t
emit_jcc_fwd(struct jit_state *s, uint8_t cc)
{
    if (cc) {
        emit1(s, 0x0f);
        emit1(s, cc);
    } else {
        emit1(s, 0xe9);
    }
    emit4(s, 0);
    return s->size - 4;
}

static void
patch_here(struct jit_state *s, size_t disp_offset)
{
    uint32_t rel = s->size - (disp_offset + 4);
    if (disp_offset + 4 <= s->cap) {
        memcpy(s->buf + disp_offset, &rel, 4);
    }
}

enum {
    CC_E = 0x84,
    CC_NE = 0x85,
    CC_B = 0x82,
    CC_AE = 0x83,
    CC_BE = 0x86,
    CC_A = 0x87,
    CC_L = 0x8c,
    CC_GE = 0x8d,
    CC_LE = 0x8e,
    CC_G = 0x8f
};

/* ---- Instructions ---- */

/* The x86 opcode (register form, op r/m, reg) and 0x81 extension of the
 * simple two-operand ALU operations. */
static bool
simple_alu(int op, uint8_t *opcode, int *ext)
{
    switch (op) {
    case 0x00: *opcode = 0x01; *ext = 0; return true;       /* add */
    case 0x10: *opcode = 0x29; *ext = 5; return true;       /* sub */
    case 0x40: *opcode = 0x09; *ext = 1; return true;       /* or */
    case 0x50: *opcode = 0x21; *ext = 4; return true;       /* and */
    case 0xa0: *opcode = 0x31; *ext = 6; return true;       /* xor */
    default: return false;
    }
}

static void
emit_shift(struct jit_state *s, bool w, int op, int dst,
           const struct oko_insn *insn)
{
    int ext = op == 0x60 ? 4 : op == 0x70 ? 5 : 7;          /* shl, shr, sar */
    if (!(insn->opcode & SRC_X)) {
        emit_rex(s, w, 0, dst, false);
        emit1(s, 0xc1);
        emit_modrm_reg(s, ext, dst);
        emit1(s, insn->imm & (w ? 63 : 31));
        return;
    }
    /* The count must be in cl, which is BPF r4: save rcx in r9, shift
     * (rcx's own value, if it is the destination, via r9), restore. */
    int src = reg_map[insn->src];
    emit_mov_rr(s, true, src, R11);
    emit_mov_rr(s, true, RCX, R9);
    emit_mov_rr(s, true, R11, RCX);
    int target = dst == RCX ? R9 : dst;
    emit_rex(s, w, 0, target, false);
    emit1(s, 0xd3);
    emit_modrm_reg(s, ext, target);
    emit_mov_rr(s, true, R9, RCX);
}

/* div/mod (signed when off == 1) with RFC 9669's answers for 0 and -1. */
static void
emit_divmod(struct jit_state *s, bool w, int op, int dst,
            const struct oko_insn *insn)
{
    bool is_mod = op == 0x90;
    bool is_signed = insn->off == 1;
    if (insn->opcode & SRC_X) {
        emit_mov_rr(s, true, reg_map[insn->src], R11);
    } else {
        emit_mov_ri(s, w, R11, insn->imm);
    }
    /* test r11, r11; jnz nonzero */
    emit_alu_rr(s, w, 0x85, R11, R11);
    size_t nonzero = emit_jcc_fwd(s, CC_NE);
    if (is_mod) {
        if (!w) {
            /* zero-extend the dividend */
            emit_mov_rr(s, false, dst, dst);
        }
    } else {
        emit_alu_rr(s, false, 0x31, dst, dst);      /* xor: 0 */
    }
    size_t done1 = emit_jcc_fwd(s, 0);
    patch_here(s, nonzero);
    size_t done2 = 0;
    if (is_signed) {
        /* cmp r11, -1; jne normal: x / -1 = -x, x % -1 = 0 (no #DE on
         * INT_MIN). */
        emit_rex(s, w, 0, R11, false);
        emit1(s, 0x83);
        emit_modrm_reg(s, 7, R11);
        emit1(s, 0xff);
        size_t normal = emit_jcc_fwd(s, CC_NE);
        if (is_mod) {
            emit_alu_rr(s, false, 0x31, dst, dst);
        } else {
            emit_rex(s, w, 0, dst, false);
            emit1(s, 0xf7);
            emit_modrm_reg(s, 3, dst);               /* neg */
        }
        done2 = emit_jcc_fwd(s, 0);
        patch_here(s, normal);
    }
    /* rax and rdx are BPF r0 and r3: keep them in r9 and r12. */
    emit_mov_rr(s, true, RAX, R9);
    emit_mov_rr(s, true, RDX, R12);
    emit_mov_rr(s, true, dst, RAX);
    if (is_signed) {
        if (w) {
            emit1(s, 0x48);
        }
        emit1(s, 0x99);                             /* cqo / cdq */
    } else {
        emit_alu_rr(s, false, 0x31, RDX, RDX);
    }
    emit_rex(s, w, 0, R11, false);
    emit1(s, 0xf7);
    emit_modrm_reg(s, is_signed ? 7 : 6, R11);       /* idiv / div r11 */
    emit_mov_rr(s, true, is_mod ? RDX : RAX, R10);
    emit_mov_rr(s, true, R9, RAX);
    emit_mov_rr(s, true, R12, RDX);
    emit_mov_rr(s, w, R10, dst);
    patch_here(s, done1);
    if (is_signed) {
        patch_here(s, done2);
    }
}

static void
emit_alu(struct jit_state *s, const struct oko_insn *insn)
{
    bool w = (insn->opcode & 0x07) == CLASS_ALU64;
    int op = insn->opcode & 0xf0;
    bool x = insn->opcode & SRC_X;
    int dst = reg_map[insn->dst];
    uint8_t opcode;
    int ext;

    if (simple_alu(op, &opcode, &ext)) {
        if (x) {
            emit_alu_rr(s, w, opcode, reg_map[insn->src], dst);
        } else {
            emit_alu_ri(s, w, ext, dst, insn->imm);
        }
        return;
    }
    switch (op) {
    case 0xb0:                                      /* mov, movsx */
        if (x && insn->off) {
            int src = reg_map[insn->src];
            if (insn->off == 32) {
                emit_rex(s, true, dst, src, false);
                emit1(s, 0x63);                     /* movsxd */
            } else {
                emit_rex(s, w, dst, src, insn->off == 8);
                emit1(s, 0x0f);
                emit1(s, insn->off == 8 ? 0xbe : 0xbf);
            }
            emit_modrm_reg(s, dst, src);
        } else if (x) {
            emit_mov_rr(s, w, reg_map[insn->src], dst);
        } else {
            emit_mov_ri(s, w, dst, insn->imm);
        }
        return;
    case 0x20:                                      /* mul: imul */
        if (x) {
            emit_rex(s, w, dst, reg_map[insn->src], false);
            emit1(s, 0x0f);
            emit1(s, 0xaf);
            emit_modrm_reg(s, dst, reg_map[insn->src]);
        } else {
            emit_rex(s, w, dst, dst, false);
            emit1(s, 0x69);
            emit_modrm_reg(s, dst, dst);
            emit4(s, insn->imm);
        }
        return;
    case 0x80:                                      /* neg */
        emit_rex(s, w, 0, dst, false);
        emit1(s, 0xf7);
        emit_modrm_reg(s, 3, dst);
        return;
    case 0x60: case 0x70: case 0xc0:
        emit_shift(s, w, op, dst, insn);
        return;
    case 0x30: case 0x90:
        emit_divmod(s, w, op, dst, insn);
        return;
    case OP_END: {
        bool swap = w || x;
        /* to little endian: truncate */
        if (!swap) {
            if (insn->imm == 16) {
                emit_rex(s, false, dst, dst, false);
                emit1(s, 0x0f);
                emit1(s, 0xb7);                     /* movzx r32, r16 */
                emit_modrm_reg(s, dst, dst);
            } else if (insn->imm == 32) {
                emit_mov_rr(s, false, dst, dst);
            }
            return;
        }
        if (insn->imm == 16) {
            emit1(s, 0x66);                         /* rol r16, 8 */
            emit_rex(s, false, 0, dst, false);
            emit1(s, 0xc1);
            emit_modrm_reg(s, 0, dst);
            emit1(s, 8);
            emit_rex(s, false, dst, dst, false);
            emit1(s, 0x0f);
            emit1(s, 0xb7);
            emit_modrm_reg(s, dst, dst);
        } else {
            emit_rex(s, insn->imm == 64, 0, dst, false);
            emit1(s, 0x0f);
            emit1(s, 0xc8 + (dst & 7));             /* bswap */
        }
        return;
    }
    }
}

static void
emit_ldx(struct jit_state *s, const struct oko_insn *insn)
{
    int dst = reg_map[insn->dst], base = reg_map[insn->src];
    bool sx = (insn->opcode & 0xe0) == MODE_MEMSX;
    switch (insn->opcode & 0x18) {
    case SIZE_B:
        emit_rex(s, sx, dst, base, false);
        emit1(s, 0x0f);
        emit1(s, sx ? 0xbe : 0xb6);
        break;
    case SIZE_H:
        emit_rex(s, sx, dst, base, false);
        emit1(s, 0x0f);
        emit1(s, sx ? 0xbf : 0xb7);
        break;
    case SIZE_W:
        emit_rex(s, sx, dst, base, false);
        emit1(s, sx ? 0x63 : 0x8b);
        break;
    default:
        emit_rex(s, true, dst, base, false);
        emit1(s, 0x8b);
        break;
    }
    emit_modrm_mem(s, dst, base, insn->off);
}

static void
emit_store(struct jit_state *s, const struct oko_insn *insn)
{
    int base = reg_map[insn->dst];
    int size = insn->opcode & 0x18;
    bool imm = (insn->opcode & 0x07) == CLASS_ST;
    int src = imm ? 0 : reg_map[insn->src];
    if (size == SIZE_H) {
        emit1(s, 0x66);
    }
    emit_rex(s, size == SIZE_DW, src, base, size == SIZE_B && !imm);
    if (imm) {
        emit1(s, size == SIZE_B ? 0xc6 : 0xc7);
        emit_modrm_mem(s, 0, base, insn->off);
        if (size == SIZE_B) {
            emit1(s, insn->imm);
        } else if (size == SIZE_H) {
            uint16_t v = insn->imm;
            emit_bytes(s, &v, 2);
        } else {
            emit4(s, insn->imm);
        }
    } else {
        emit1(s, size == SIZE_B ? 0x88 : 0x89);
        emit_modrm_mem(s, src, base, insn->off);
    }
}

static void
emit_atomic(struct jit_state *s, const struct oko_insn *insn)
{
    bool w = (insn->opcode & 0x18) == SIZE_DW;
    int src = reg_map[insn->src];
    int op = insn->imm;

    /* r10 = address (the base may be rax, which cmpxchg uses). */
    emit_rex(s, true, R10, reg_map[insn->dst], false);
    emit1(s, 0x8d);                                 /* lea */
    emit_modrm_mem(s, R10, reg_map[insn->dst], insn->off);

    if (op == ATOMIC_CMPXCHG) {
        emit1(s, 0xf0);
        emit_rex(s, w, src, R10, false);
        emit1(s, 0x0f);
        emit1(s, 0xb1);
        emit_modrm_mem(s, src, R10, 0);
        if (!w) {
            emit_mov_rr(s, false, RAX, RAX);        /* r0 is zero-extended */
        }
        return;
    }
    if (op == ATOMIC_XCHG) {
        emit_rex(s, w, src, R10, false);
        emit1(s, 0x87);
        emit_modrm_mem(s, src, R10, 0);
        return;
    }
    if (op == (ATOMIC_ADD | ATOMIC_FETCH)) {
        emit1(s, 0xf0);
        emit_rex(s, w, src, R10, false);
        emit1(s, 0x0f);
        emit1(s, 0xc1);                             /* xadd */
        emit_modrm_mem(s, src, R10, 0);
        return;
    }
    uint8_t opcode = 0x01;
    int ext = 0;
    simple_alu(op & ~ATOMIC_FETCH, &opcode, &ext);
    if (!(op & ATOMIC_FETCH)) {
        emit1(s, 0xf0);
        emit_rex(s, w, src, R10, false);
        emit1(s, opcode);
        emit_modrm_mem(s, src, R10, 0);
        return;
    }
    /* Fetching or/and/xor: a cmpxchg loop in rax (saved in r9). */
    int operand = src == RAX ? R9 : src;
    emit_mov_rr(s, true, RAX, R9);
    size_t loop = s->size;
    emit_rex(s, w, RAX, R10, false);
    emit1(s, 0x8b);
    emit_modrm_mem(s, RAX, R10, 0);                 /* rax = [r10] */
    emit_mov_rr(s, true, RAX, R11);
    emit_alu_rr(s, w, opcode, operand, R11);        /* r11 = old op src */
    emit1(s, 0xf0);
    emit_rex(s, w, R11, R10, false);
    emit1(s, 0x0f);
    emit1(s, 0xb1);
    /* lock cmpxchg [r10], r11 */
    emit_modrm_mem(s, R11, R10, 0);
    emit1(s, 0x0f);
    emit1(s, CC_NE);
    emit4(s, (uint32_t) (loop - (s->size + 4)));
    if (src != RAX) {
        emit_mov_rr(s, w, RAX, src);                /* src = old */
        emit_mov_rr(s, true, R9, RAX);
    } else if (!w) {
        emit_mov_rr(s, false, RAX, RAX);
    }
}

static uint8_t
jump_cc(int op)
{
    switch (op) {
    case 0x10: return CC_E;
    case 0x20: return CC_A;
    case 0x30: return CC_AE;
    case 0x40: return CC_NE;                        /* jset: after test */
    case 0x50: return CC_NE;
    case 0x60: return CC_G;
    case 0x70: return CC_GE;
    case 0xa0: return CC_B;
    case 0xb0: return CC_BE;
    case 0xc0: return CC_L;
    default: return CC_LE;                          /* 0xd0 */
    }
}

/* What a program's code needs from the frame around it. */
struct usage {
    bool uses[11];                      /* BPF registers named */
    bool calls;                         /* helper calls */
    bool divides;                       /* div or mod (r12) */
};

static void
add_usage(const struct oko_insn *insns, size_t n, struct usage *u)
{
    for (size_t pc = 0; pc < n; pc++) {
        const struct oko_insn *insn = &insns[pc];
        int cls = insn->opcode & 0x07;
        int op = insn->opcode & 0xf0;
        if (insn->dst < 11) {
            u->uses[insn->dst] = true;
        }
        if (insn->src < 11) {
            u->uses[insn->src] = true;
        }
        u->calls |= (cls == CLASS_JMP) && op == OP_CALL;
        u->divides |= (cls == CLASS_ALU || cls == CLASS_ALU64)
                      && (op == 0x30 || op == 0x90);
        if (cls == CLASS_LD) {
            pc++;
        }
    }
}

/* What the prologue must set up: the callee-saved registers the code
 * touches, 'n_args' argument registers kept on the native stack (a fused
 * chain's), and padding that aligns rsp if the code calls helpers.  The
 * program's stack is not here (see the top of this file). */
struct frame {
    uint8_t saved[6];           /* rbp, rbx, r12-r15: each at most once */
    int n_saved;
    /* rdi, rsi, rcx, r11, rax, rax (the first 'n_args') pushed after
     * 'saved' */
    int n_args;
    /* subtracted from rsp: 0 or FRAME_PAD */
    int stack_bytes;
};

/* BPF r6-r9 in callee-saved registers. */
static const struct { int bpf; uint8_t x86; } callee_saved[] = {
    { 6, RBX }, { 7, R13 }, { 8, R14 }, { 9, R15 },
};

/* Up to 'max' callee-saved registers the code never touches (no BPF
 * register mapped to them is named, r12 only without division), into
 * 'regs': a helper keeps them, so a fused chain's loop can keep its state
 * there for the whole loop.  Returns how many. */
static int
find_spare(const struct usage *u, uint8_t regs[], int max)
{
    int n = 0;
    for (size_t i = 0; i < 4 && n < max; i++) {
        if (!u->uses[callee_saved[i].bpf]) {
            regs[n++] = callee_saved[i].x86;
        }
    }
    if (n < max && !u->divides) {
        regs[n++] = R12;
    }
    return n;
}

/* 'extra' registers (from find_spare()) are saved too. */
static void
plan_frame(const struct usage *u, int n_args, const uint8_t extra[],
           int n_extra, struct frame *fr)
{
    fr->n_saved = 0;
    if (u->uses[10]) {
        fr->saved[fr->n_saved++] = RBP;
    }
    for (size_t i = 0; i < 4; i++) {
        if (u->uses[callee_saved[i].bpf]) {
            fr->saved[fr->n_saved++] = callee_saved[i].x86;
        }
    }
    if (u->divides) {
        fr->saved[fr->n_saved++] = R12;
    }
    for (int i = 0; i < n_extra; i++) {
        fr->saved[fr->n_saved++] = extra[i];
    }
    fr->n_args = n_args;
    /* At entry rsp = 8 (mod 16); helper calls need rsp = 0 (mod 16). */
    fr->stack_bytes
        = u->calls && (8 + 8 * (fr->n_saved + n_args)) % 16 ? FRAME_PAD : 0;
}

static void
emit_push(struct jit_state *s, int reg)
{
    emit_rex(s, false, 0, reg, false);
    emit1(s, 0x50 + (reg & 7));
}

static void
emit_prologue(struct jit_state *s, const struct frame *fr)
{
    /* A fused chain's arguments, and two slots (rax's value is not used). */
    static const uint8_t args[] = { RDI, RSI, RCX, R11, RAX, RAX };
    for (int i = 0; i < fr->n_saved; i++) {
        emit_push(s, fr->saved[i]);
    }
    for (int i = 0; i < fr->n_args; i++) {
        emit_push(s, args[i]);
    }
    if (fr->stack_bytes) {
        emit_alu_ri(s, true, 5, RSP, fr->stack_bytes);
    }
    if (fr->n_saved && fr->saved[0] == RBP) {
        emit_mov_rr(s, true, RDX, RBP);             /* r10 = stack_top */
    }
}

static void
emit_epilogue(struct jit_state *s, const struct frame *fr)
{
    int drop = fr->stack_bytes + 8 * fr->n_args;
    if (drop) {
        emit_alu_ri(s, true, 0, RSP, drop);
    }
    for (int i = fr->n_saved; i-- > 0;) {
        emit_rex(s, false, 0, fr->saved[i], false);
        emit1(s, 0x58 + (fr->saved[i] & 7));        /* pop */
    }
    emit1(s, 0xc3);
}

/* The instructions of one program.  Each "exit" continues at
 * s->exit_offset (known in pass 2), the last one by falling through: the
 * code right after the body must be that target. */
static void
emit_body(struct jit_state *s, const struct oko_insn *insns, size_t n)
{
    for (size_t pc = 0; pc < n; pc++) {
        const struct oko_insn *insn = &insns[pc];
        int cls = insn->opcode & 0x07;
        int op = insn->opcode & 0xf0;
        s->insn_offset[pc] = s->size;
        switch (cls) {
        case CLASS_ALU:
        case CLASS_ALU64:
            emit_alu(s, insn);
            break;
        case CLASS_LD:
            emit_mov_imm64(s, reg_map[insn->dst],
                           (uint32_t) insn->imm
                               | (uint64_t) (uint32_t) insn[1].imm << 32);
            s->insn_offset[++pc] = s->size;
            break;
        case CLASS_LDX:
            emit_ldx(s, insn);
            break;
        case CLASS_ST:
            emit_store(s, insn);
            break;
        case CLASS_STX:
            if ((insn->opcode & 0xe0) == MODE_ATOMIC) {
                emit_atomic(s, insn);
            } else {
                emit_store(s, insn);
            }
            break;
        case CLASS_JMP:
        case CLASS_JMP32: {
            bool w = cls == CLASS_JMP;
            if (op == OP_EXIT) {
                if (pc + 1 < n) {           /* the last one falls through */
                    emit_jmp(s, s->exit_offset);
                }
                break;
            }
            if (op == OP_CALL) {
                if (insn->imm <= 0 || insn->imm >= OKO_N_HELPERS
                    || !oko_helper_table[insn->imm]) {
                    /* ud2: the verifier allows no such call */
                    emit1(s, 0x0f);
                    emit1(s, 0x0b);
                    break;
                }
                emit_call(s, (uintptr_t) oko_helper_table[insn->imm]);
                break;
            }
            size_t target_pc
                = pc + 1
                  + (cls == CLASS_JMP32 && op == OP_JA ? insn->imm
                                                       : insn->off);
            size_t target = s->final ? s->insn_offset[target_pc] : 0;
            if (op == OP_JA) {
                emit_jmp(s, target);
                break;
            }
            int dst = reg_map[insn->dst];
            if (op == 0x40) {                       /* jset: test */
                if (insn->opcode & SRC_X) {
                    emit_alu_rr(s, w, 0x85, reg_map[insn->src], dst);
                } else {
                    emit_rex(s, w, 0, dst, false);
                    emit1(s, 0xf7);
                    emit_modrm_reg(s, 0, dst);
                    emit4(s, insn->imm);
                }
            } else if (insn->opcode & SRC_X) {
                /* cmp dst, src */
                emit_alu_rr(s, w, 0x39, reg_map[insn->src], dst);
            } else {
                /* cmp dst, imm */
                emit_alu_ri(s, w, 7, dst, insn->imm);
            }
            emit_jcc(s, jump_cc(op), target);
            break;
        }
        }
    }
}

/* A refusal stub: mov r11d, imm32 (6 bytes) and jmp rel32 (5). */
#define CHAIN_STUB_BYTES 11

/* A packet no program may run on: mov rax, simm32 (7 bytes), then a
 * refusal stub. */
#define CHAIN_NOT_RUN_BYTES (7 + CHAIN_STUB_BYTES)

/* What a compilation emits: one program, or a chain of them. */
struct jit_source {
    const struct oko_jit_chain_link *links;
    size_t n_links;
    bool chain;                         /* a fused chain, not one program */
    /* per link: its result check, then the chain's labels (chain) */
    size_t *link_exit;
    const struct oko_jit_pkt_layout *layout;    /* chain */
};

static int
emit_program(struct jit_state *s, const struct jit_source *src)
{
    const struct oko_insn *insns = src->links[0].insns;
    size_t n = src->links[0].n_insns;
    struct usage u = { .calls = false };
    struct frame fr;

    add_usage(insns, n, &u);
    plan_frame(&u, 0, NULL, 0, &fr);
    emit_prologue(s, &fr);
    emit_body(s, insns, n);
    s->exit_offset = s->size;
    emit_epilogue(s, &fr);
    return 0;
}

/* A fused chain (oko_jit_chain_fn): a loop over the batch's packets whose
 * body is the programs' bodies one after the other, in one frame set up
 * once, with the union of what they need saved.  The loop's state lives in
 * the native frame: the current entry of 'pkts', its end and start, where a
 * refusal goes and, for a chain of several programs, the packet's data and
 * length; the current entry and the end live in two callee-saved registers
 * instead (saved by the prologue, kept by helpers) where the programs leave
 * two spare (find_spare(): they name neither's BPF register), as most
 * chains do, so that the cursor does not go through a store and a load of
 * the frame on every packet.  Each packet's data and length come from its
 * structure as the layout says, checked as oko_filter_run_in_section()
 * checks them, before any program runs.  Before each program only r1 and
 * r2 are set: r10 stays the stack's top for every packet and program (no
 * program writes it, helpers keep rbp), and a program reads no register it
 * has not written, so what an earlier program or packet leaves in r0 and
 * r3-r9, or on the stack, is never read.
 *
 *     if rsi == 0: return 0
 *     rsi = rdi + 8 * rsi; r11 = rdi            end, start
 *     prologue: push rdi (cur), rsi (end), rcx (refusal), r11 (start)
 *               [and two slots: data, len]
 *     [spare: CUR = rdi; END = rsi]
 *   loop:
 *     r11 = [[cur]]                          [spare: r11 = [CUR]]
 *     edi = (u16) [r11 + data_ofs]; if edi == 0xffff: no_packet
 *     rdi += [r11 + base]; if rdi == 0: no_packet
 *     esi = (u32) [r11 + len]; if rsi > OKO_MAX_PKT_LEN: too_long
 *     [[data] = rdi; [len] = rsi]
 *     for each program i:
 *       [i > 0: rdi = [data]; rsi = [len]]
 *       body i; cmp rax, expect i; jne stub i
 *     r11 = [cur] + 8; [cur] = r11; cmp r11, [end]; jb loop
 *     rax = r11                  [spare: CUR += 8; cmp CUR, END; jb loop;
 *                                 rax = CUR]
 *   index:
 *     rax = (rax - [start]) >> 3; epilogue
 *   stub i: r11d = i; jmp refused
 *   no_packet: rax = OKO_R0_NO_PACKET; r11d = 0; jmp refused
 *   too_long: rax = OKO_R0_TOO_LONG; r11d = 0
 *   refused:
 *     rcx = [refusal]; [rcx] = r11; [rcx + 8] = rax; rax = [cur] [spare: CUR];
 *     jmp index
 */
static void
emit_load_slot(struct jit_state *s, int reg, int32_t slot)
{
    emit_rex(s, true, reg, RSP, false);
    emit1(s, 0x8b);                             /* mov reg, [rsp + slot] */
    emit_modrm_mem(s, reg, RSP, slot);
}

static void
emit_store_slot(struct jit_state *s, int reg, int32_t slot)
{
    emit_rex(s, true, reg, RSP, false);
    emit1(s, 0x89);                             /* mov [rsp + slot], reg */
    emit_modrm_mem(s, reg, RSP, slot);
}

/* A refusal stub (CHAIN_STUB_BYTES): r11d = 'link', then to 'common'. */
static void
emit_refusal_stub(struct jit_state *s, size_t link, size_t common)
{
    emit_rex(s, false, 0, R11, false);
    emit1(s, 0xb8 + (R11 & 7));                 /* mov r11d, link */
    emit4(s, (uint32_t) link);
    emit1(s, 0xe9);                             /* jmp common (rel32) */
    emit4(s, (uint32_t) (common - (s->size + 4)));
}

/* A packet no program may run on (CHAIN_NOT_RUN_BYTES): rax = 'r0' (one
 * of the OKO_R0_* that sign-extend from 32 bits), refused by program 0. */
_Static_assert((uint64_t) (int64_t) (int32_t) OKO_R0_NO_PACKET
               == OKO_R0_NO_PACKET
               && (uint64_t) (int64_t) (int32_t) OKO_R0_TOO_LONG
                  == OKO_R0_TOO_LONG,
               "a not-run r0 is a sign-extended imm32");
static void
emit_not_run(struct jit_state *s, uint64_t r0, size_t common)
{
    emit_mov_ri(s, true, RAX, (int32_t) r0);
    emit_refusal_stub(s, 0, common);
}

/* Where emit_chain()'s pass 1 found its labels, for pass 2. */
enum {
    CHAIN_REFUSE,                               /* the refusal stubs */
    CHAIN_INDEX,                                /* the return */
    CHAIN_NO_PACKET,
    CHAIN_TOO_LONG,
    CHAIN_LABELS
};

static int
emit_chain(struct jit_state *s, const struct jit_source *src)
{
    const struct oko_jit_pkt_layout *layout = src->layout;
    struct usage u = { .calls = false };
    struct frame fr;
    size_t *offsets = s->insn_offset;
    size_t *label = &src->link_exit[src->n_links];
    bool reloads = src->n_links > 1;

    for (size_t i = 0; i < src->n_links; i++) {
        add_usage(src->links[i].insns, src->links[i].n_insns, &u);
    }
    u.uses[1] = u.uses[2] = true;
    /* The cursor and the end in registers, if two are spare: the cursor
     * then goes from one packet to the next in a register, not through a
     * store and a load of the frame on every packet. */
    uint8_t spare[2];
    bool in_regs = find_spare(&u, spare, 2) == 2;
    int cur = in_regs ? spare[0] : -1, end = in_regs ? spare[1] : -1;
    plan_frame(&u, reloads ? 6 : 4, spare, in_regs ? 2 : 0, &fr);

    /* No packets: return 0 before the loop, which runs at least once. */
    emit_alu_rr(s, true, 0x85, RSI, RSI);       /* test rsi, rsi */
    emit1(s, 0x75);                             /* jnz +3 */
    emit1(s, 3);
    emit_alu_rr(s, false, 0x31, RAX, RAX);      /* xor eax, eax */
    emit1(s, 0xc3);                             /* ret */
    emit_rex(s, true, RSI, RDI, false);
    emit1(s, 0x8d);                             /* lea rsi, [rdi + 8 rsi] */
    emit1(s, 0x04 | (RSI & 7) << 3);
    emit1(s, 0xc0 | (RSI & 7) << 3 | (RDI & 7));
    emit_mov_rr(s, true, RDI, R11);             /* r11 = start */
    emit_prologue(s, &fr);

    /* Where the arguments are, above the padding (pushed in the order rdi,
     * rsi, rcx, r11, then two slots). */
    int32_t base = fr.stack_bytes + (reloads ? 16 : 0);
    int32_t data_slot = fr.stack_bytes, len_slot = data_slot + 8;
    int32_t start_slot = base, refusal_slot = base + 8, end_slot = base + 16,
            cur_slot = base + 24;

    if (in_regs) {
        emit_mov_rr(s, true, RDI, cur);
        emit_mov_rr(s, true, RSI, end);
    }

    size_t loop = s->size;
    if (in_regs) {
        emit_rex(s, true, R11, cur, false);
        emit1(s, 0x8b);                         /* mov r11, [cur] */
        emit_modrm_mem(s, R11, cur, 0);
    } else {
        emit_load_slot(s, R11, cur_slot);
        emit_rex(s, true, R11, R11, false);
        emit1(s, 0x8b);                         /* mov r11, [r11] */
        emit_modrm_mem(s, R11, R11, 0);
    }
    emit_rex(s, false, RDI, R11, false);
    emit1(s, 0x0f);
    emit1(s, 0xb7);                             /* movzx edi, word [...] */
    emit_modrm_mem(s, RDI, R11, layout->data_ofs);
    emit_alu_ri(s, false, 7, RDI, UINT16_MAX);  /* cmp edi, 0xffff */
    emit_jcc(s, CC_E, label[CHAIN_NO_PACKET]);
    emit_rex(s, true, RDI, R11, false);
    emit1(s, 0x03);                             /* add rdi, [r11 + base] */
    emit_modrm_mem(s, RDI, R11, layout->base);
    emit_jcc(s, CC_E, label[CHAIN_NO_PACKET]);  /* the sum is 0: NULL */
    emit_rex(s, false, RSI, R11, false);
    emit1(s, 0x8b);                             /* mov esi, [r11 + len] */
    emit_modrm_mem(s, RSI, R11, layout->len);
    emit_alu_ri(s, true, 7, RSI, OKO_MAX_PKT_LEN);  /* cmp rsi, max */
    emit_jcc(s, CC_A, label[CHAIN_TOO_LONG]);
    if (reloads) {
        emit_store_slot(s, RDI, data_slot);
        emit_store_slot(s, RSI, len_slot);
    }
    for (size_t i = 0; i < src->n_links; i++) {
        const struct oko_jit_chain_link *link = &src->links[i];
        if (i) {
            emit_load_slot(s, RDI, data_slot);
            emit_load_slot(s, RSI, len_slot);
        }
        s->exit_offset = src->link_exit[i];
        emit_body(s, link->insns, link->n_insns);
        s->insn_offset += link->n_insns + 1;
        src->link_exit[i] = s->size;
        /* cmp rax, expect */
        emit_alu_ri(s, true, 7, RAX, (int32_t) link->expect);
        emit_jcc(s, CC_NE, label[CHAIN_REFUSE] + CHAIN_STUB_BYTES * i);
    }
    s->insn_offset = offsets;

    /* The next packet, if any. */
    if (in_regs) {
        emit_alu_ri(s, true, 0, cur, 8);        /* add cur, 8 */
        emit_alu_rr(s, true, 0x39, end, cur);   /* cmp cur, end */
        emit_jcc(s, CC_B, loop);
        emit_mov_rr(s, true, cur, RAX);         /* rax = end */
    } else {
        emit_load_slot(s, R11, cur_slot);
        emit_alu_ri(s, true, 0, R11, 8);        /* add r11, 8 */
        emit_store_slot(s, R11, cur_slot);
        emit_rex(s, true, R11, RSP, false);
        emit1(s, 0x3b);                         /* cmp r11, [rsp + end] */
        emit_modrm_mem(s, R11, RSP, end_slot);
        emit_jcc(s, CC_B, loop);
        emit_mov_rr(s, true, R11, RAX);         /* rax = end */
    }

    /* rax = (rax - start) / 8: the packets accepted. */
    label[CHAIN_INDEX] = s->size;
    emit_rex(s, true, RAX, RSP, false);
    emit1(s, 0x2b);                             /* sub rax, [rsp + start] */
    emit_modrm_mem(s, RAX, RSP, start_slot);
    emit_rex(s, true, 0, RAX, false);
    emit1(s, 0xc1);
    emit_modrm_reg(s, 5, RAX);                  /* shr rax, 3 */
    emit1(s, 3);
    emit_epilogue(s, &fr);

    /* Refusal i: r11 = i (stub i at refuse + CHAIN_STUB_BYTES i). */
    label[CHAIN_REFUSE] = s->size;
    size_t common = s->size + CHAIN_STUB_BYTES * src->n_links
                    + 2 * CHAIN_NOT_RUN_BYTES;
    for (size_t i = 0; i < src->n_links; i++) {
        emit_refusal_stub(s, i, common);
    }
    /* A packet no program may run on: refused by the first with its r0. */
    label[CHAIN_NO_PACKET] = s->size;
    emit_not_run(s, OKO_R0_NO_PACKET, common);
    label[CHAIN_TOO_LONG] = s->size;
    emit_not_run(s, OKO_R0_TOO_LONG, common);

    /* refusal->at = r11, refusal->r0 = rax; return the current index. */
    emit_load_slot(s, RCX, refusal_slot);
    emit_rex(s, true, R11, RCX, false);
    emit1(s, 0x89);                             /* mov [rcx], r11 */
    emit_modrm_mem(s, R11, RCX, 0);
    emit_rex(s, true, RAX, RCX, false);
    emit1(s, 0x89);                             /* mov [rcx + 8], rax */
    emit_modrm_mem(s, RAX, RCX, 8);
    if (in_regs) {
        emit_mov_rr(s, true, cur, RAX);
    } else {
        emit_load_slot(s, RAX, cur_slot);
    }
    emit_jmp(s, label[CHAIN_INDEX]);
    return 0;
}

int
oko_jit_available(void)
{
    return 1;
}

#define NEAR_WINDOW (16u << 20)

int
oko_jit_near_window(uintptr_t *start, size_t *size)
{
    Dl_info info;
    if (!dladdr((void *) (uintptr_t) oko_jit_compile, &info)
        || !info.dli_fbase) {
        return -1;
    }
    uintptr_t base = (uintptr_t) info.dli_fbase & ~(uintptr_t) 4095;
    *size = base < NEAR_WINDOW ? base : NEAR_WINDOW;
    *start = base - *size;
    return *size ? 0 : -1;
}

/* Maps 'size' bytes (a multiple of the page size) read-write within
 * oko_jit_near_window(), first fit from the top, or returns NULL.  Below
 * the image, because the heap grows up from the end of an executable.
 * MAP_FIXED_NOREPLACE fails on an address in use where the kernel knows it;
 * an older kernel takes it as a hint and may map elsewhere, which is
 * undone. */
static void *
map_near_text(size_t size)
{
#ifdef MAP_FIXED_NOREPLACE
    const int noreplace = MAP_FIXED_NOREPLACE;
#else
    const int noreplace = 0;
#endif
    uintptr_t start;
    size_t window;
    if (oko_jit_near_window(&start, &window)) {
        return NULL;
    }
    for (uintptr_t below = size; below <= window; below += size) {
        void *hint = (void *) (start + window - below);
        void *p = mmap(hint, size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | noreplace, -1, 0);
        if (p == hint) {
            return p;
        }
        if (p != MAP_FAILED) {
            munmap(p, size);
        }
    }
    return NULL;
}

/* Emits the program or chain into a fresh mapping, near the helpers if
 * 'near' (or fails with EAGAIN if no such mapping exists or a helper is out
 * of reach from it), and makes it executable. */
static int
compile(const struct jit_source *src, bool near, void **codep, size_t *sizep,
        char error[OKO_ERROR_MAX])
{
    struct jit_state s = { .buf = NULL, .cap = 0, .near = near };
    size_t n_offsets = 0;
    for (size_t i = 0; i < src->n_links; i++) {
        n_offsets += src->links[i].n_insns + 1;
    }
    s.insn_offset = calloc(n_offsets, sizeof *s.insn_offset);
    if (!s.insn_offset) {
        snprintf(error, OKO_ERROR_MAX, "out of memory");
        return ENOMEM;
    }
    int (*emit)(struct jit_state *, const struct jit_source *)
        = src->chain ? emit_chain : emit_program;
    /* Pass 1: sizes and offsets. */
    emit(&s, src);
    size_t size = s.size;
    size_t map_size = (size + 4095) & ~(size_t) 4095;
    void *code = near ? map_near_text(map_size)
                      : mmap(NULL, map_size, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!code || code == MAP_FAILED) {
        free(s.insn_offset);
        if (near) {
            return EAGAIN;
        }
        snprintf(error, OKO_ERROR_MAX, "JIT: cannot map %zu bytes", map_size);
        return ENOMEM;
    }
    /* Pass 2: the code, with every displacement known. */
    s.buf = code;
    s.cap = size;
    s.size = 0;
    s.final = true;
    emit(&s, src);
    free(s.insn_offset);
    if (s.out_of_reach) {
        munmap(code, map_size);
        return EAGAIN;
    }
    if (s.size != size || mprotect(code, map_size, PROT_READ | PROT_EXEC)) {
        munmap(code, map_size);
        snprintf(error, OKO_ERROR_MAX,
                 "JIT: internal error (size %zu then %zu) or mprotect", size,
                 s.size);
        return EINVAL;
    }
    *codep = code;
    *sizep = map_size;
    return 0;
}

static int
compile_anywhere(const struct jit_source *src, void **codep, size_t *sizep,
                 char error[OKO_ERROR_MAX])
{
    int err = compile(src, true, codep, sizep, error);
    return err == EAGAIN ? compile(src, false, codep, sizep, error) : err;
}

int
oko_jit_compile(const struct oko_insn *insns, size_t n, struct oko_jit *jit,
                char error[OKO_ERROR_MAX])
{
    struct oko_jit_chain_link link
        = { .insns = insns, .n_insns = n, .expect = 0 };
    struct jit_source src = { .links = &link, .n_links = 1, .chain = false };

    memset(jit, 0, sizeof *jit);
    int err = compile_anywhere(&src, &jit->code, &jit->size, error);
    if (!err) {
        jit->fn = (oko_jit_fn *) jit->code;
    }
    return err;
}

int
oko_jit_compile_chain(const struct oko_jit_chain_link *links, size_t n,
                      const struct oko_jit_pkt_layout *layout,
                      struct oko_jit_chain *jit, char error[OKO_ERROR_MAX])
{
    memset(jit, 0, sizeof *jit);
    if (layout->base < 0 || layout->data_ofs < 0 || layout->len < 0) {
        snprintf(error, OKO_ERROR_MAX, "JIT: negative packet field offset");
        return EINVAL;
    }
    if (!n || n > OKO_JIT_CHAIN_MAX) {
        snprintf(error, OKO_ERROR_MAX,
                 "JIT: a chain has 1 to %d programs, not %zu",
                 OKO_JIT_CHAIN_MAX, n);
        return EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        if (!links[i].n_insns || links[i].n_insns > OKO_MAX_INSNS) {
            snprintf(error, OKO_ERROR_MAX,
                     "JIT: chain program %zu has %zu instructions", i,
                     links[i].n_insns);
            return EINVAL;
        }
        if (links[i].expect > INT32_MAX) {
            snprintf(error, OKO_ERROR_MAX,
                     "JIT: chain result %" PRIu64 " out of range",
                     links[i].expect);
            return EINVAL;
        }
    }
    size_t link_exit[OKO_JIT_CHAIN_MAX + CHAIN_LABELS] = { 0 };
    struct jit_source src = { .links = links, .n_links = n, .chain = true,
                              .link_exit = link_exit, .layout = layout };
    int err = compile_anywhere(&src, &jit->code, &jit->size, error);
    if (!err) {
        jit->fn = (oko_jit_chain_fn *) jit->code;
    }
    return err;
}

void
oko_jit_chain_free(struct oko_jit_chain *jit)
{
    if (jit->code) {
        munmap(jit->code, jit->size);
        memset(jit, 0, sizeof *jit);
    }
}

void
oko_jit_free(struct oko_jit *jit)
{
    if (jit->code) {
        munmap(jit->code, jit->size);
        memset(jit, 0, sizeof *jit);
    }
}

#else  /* !__x86_64__ */

int
oko_jit_available(void)
{
    return 0;
}

int
oko_jit_compile(const struct oko_insn *insns, size_t n, struct oko_jit *jit,
                char error[OKO_ERROR_MAX])
{
    (void) insns;
    (void) n;
    memset(jit, 0, sizeof *jit);
    snprintf(error, OKO_ERROR_MAX, "no JIT for this machine");
    return ENOTSUP;
}

void
oko_jit_free(struct oko_jit *jit)
{
    (void) jit;
}

int
oko_jit_compile_chain(const struct oko_jit_chain_link *links, size_t n,
                      const struct oko_jit_pkt_layout *layout,
                      struct oko_jit_chain *jit, char error[OKO_ERROR_MAX])
{
    (void) links;
    (void) n;
    (void) layout;
    memset(jit, 0, sizeof *jit);
    snprintf(error, OKO_ERROR_MAX, "no JIT for this machine");
    return ENOTSUP;
}

void
oko_jit_chain_free(struct oko_jit_chain *jit)
{
    (void) jit;
}

int
oko_jit_near_window(uintptr_t *start, size_t *size)
{
    (void) start;
    (void) size;
    return -1;
}

#endif
