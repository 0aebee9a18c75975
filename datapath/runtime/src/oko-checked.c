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
/* Checked execution (oko-checked.h).  Every register and stack byte carries
 * an object tag besides its value: a number (0), the packet, the stack, a
 * map reference, the value of the k-th successful lookup of this run, or
 * "mixed" (a number computed from pointers of different objects, or from a
 * pointer by anything but adding a number: it may hold address bits).  An
 * access must fall inside the object its pointer's tag names. */

#include "oko-checked.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "oko-helpers.h"
#include "oko-interp.h"
#include "oko-isa.h"

enum {
    OBJ_NUMBER,
    OBJ_MIXED,              /* address-derived number: must go nowhere */
    OBJ_PACKET,
    OBJ_STACK,
    OBJ_MAP,                /* a map reference */
    OBJ_VALUE,              /* OBJ_VALUE + k: the k-th lookup's value */
};

#define MAX_VALUES (OKO_MAX_INSNS + 1)

struct region {
    uintptr_t start;
    uint64_t size;
};

struct checked {
    const struct oko_insn *insns;
    const uint32_t *origin;
    char *error;
    uint64_t reg[11];
    uint32_t tag[11];
    uint64_t stack[OKO_STACK_SIZE / 8];
    uint32_t stack_tag[OKO_STACK_SIZE];     /* per byte */
    struct region packet;
    struct region values[MAX_VALUES];
    uint32_t n_values;
};

