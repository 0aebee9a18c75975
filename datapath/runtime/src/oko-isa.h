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
#ifndef OKO_ISA_H
#define OKO_ISA_H 1

/* The instruction set's encoding and arithmetic (RFC 9669), shared by the
 * interpreter, the verifier (which folds constants with exactly these
 * semantics) and the JIT's tests.  Internal to the runtime. */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "oko-program.h"

/* Instruction classes, the low 3 bits of the opcode. */
enum {
    CLASS_LD = 0x00, CLASS_LDX = 0x01, CLASS_ST = 0x02, CLASS_STX = 0x03,
    CLASS_ALU = 0x04, CLASS_JMP = 0x05, CLASS_JMP32 = 0x06, CLASS_ALU64 = 0x07,
};
#define SRC_X 0x08                  /* operand is src register, not imm */
#define MODE_MEM 0x60
#define MODE_MEMSX 0x80
#define SIZE_W 0x00
#define SIZE_H 0x08
#define SIZE_B 0x10
#define SIZE_DW 0x18

/* One ALU operation; 'is64' selects 64-bit arithmetic, otherwise the
 * operands are the low 32 bits and the result is zero-extended. */
static inline uint64_t
oko_isa_alu(int op, int off, int is64, uint64_t dst, uint64_t src)
{
    if (!is64) {
        dst = (uint32_t) dst;
        src = (uint32_t) src;
    }
    uint64_t r;
    switch (op) {
    case 0x00: r = dst + src; break;
    case 0x10: r = dst - src; break;
    case 0x20: r = dst * src; break;
    case 0x30:                      /* div; off 1 = signed */
        if (!src) {
            r = 0;
        } else if (off == 1) {
            if (is64) {
                r = (int64_t) src == -1
                        ? -dst
                        : (uint64_t) ((int64_t) dst / (int64_t) src);
            } else {
                r = (int32_t) src == -1 ? (uint32_t) -(uint32_t) dst
                    : (uint32_t) ((int32_t) dst / (int32_t) src);
            }
        } else {
            r = dst / src;
        }
        break;
    case 0x40: r = dst | src; break;
    case 0x50: r = dst & src; break;
    case 0x60: r = dst << (src & (is64 ? 63 : 31)); break;
    case 0x70: r = dst >> (src & (is64 ? 63 : 31)); break;
    case 0x80: r = -dst; break;
    case 0x90:                      /* mod; off 1 = signed */
        if (!src) {
            r = dst;
        } else if (off == 1) {
            if (is64) {
                r = (int64_t) src == -1
                        ? 0
                        : (uint64_t) ((int64_t) dst % (int64_t) src);
            } else {
                r = (int32_t) src == -1
                        ? 0
                        : (uint32_t) ((int32_t) dst % (int32_t) src);
            }
        } else {
            r = dst % src;
        }
        break;
    case 0xa0: r = dst ^ src; break;
    case 0xb0:                      /* mov; off 8/16/32 = sign-extending */
        switch (off) {
        case 8: r = (uint64_t) (int8_t) src; break;
        case 16: r = (uint64_t) (int16_t) src; break;
        case 32: r = (uint64_t) (int32_t) src; break;
        default: r = src; break;
        }
        break;
    case 0xc0:
        r = is64 ? (uint64_t) ((int64_t) dst >> (src & 63))
                 : (uint32_t) ((int32_t) dst >> (src & 31));
        break;
    default:
        r = dst;
        break;
    }
    return is64 ? r : (uint32_t) r;
}

/* Byte-order conversion (END): to little endian is truncation on this
 * little-endian host, to big endian (and ALU64 bswap) swaps. */
static inline uint64_t
oko_isa_endian(int swap, int width, uint64_t v)
{
    switch (width) {
    case 16: return swap ? __builtin_bswap16(v) : (uint16_t) v;
    case 32: return swap ? __builtin_bswap32(v) : (uint32_t) v;
    default: return swap ? __builtin_bswap64(v) : v;
    }
}

static inline int
oko_isa_jump_taken(int op, int is64, uint64_t a, uint64_t b)
{
    if (!is64) {
        a = (uint32_t) a;
        b = (uint32_t) b;
    }
    int64_t sa = is64 ? (int64_t) a : (int32_t) a;
    int64_t sb = is64 ? (int64_t) b : (int32_t) b;
    switch (op) {
    case 0x10: return a == b;
    case 0x20: return a > b;
    case 0x30: return a >= b;
    case 0x40: return (a & b) != 0;
    case 0x50: return a != b;
    case 0x60: return sa > sb;
    case 0x70: return sa >= sb;
    case 0xa0: return a < b;
    case 0xb0: return a <= b;
    case 0xc0: return sa < sb;
    case 0xd0: return sa <= sb;
    default: return 0;
    }
}


/* Jump ops beyond the comparisons (class JMP/JMP32, high nibble). */
#define OP_JA   0x00
#define OP_CALL 0x80
#define OP_EXIT 0x90
#define OP_END  0xd0                /* ALU class: byte swap */
#define MODE_IMM 0x00
#define MODE_ATOMIC 0xc0
#define LDDW_OPCODE 0x18

/* Atomic operations (STX | MODE_ATOMIC, in imm). */
#define ATOMIC_FETCH 0x01
#define ATOMIC_ADD 0x00
#define ATOMIC_OR 0x40
#define ATOMIC_AND 0x50
#define ATOMIC_XOR 0xa0
#define ATOMIC_XCHG (0xe0 | ATOMIC_FETCH)
#define ATOMIC_CMPXCHG (0xf0 | ATOMIC_FETCH)

