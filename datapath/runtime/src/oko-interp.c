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

/* Reference interpreter: RFC 9669 semantics, written for clarity.  The JIT
 * must give the same r0 for every program the verifier accepts.
 *
 * Still missing (rejected by the verifier until implemented): atomic
 * operations, helper calls, map lddw (src 1). */

#include "oko-interp.h"

#include <string.h>

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

static uint64_t
load(const void *addr, int size, int sign_extend)
{
    switch (size) {
    case SIZE_B: { uint8_t v; memcpy(&v, addr, 1); return sign_extend ? (uint64_t) (int8_t) v : v; }
    case SIZE_H: { uint16_t v; memcpy(&v, addr, 2); return sign_extend ? (uint64_t) (int16_t) v : v; }
    case SIZE_W: { uint32_t v; memcpy(&v, addr, 4); return sign_extend ? (uint64_t) (int32_t) v : v; }
    default: { uint64_t v; memcpy(&v, addr, 8); return v; }
    }
}

static void
store(void *addr, int size, uint64_t value)
{
    switch (size) {
    case SIZE_B: { uint8_t v = value; memcpy(addr, &v, 1); break; }
    case SIZE_H: { uint16_t v = value; memcpy(addr, &v, 2); break; }
    case SIZE_W: { uint32_t v = value; memcpy(addr, &v, 4); break; }
    default: memcpy(addr, &value, 8); break;
    }
}

/* One ALU operation; 'is64' selects 64-bit arithmetic, otherwise the
 * operands are the low 32 bits and the result is zero-extended. */
static uint64_t
alu(int op, int off, int is64, uint64_t dst, uint64_t src)
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
                r = (int64_t) src == -1 ? -dst : (uint64_t) ((int64_t) dst / (int64_t) src);
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
                r = (int64_t) src == -1 ? 0 : (uint64_t) ((int64_t) dst % (int64_t) src);
            } else {
                r = (int32_t) src == -1 ? 0 : (uint32_t) ((int32_t) dst % (int32_t) src);
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
static uint64_t
endian(int swap, int width, uint64_t v)
{
    switch (width) {
    case 16: return swap ? __builtin_bswap16(v) : (uint16_t) v;
    case 32: return swap ? __builtin_bswap32(v) : (uint32_t) v;
    default: return swap ? __builtin_bswap64(v) : v;
    }
}

static int
jump_taken(int op, int is64, uint64_t a, uint64_t b)
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

uint64_t
oko_interp_run(const struct oko_insn *insns, const void *pkt, uint64_t len)
{
    uint64_t stack[OKO_STACK_SIZE / sizeof(uint64_t)];
    uint64_t reg[11] = { 0 };
    const struct oko_insn *pc = insns;

    reg[1] = (uintptr_t) pkt;
    reg[2] = len;
    reg[10] = (uintptr_t) stack + sizeof stack;

    for (;;) {
        const struct oko_insn *insn = pc++;
        uint8_t opcode = insn->opcode;
        int cls = opcode & 0x07;
        int op = opcode & 0xf0;

        switch (cls) {
        case CLASS_ALU:
        case CLASS_ALU64: {
            int is64 = cls == CLASS_ALU64;
            if (op == 0xd0) {
                /* ALU64 END is an unconditional swap; ALU END swaps for "to BE". */
                reg[insn->dst] = endian(is64 || (opcode & SRC_X), insn->imm, reg[insn->dst]);
                break;
            }
            uint64_t src = opcode & SRC_X ? reg[insn->src] : (uint64_t) (int64_t) insn->imm;
            reg[insn->dst] = alu(op, insn->off, is64, reg[insn->dst], src);
            break;
        }
        case CLASS_JMP:
        case CLASS_JMP32:
            if (op == 0x90) {           /* exit */
                return reg[0];
            }
            if (op == 0x00) {           /* ja; JMP32 ja ("gotol") uses imm */
                pc += cls == CLASS_JMP32 ? insn->imm : insn->off;
                break;
            }
            if (jump_taken(op, cls == CLASS_JMP,
                           reg[insn->dst],
                           opcode & SRC_X ? reg[insn->src] : (uint64_t) (int64_t) insn->imm)) {
                pc += insn->off;
            }
            break;
        case CLASS_LD:                  /* lddw: imm64 from two slots */
            reg[insn->dst] = (uint32_t) insn->imm | (uint64_t) (uint32_t) pc->imm << 32;
            pc++;
            break;
        case CLASS_LDX:
            reg[insn->dst] = load((const uint8_t *) (uintptr_t) reg[insn->src] + insn->off,
                                  opcode & 0x18, (opcode & 0xe0) == MODE_MEMSX);
            break;
        case CLASS_ST:
            store((uint8_t *) (uintptr_t) reg[insn->dst] + insn->off, opcode & 0x18,
                  (uint64_t) (int64_t) insn->imm);
            break;
        case CLASS_STX:
            store((uint8_t *) (uintptr_t) reg[insn->dst] + insn->off, opcode & 0x18, reg[insn->src]);
            break;
        }
    }
}