static int trap(struct checked *c, int pc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
trap(struct checked *c, int pc, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    oko_isa_verror(c->error, c->origin ? (int) c->origin[pc] : pc, fmt, args);
    va_end(args);
    return EFAULT;
}

static int
size_bytes(int size_bits)
{
    return size_bits == SIZE_B   ? 1
           : size_bits == SIZE_H ? 2
           : size_bits == SIZE_W ? 4
                                 : 8;
}

/* The region [start, start + size) of 'tag', or false. */
static bool
region_of(const struct checked *c, uint32_t tag, struct region *r)
{
    if (tag == OBJ_PACKET) {
        *r = c->packet;
    } else if (tag == OBJ_STACK) {
        *r = (struct region) { (uintptr_t) c->stack, sizeof c->stack };
    } else if (tag >= OBJ_VALUE && tag - OBJ_VALUE < c->n_values) {
        *r = c->values[tag - OBJ_VALUE];
    } else {
        return false;
    }
    return true;
}

static const char *
tag_name(uint32_t tag)
{
    switch (tag) {
    case OBJ_NUMBER: return "a number";
    case OBJ_MIXED: return "a number made of addresses";
    case OBJ_PACKET: return "a packet pointer";
    case OBJ_STACK: return "a stack pointer";
    case OBJ_MAP: return "a map reference";
    default: return "a map value pointer";
    }
}

/* Checks an access of 'size' bytes at reg[regno] + off. */
static int
check_access(struct checked *c, int pc, int regno, int16_t off, int size,
             bool write, uintptr_t *addr)
{
    struct region r;
    uint32_t tag = c->tag[regno];
    *addr = (uintptr_t) (c->reg[regno] + (uint64_t) (int64_t) off);
    if (!region_of(c, tag, &r)) {
        return trap(c, pc, "%s through r%d, which holds %s",
                    write ? "write" : "read", regno, tag_name(tag));
    }
    if (*addr < r.start || *addr - r.start > r.size
        || size > r.size - (*addr - r.start)) {
        return trap(c, pc, "%d-byte %s at offset %lld of %s of %llu bytes",
                    size, write ? "write" : "read",
                    (long long) (*addr - r.start), tag_name(tag),
                    (unsigned long long) r.size);
    }
    if (write && tag == OBJ_PACKET) {
        return trap(c, pc, "write to the packet");
    }
    return 0;
}

/* The stack bytes [addr, addr + size), if 'addr' is in the stack. */
static uint32_t *
stack_tags(struct checked *c, uintptr_t addr)
{
    uintptr_t base = (uintptr_t) c->stack;
    return addr >= base && addr < base + sizeof c->stack
               ? &c->stack_tag[addr - base]
               : NULL;
}

/* Checks that [addr, addr + size) holds no pointer byte. */
static int
check_no_pointer(struct checked *c, int pc, uintptr_t addr, uint64_t size,
                 const char *what)
{
    uint32_t *tags = stack_tags(c, addr);
    for (uint64_t i = 0; tags && i < size; i++) {
        if (tags[i] != OBJ_NUMBER) {
            return trap(c, pc, "%s holds part of %s", what, tag_name(tags[i]));
        }
    }
    return 0;
}

static uint32_t
alu_tag(int op, bool is64, uint32_t dst, uint32_t src)
{
    if (op == 0xb0) {
        return is64 ? src : (src == OBJ_NUMBER ? OBJ_NUMBER : OBJ_MIXED);
    }
    if (dst == OBJ_NUMBER && src == OBJ_NUMBER) {
        return OBJ_NUMBER;
    }
    if (is64 && op == 0x00 && (dst == OBJ_NUMBER || src == OBJ_NUMBER)) {
        /* pointer + number */
        return dst == OBJ_NUMBER ? src : dst;
    }
    if (is64 && op == 0x10 && src == OBJ_NUMBER) {
        /* pointer - number */
        return dst;
    }
    if (is64 && op == 0x10 && dst == src && dst >= OBJ_PACKET
        && dst != OBJ_MAP) {
        /* within one object */
        return OBJ_NUMBER;
    }
    return OBJ_MIXED;
}

/* A helper's memory argument: 'size' bytes at reg[regno] in its object,
 * holding no pointer. */
static int
check_mem_arg(struct checked *c, int pc, int regno, uint64_t size)
{
    struct region r;
    uintptr_t addr = (uintptr_t) c->reg[regno];
    if (!size) {
        return 0;
    }
    if (!region_of(c, c->tag[regno], &r) || addr < r.start
        || addr - r.start > r.size || size > r.size - (addr - r.start)) {
        return trap(c, pc,
                    "helper argument r%d (%s) does not point to %llu bytes of "
                    "its object",
                    regno, tag_name(c->tag[regno]), (unsigned long long) size);
    }
    return check_no_pointer(c, pc, addr, size, "a helper's data argument");
}

static int
do_call(struct checked *c, int pc, const struct oko_insn *insn)
{
    const struct oko_helper_proto *proto = oko_helper_proto(insn->imm);
    const struct oko_map_decl *decl = NULL;
    if (!proto) {
        return trap(c, pc, "call of unknown helper %d", insn->imm);
    }
    for (int i = 0; i < 5; i++) {
        int regno = i + 1;
        int err = 0;
        switch (proto->args[i]) {
        case OKO_ARG_MAP:
            if (c->tag[regno] != OBJ_MAP) {
                return trap(c, pc, "map argument r%d holds %s", regno,
                            tag_name(c->tag[regno]));
            }
            decl = oko_map_get_decl(
                (struct oko_map *) (uintptr_t) c->reg[regno]);
            break;
        case OKO_ARG_KEY:
            err = check_mem_arg(c, pc, regno, decl->key_size);
            break;
        case OKO_ARG_VALUE:
            err = check_mem_arg(c, pc, regno, decl->value_size);
            break;
        case OKO_ARG_MEM_SIZE:
            if (c->tag[regno] != OBJ_NUMBER) {
                return trap(c, pc, "size argument r%d holds %s", regno,
                            tag_name(c->tag[regno]));
            }
            err = check_mem_arg(c, pc, regno - 1, c->reg[regno]);
            break;
        case OKO_ARG_SCALAR:
            if (c->tag[regno] != OBJ_NUMBER) {
                return trap(c, pc, "number argument r%d holds %s", regno,
                            tag_name(c->tag[regno]));
            }
            break;
        case OKO_ARG_MEM:
        case OKO_ARG_NONE:
            break;
        }
        if (err) {
            return err;
        }
    }
    uint64_t r0 = oko_helper_table[insn->imm](c->reg[1], c->reg[2], c->reg[3],
                                              c->reg[4], c->reg[5]);
    for (int r = 1; r <= 5; r++) {
        /* clobbered: the verifier forgets them */
        c->tag[r] = OBJ_NUMBER;
        c->reg[r] = 0xdead0000 + r;
    }
    c->reg[0] = r0;
    c->tag[0] = OBJ_NUMBER;
    if (proto->ret == OKO_RET_MAP_VALUE_OR_NULL && r0) {
        if (c->n_values == MAX_VALUES) {
            return trap(c, pc, "more lookups than instructions");
        }
        c->values[c->n_values]
            = (struct region){ (uintptr_t) r0, decl->value_size };
        c->tag[0] = OBJ_VALUE + c->n_values++;
    }
    return 0;
}

static int
run(struct checked *c, const struct oko_program *prog,
    struct oko_map *const maps[], const uint8_t *explored, uint64_t *r0)
{
    for (size_t pc = 0; pc < prog->n_insns; pc++) {
        const struct oko_insn *insn = &c->insns[pc];
        int cls = insn->opcode & 0x07, op = insn->opcode & 0xf0;
        int size = size_bytes(insn->opcode & 0x18);
        uintptr_t addr;
        int err = 0;

        if (explored && !explored[pc]) {
            return trap(c, pc,
                        "runs an instruction the verifier never explored");
        }
        switch (cls) {
        case CLASS_ALU:
        case CLASS_ALU64: {
            bool is64 = cls == CLASS_ALU64;
            uint32_t *dtag = &c->tag[insn->dst];
            if (op == OP_END) {
                c->reg[insn->dst]
                    = oko_isa_endian(is64 || (insn->opcode & SRC_X), insn->imm,
                                     c->reg[insn->dst]);
                *dtag = *dtag == OBJ_NUMBER ? OBJ_NUMBER : OBJ_MIXED;
                break;
            }
            bool x = insn->opcode & SRC_X;
            uint64_t src
                = x ? c->reg[insn->src] : (uint64_t) (int64_t) insn->imm;
            uint32_t stag = x ? c->tag[insn->src] : OBJ_NUMBER;
            if (op == 0x80) {
                stag = OBJ_NUMBER;
            }
            c->reg[insn->dst]
                = oko_isa_alu(op, insn->off, is64, c->reg[insn->dst], src);
            *dtag = op == 0xb0 && insn->off ? (stag ? OBJ_MIXED : OBJ_NUMBER)
                                            : alu_tag(op, is64, *dtag, stag);
            break;
        }
        case CLASS_JMP:
        case CLASS_JMP32:
            if (op == OP_EXIT) {
                if (c->tag[0] != OBJ_NUMBER) {
                    return trap(c, pc, "r0 holds %s at exit",
                                tag_name(c->tag[0]));
                }
                *r0 = c->reg[0];
                return 0;
            }
            if (op == OP_CALL) {
                err = do_call(c, pc, insn);
                break;
            }
            if (op == OP_JA) {
                pc += oko_isa_jump_delta(insn);
                break;
            }
            if (oko_isa_jump_taken(op, cls == CLASS_JMP, c->reg[insn->dst],
                                   insn->opcode & SRC_X
                                       ? c->reg[insn->src]
                                       : (uint64_t) (int64_t) insn->imm)) {
                pc += insn->off;
            }
            break;
        case CLASS_LD:
            if (insn->src == OKO_PSEUDO_MAP_INDEX) {
                c->reg[insn->dst] = (uintptr_t) maps[insn->imm];
                c->tag[insn->dst] = OBJ_MAP;
            } else {
                c->reg[insn->dst] = (uint32_t) insn->imm
                                    | (uint64_t) (uint32_t) insn[1].imm << 32;
                c->tag[insn->dst] = OBJ_NUMBER;
            }
            pc++;
            break;
        case CLASS_LDX: {
            err = check_access(c, pc, insn->src, insn->off, size, false,
                               &addr);
            if (err) {
                break;
            }
            uint64_t v = 0;
            memcpy(&v, (const void *) addr, size);
            if ((insn->opcode & 0xe0) == MODE_MEMSX) {
                v = oko_isa_alu(0xb0, size * 8, 1, 0, v);
            }
            c->reg[insn->dst] = v;
            c->tag[insn->dst] = OBJ_NUMBER;
            uint32_t *tags = stack_tags(c, addr);
            if (tags && tags[0] != OBJ_NUMBER) {
                /* A spilled pointer comes back whole or not at all. */
                bool whole
                    = size == 8 && (addr - (uintptr_t) c->stack) % 8 == 0;
                for (int i = 1; whole && i < 8; i++) {
                    whole = tags[i] == tags[0];
                }
                if (!whole) {
                    return trap(c, pc, "reads part of %s spilled on the stack",
                                tag_name(tags[0]));
                }
                c->tag[insn->dst] = tags[0];
            } else {
                err = check_no_pointer(c, pc, addr, size,
                                       "the stack bytes read");
            }
            break;
        }
        case CLASS_ST:
        case CLASS_STX: {
            bool atomic
                = cls == CLASS_STX && (insn->opcode & 0xe0) == MODE_ATOMIC;
            uint32_t stag = cls == CLASS_STX ? c->tag[insn->src] : OBJ_NUMBER;
            uint64_t value = cls == CLASS_STX ? c->reg[insn->src]
                                              : (uint64_t) (int64_t) insn->imm;
            err = check_access(c, pc, insn->dst, insn->off, size, true, &addr);
            if (err) {
                break;
            }
            if (stag != OBJ_NUMBER && (atomic || !stack_tags(c, addr))) {
                return trap(c, pc, "stores %s %s", tag_name(stag),
                            atomic ? "with an atomic operation"
                                   : "outside the stack");
            }
            uint32_t *tags = stack_tags(c, addr);
            if (atomic) {
                err = check_no_pointer(c, pc, addr, size,
                                       "the atomic operation's target");
                if (err) {
                    break;
                }
                if ((insn->imm == ATOMIC_CMPXCHG && c->tag[0] != OBJ_NUMBER)) {
                    return trap(c, pc, "cmpxchg compares with %s",
                                tag_name(c->tag[0]));
                }
                oko_isa_atomic(insn, (void *) addr, c->reg);
                break;
            }
            memcpy((void *) addr, &value, size);
            for (int i = 0; tags && i < size; i++) {
                tags[i] = stag;
            }
            if (tags && stag == OBJ_NUMBER) {
                /* Overwriting part of a spilled pointer leaves its other
                 * bytes as a number: only a whole 8-byte overwrite may. */
                uintptr_t slot = (addr - (uintptr_t) c->stack) / 8 * 8;
                uintptr_t end
                    = (addr - (uintptr_t) c->stack + size + 7) / 8 * 8;
                for (uintptr_t b = slot; b < end; b++) {
                    if (c->stack_tag[b] != OBJ_NUMBER) {
                        return trap(c, pc,
                                    "overwrites part of %s spilled on the "
                                    "stack",
                                    tag_name(c->stack_tag[b]));
                    }
                }
            }
            break;
        }
        default:
            return trap(c, pc, "unknown instruction class");
        }
        if (err) {
            return err;
        }
    }
    return trap(c, prog->n_insns - 1, "ran past the last instruction");
}

int
oko_checked_run(const struct oko_program *prog, struct oko_map *const maps[],
                const uint8_t *explored, const void *pkt, uint64_t len,
                uint64_t *r0, char error[OKO_ERROR_MAX])
{
    /* large; the fuzzer runs one at a time */
    static __thread struct checked c;
    memset(&c, 0, sizeof c);
    c.insns = prog->insns;
    c.origin = prog->origin;
    c.error = error;
    c.reg[1] = (uintptr_t) pkt;
    c.tag[1] = OBJ_PACKET;
    c.reg[2] = len;
    c.reg[10] = (uintptr_t) c.stack + sizeof c.stack;
    c.tag[10] = OBJ_STACK;
    c.packet = (struct region) { (uintptr_t) pkt, len };
    error[0] = '\0';
    return run(&c, prog, maps, explored, r0);
}