/* An atomic read-modify-write of 4 or 8 bytes at 'addr' (aligned: the
 * verifier checks), with the fetched value in r0 (cmpxchg) or src. */
static inline void
oko_isa_atomic(const struct oko_insn *insn, void *addr, uint64_t *reg)
{
    bool is64 = (insn->opcode & 0x18) == SIZE_DW;
    uint64_t src = reg[insn->src];
    uint64_t old;
#define RMW(TYPE)                                                             \
    do {                                                                      \
        TYPE *p = addr;                                                       \
        TYPE s = (TYPE) src;                                                  \
        switch (insn->imm & ~ATOMIC_FETCH) {                                  \
        case ATOMIC_ADD:                                                      \
            old = __atomic_fetch_add(p, s, __ATOMIC_SEQ_CST);                 \
            break;                                                            \
        case ATOMIC_OR:                                                       \
            old = __atomic_fetch_or(p, s, __ATOMIC_SEQ_CST);                  \
            break;                                                            \
        case ATOMIC_AND:                                                      \
            old = __atomic_fetch_and(p, s, __ATOMIC_SEQ_CST);                 \
            break;                                                            \
        case ATOMIC_XOR:                                                      \
            old = __atomic_fetch_xor(p, s, __ATOMIC_SEQ_CST);                 \
            break;                                                            \
        case ATOMIC_XCHG & ~ATOMIC_FETCH:                                     \
            old = __atomic_exchange_n(p, s, __ATOMIC_SEQ_CST);                \
            break;                                                            \
        default: { /* cmpxchg: compare with r0 */                             \
            TYPE expected = (TYPE) reg[0];                                    \
            __atomic_compare_exchange_n(p, &expected, s, false,               \
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
            old = expected;                                                   \
            break;                                                            \
        }                                                                     \
        }                                                                     \
    } while (0)
    if (is64) {
        RMW(uint64_t);
    } else {
        RMW(uint32_t);
    }
#undef RMW
    if (insn->imm == ATOMIC_CMPXCHG) {
        reg[0] = old;
    } else if (insn->imm & ATOMIC_FETCH) {
        reg[insn->src] = old;
    }
}

/* A jump's offset: in 'imm' for the 32-bit "gotol" (JMP32 | JA), else 'off'.
 */
static inline int
oko_isa_jump_delta(const struct oko_insn *insn)
{
    return (insn->opcode & 0x07) == CLASS_JMP32
                   && (insn->opcode & 0xf0) == OP_JA
               ? insn->imm
               : insn->off;
}

#define OKO_REG_BIT(r) ((uint16_t) (1u << (r)))
#define OKO_CALL_ARGS                                                         \
    (OKO_REG_BIT(1) | OKO_REG_BIT(2) | OKO_REG_BIT(3) | OKO_REG_BIT(4)        \
     | OKO_REG_BIT(5))

/* Registers 'insn' reads ('*use') and writes ('*def'), as its caller sees
 * them: a call reads all five argument registers (the verifier narrows that
 * to the helper's prototype) and writes r0-r5; r6-r9 survive it. */
static inline void
oko_isa_use_def(const struct oko_insn *insn, uint16_t *use, uint16_t *def)
{
    int cls = insn->opcode & 0x07;
    int op = insn->opcode & 0xf0;
    uint16_t dst = OKO_REG_BIT(insn->dst), src = OKO_REG_BIT(insn->src);

    *use = *def = 0;
    switch (cls) {
    case CLASS_LD:                          /* lddw */
        *def = dst;
        break;
    case CLASS_LDX:
        *use = src;
        *def = dst;
        break;
    case CLASS_ST:
        *use = dst;
        break;
    case CLASS_STX:
        *use = dst | src;
        if ((insn->opcode & 0xe0) == MODE_ATOMIC) {
            if (insn->imm == ATOMIC_CMPXCHG) {
                *use |= OKO_REG_BIT(0);
                *def = OKO_REG_BIT(0);
            } else if (insn->imm & ATOMIC_FETCH) {
                *def = src;
            }
        }
        break;
    case CLASS_ALU:
    case CLASS_ALU64:
        *def = dst;
        if (op != 0xb0) {                   /* every op but mov reads dst */
            *use = dst;
        }
        if ((insn->opcode & SRC_X) && op != OP_END && op != 0x80) {
            *use |= src;
        }
        break;
    case CLASS_JMP:
    case CLASS_JMP32:
        if (op == OP_CALL) {
            *use = OKO_CALL_ARGS;
            *def = OKO_CALL_ARGS | OKO_REG_BIT(0);
        } else if (op == OP_EXIT) {
            *use = OKO_REG_BIT(0);
        } else if (op != OP_JA) {
            *use = dst | ((insn->opcode & SRC_X) ? src : 0);
        }
        break;
    default:
        break;
    }
}

/* Writes "insn PC: <fmt>" into 'error' (OKO_ERROR_MAX bytes); returns
 * EINVAL.  The form every rejection of the loader's passes takes. */
static inline int
oko_isa_verror(char *error, int pc, const char *fmt, va_list args)
{
    int n = snprintf(error, OKO_ERROR_MAX, "insn %d: ", pc);
    vsnprintf(error + n, OKO_ERROR_MAX - n, fmt, args);
    return EINVAL;
}

#endif /* oko-isa.h */
