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
 * Map lddw instructions must have been linked (oko-filter.c) so that their
 * immediate is the map's address. */

#include "oko-interp.h"

#include <stdbool.h>
#include <string.h>

#include "oko-helpers.h"
#include "oko-isa.h"

static uint64_t
load(const void *addr, int size, int sign_extend)
{
    switch (size) {
    case SIZE_B: {
        uint8_t v;
        memcpy(&v, addr, 1);
        return sign_extend ? (uint64_t) (int8_t) v : v;
    }
    case SIZE_H: {
        uint16_t v;
        memcpy(&v, addr, 2);
        return sign_extend ? (uint64_t) (int16_t) v : v;
    }
    case SIZE_W: {
        uint32_t v;
        memcpy(&v, addr, 4);
        return sign_extend ? (uint64_t) (int32_t) v : v;
    }
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

uint64_t
oko_interp_run(const struct oko_insn *insns, const void *pkt, uint64_t len,
               void *stack_top)
{
    uint64_t reg[11] = { 0 };
    const struct oko_insn *pc = insns;

    reg[1] = (uintptr_t) pkt;
    reg[2] = len;
    reg[10] = (uintptr_t) stack_top;

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
                /* ALU64 END is an unconditional swap; ALU END swaps for "to
                 * BE". */
                reg[insn->dst] = oko_isa_endian(is64 || (opcode & SRC_X),
                                                insn->imm, reg[insn->dst]);
                break;
            }
            uint64_t src = opcode & SRC_X ? reg[insn->src]
                                          : (uint64_t) (int64_t) insn->imm;
            reg[insn->dst]
                = oko_isa_alu(op, insn->off, is64, reg[insn->dst], src);
            break;
        }
        case CLASS_JMP:
        case CLASS_JMP32:
            if (op == 0x90) {           /* exit */
                return reg[0];
            }
            if (op == OP_CALL) {
                reg[0] = oko_helper_table[insn->imm](reg[1], reg[2], reg[3],
                                                     reg[4], reg[5]);
                break;
            }
            if (op == 0x00) {           /* ja; JMP32 ja ("gotol") uses imm */
                pc += cls == CLASS_JMP32 ? insn->imm : insn->off;
                break;
            }
            if (oko_isa_jump_taken(op, cls == CLASS_JMP, reg[insn->dst],
                                   opcode & SRC_X
                                       ? reg[insn->src]
                                       : (uint64_t) (int64_t) insn->imm)) {
                pc += insn->off;
            }
            break;
        case CLASS_LD:                  /* lddw: imm64 from two slots */
            reg[insn->dst]
                = (uint32_t) insn->imm | (uint64_t) (uint32_t) pc->imm << 32;
            pc++;
            break;
        case CLASS_LDX:
            reg[insn->dst]
                = load((const uint8_t *) (uintptr_t) reg[insn->src]
                           + insn->off,
                       opcode & 0x18, (opcode & 0xe0) == MODE_MEMSX);
            break;
        case CLASS_ST:
            store((uint8_t *) (uintptr_t) reg[insn->dst] + insn->off,
                  opcode & 0x18, (uint64_t) (int64_t) insn->imm);
            break;
        case CLASS_STX:
            if ((opcode & 0xe0) == MODE_ATOMIC) {
                oko_isa_atomic(insn,
                               (void *) (uintptr_t) (reg[insn->dst]
                                                     + insn->off),
                               reg);
                break;
            }
            store((uint8_t *) (uintptr_t) reg[insn->dst] + insn->off,
                  opcode & 0x18, reg[insn->src]);
            break;
        }
    }
}
