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
#ifndef OKO_SCALAR_H
#define OKO_SCALAR_H 1

/* The verifier's abstract domain for one 64-bit number (internal to the
 * runtime).
 *
 * An abstract scalar stands for a set of 64-bit values: those that agree
 * with its known bits (a "tnum": bit i is known iff mask bit i is 0, and
 * then it equals value bit i) and lie within each of four ranges: unsigned
 * and signed over the 64 bits, unsigned and signed over the low 32 bits.
 * Every operation keeps all five consistent (oko_scalar_normalize), so that
 * a fact learned in one view (a signed compare, a 32-bit one, an 'and') is
 * seen by the others.
 *
 * Soundness is the only contract: if x is in A and y in B then
 * op(x, y) is in oko_scalar_alu(op, A, B); a branch narrows A and B only by
 * values that cannot take it.  Precision is best effort.  tests/test-scalar.c
 * checks both claims against oko_isa_alu() and oko_isa_jump_taken(). */

#include <stdbool.h>
#include <stdint.h>

struct oko_tnum {
    uint64_t value;                 /* known bits (0 where unknown) */
    uint64_t mask;                  /* unknown bits */
};

struct oko_scalar {
    struct oko_tnum t;
    uint64_t umin, umax;
    int64_t smin, smax;
    uint32_t u32min, u32max;
    int32_t s32min, s32max;
};

/* Relations of a conditional jump: "a REL b" (the jump's condition, or its
 * negation on the fall-through path). */
enum oko_rel {
    OKO_REL_EQ,
    OKO_REL_NE,
    OKO_REL_GT,
    OKO_REL_GE,
    OKO_REL_LT,
    OKO_REL_LE,
    OKO_REL_SGT,
    OKO_REL_SGE,
    OKO_REL_SLT,
    OKO_REL_SLE,
    OKO_REL_SET,
    OKO_REL_NSET,
};

struct oko_scalar oko_scalar_const(uint64_t);
struct oko_scalar oko_scalar_unknown(void);
struct oko_scalar oko_scalar_urange(uint64_t lo, uint64_t hi);

bool oko_scalar_is_const(const struct oko_scalar *);
bool oko_scalar_contains(const struct oko_scalar *, uint64_t);
/* Is every value of 'new' also in 'old'? */
bool oko_scalar_covers(const struct oko_scalar *old,
                       const struct oko_scalar *new);

/* Tightens every view by the others; false if no value is left. */
bool oko_scalar_normalize(struct oko_scalar *);
/* 'a' becomes the values in both; false if none. */
bool oko_scalar_meet(struct oko_scalar *a, const struct oko_scalar *b);
/* The smallest abstract value holding both. */
struct oko_scalar oko_scalar_join(const struct oko_scalar *,
                                  const struct oko_scalar *);

/* ALU and ALU64 operations with oko_isa_alu()'s semantics: 'op' is the
 * opcode's high nibble (0x00 add ... 0xc0 arsh, 0x80 neg, 0xb0 mov/movsx),
 * 'off' the instruction's offset field (signed div/mod, movsx width). */
struct oko_scalar oko_scalar_alu(int op, int off, bool is64,
                                 const struct oko_scalar *dst,
                                 const struct oko_scalar *src);
/* END with oko_isa_endian()'s semantics. */
struct oko_scalar oko_scalar_endian(bool swap, int width,
                                    const struct oko_scalar *);

/* Narrows 'a' and 'b' to the values for which "a REL b" can hold, over 64
 * bits or (!is64) their low 32 bits; false if none can.  Neither may be
 * empty on entry. */
bool oko_scalar_relate(enum oko_rel, bool is64, struct oko_scalar *a,
                       struct oko_scalar *b);
/* Does "x REL y" hold (oko_isa_jump_taken's semantics)? */
bool oko_rel_holds(enum oko_rel, bool is64, uint64_t x, uint64_t y);
/* "a REL b" as "b REL' a". */
enum oko_rel oko_rel_flip(enum oko_rel);

#endif /* oko-scalar.h */
