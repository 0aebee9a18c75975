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
/* The verifier's scalar domain: known bits plus four ranges (oko-scalar.h).
 *
 * How the code stays sound:
 *  - Range arithmetic is done on mathematical integers (__int128, which no
 *    bound of a 64-bit operand can overflow) and only then brought back to
 *    the register's width by wrap_u() / wrap_s(), which give up (the whole
 *    width) when the exact interval straddles a wrap point.
 *  - Each operation computes what it can in whichever view is easy and
 *    leaves everything else unknown; oko_scalar_normalize() then derives the
 *    other views, each derivation a fact that every member already obeys.
 *  - 32-bit operations are 64-bit operations on the zero-extended (or, for
 *    arsh and signed div/mod, sign-extended) low halves, then truncated:
 *    the instruction set defines them that way. */

#include "oko-scalar.h"

#include <stddef.h>

#include "oko-isa.h"

typedef __int128 i128;

#define U32_MAX_ UINT64_C(0xffffffff)

/* ---- Known bits ---- */

static struct oko_tnum
tnum(uint64_t value, uint64_t mask)
{
    return (struct oko_tnum) { value & ~mask, mask };
}

static const struct oko_tnum tnum_unknown = { 0, UINT64_MAX };

/* Values in [lo, hi] (unsigned) share the bits above their highest
 * difference. */
static struct oko_tnum
tnum_range(uint64_t lo, uint64_t hi)
{
    uint64_t diff = lo ^ hi;
    if (!diff) {
        return tnum(lo, 0);
    }
    int bits = 64 - __builtin_clzll(diff);
    uint64_t low = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    return tnum(lo, low);
}

/* Known in both: false if a known bit disagrees. */
static bool
tnum_intersect(struct oko_tnum a, struct oko_tnum b, struct oko_tnum *out)
{
    if ((a.value ^ b.value) & ~a.mask & ~b.mask) {
        return false;
    }
    uint64_t mask = a.mask & b.mask;
    *out = tnum(a.value | b.value, mask);
    return true;
}

static struct oko_tnum
tnum_union(struct oko_tnum a, struct oko_tnum b)
{
    return tnum(a.value, a.mask | b.mask | (a.value ^ b.value));
}

/* Addition with carries: the bits where the sum of the smallest and of the
 * largest members differ, or an operand is unknown, are unknown. */
static struct oko_tnum
tnum_add(struct oko_tnum a, struct oko_tnum b)
{
    uint64_t sum_values = a.value + b.value;
    uint64_t sum_max = sum_values + a.mask + b.mask;
    uint64_t unknown = (sum_values ^ sum_max) | a.mask | b.mask;
    return tnum(sum_values, unknown);
}

/* a - b: the difference's smallest borrow pattern is (a.value - (b.value +
 * b.mask)), its largest (a.value + a.mask - b.value). */
static struct oko_tnum
tnum_sub(struct oko_tnum a, struct oko_tnum b)
{
    uint64_t diff = a.value - b.value;
    uint64_t hi = diff + a.mask;
    uint64_t lo = diff - b.mask;
    uint64_t unknown = (hi ^ lo) | a.mask | b.mask;
    return tnum(diff, unknown);
}

static struct oko_tnum
tnum_and(struct oko_tnum a, struct oko_tnum b)
{
    uint64_t may_a = a.value | a.mask, may_b = b.value | b.mask;
    uint64_t value = a.value & b.value;
    return tnum(value, may_a & may_b & ~value);
}

static struct oko_tnum
tnum_or(struct oko_tnum a, struct oko_tnum b)
{
    uint64_t value = a.value | b.value;
    return tnum(value, (a.mask | b.mask) & ~value);
}

static struct oko_tnum
tnum_xor(struct oko_tnum a, struct oko_tnum b)
{
    uint64_t mask = a.mask | b.mask;
    return tnum(a.value ^ b.value, mask);
}

/* Known trailing zero bits. */
static int
tnum_trailing_zeros(struct oko_tnum a)
{
    uint64_t may = a.value | a.mask;
    return may ? __builtin_ctzll(may) : 64;
}

/* A product has at least the trailing zeros of both factors. */
static struct oko_tnum
tnum_mul(struct oko_tnum a, struct oko_tnum b)
{
    if (!a.mask && !b.mask) {
        return tnum(a.value * b.value, 0);
    }
    int zeros = tnum_trailing_zeros(a) + tnum_trailing_zeros(b);
    if (zeros >= 64) {
        return tnum(0, 0);
    }
    return tnum(0, UINT64_MAX << zeros);
}

/* The low 'bits' bits, the rest known zero. */
static struct oko_tnum
tnum_trunc(struct oko_tnum a, int bits)
{
    if (bits == 64) {
        return a;
    }
    uint64_t keep = (UINT64_C(1) << bits) - 1;
    return tnum(a.value & keep, a.mask & keep);
}

/* The low 'bits' bits sign-extended: bit bits-1 copied upwards, known or
 * not. */
static struct oko_tnum
tnum_sext(struct oko_tnum a, int bits)
{
    if (bits == 64) {
        return a;
    }
    int shift = 64 - bits;
    return tnum((uint64_t) ((int64_t) (a.value << shift) >> shift),
                (uint64_t) ((int64_t) (a.mask << shift) >> shift));
}

static bool
tnum_in(struct oko_tnum old, struct oko_tnum new)
{
    return !(new.mask & ~old.mask) && (new.value & ~old.mask) == old.value;
}

/* ---- Ranges ---- */

/* The unsigned range, 'bits' wide, of the integers [lo, hi] taken modulo
 * 2^bits: exact unless the interval straddles a multiple of 2^bits. */
static void
wrap_u(i128 lo, i128 hi, int bits, uint64_t *rlo, uint64_t *rhi)
{
    i128 m = (i128) 1 << bits;
    i128 qlo = lo >= 0 ? lo / m : -((-lo + m - 1) / m);
    i128 qhi = hi >= 0 ? hi / m : -((-hi + m - 1) / m);
    if (qlo != qhi) {
        *rlo = 0;
        *rhi = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
        return;
    }
    *rlo = (uint64_t) (lo - qlo * m);
    *rhi = (uint64_t) (hi - qhi * m);
}

/* The same for the signed reading: [lo, hi] in [-2^(bits-1), 2^(bits-1)). */
static void
wrap_s(i128 lo, i128 hi, int bits, int64_t *rlo, int64_t *rhi)
{
    i128 half = (i128) 1 << (bits - 1);
    uint64_t ulo, uhi;
    wrap_u(lo + half, hi + half, bits, &ulo, &uhi);
    *rlo = (int64_t) ((i128) ulo - half);
    *rhi = (int64_t) ((i128) uhi - half);
}

/* An abstract value with the given known bits and nothing else known
 * (callers then tighten ranges and normalize). */
static struct oko_scalar
from_tnum(struct oko_tnum t)
{
    return (struct oko_scalar) {
        .t = t,
        .umin = 0, .umax = UINT64_MAX,
        .smin = INT64_MIN, .smax = INT64_MAX,
        .u32min = 0, .u32max = UINT32_MAX,
        .s32min = INT32_MIN, .s32max = INT32_MAX,
    };
}

struct oko_scalar
oko_scalar_unknown(void)
{
    return from_tnum(tnum_unknown);
}

struct oko_scalar
oko_scalar_const(uint64_t v)
{
    return (struct oko_scalar) {
        .t = tnum(v, 0),
        .umin = v, .umax = v,
        .smin = (int64_t) v, .smax = (int64_t) v,
        .u32min = (uint32_t) v, .u32max = (uint32_t) v,
        .s32min = (int32_t) v, .s32max = (int32_t) v,
    };
}

struct oko_scalar
oko_scalar_urange(uint64_t lo, uint64_t hi)
{
    struct oko_scalar s = from_tnum(tnum_range(lo, hi));
    s.umin = lo;
    s.umax = hi;
    if (!oko_scalar_normalize(&s)) {
        /* lo > hi: a caller's bug; stay sound */
        return oko_scalar_unknown();
    }
    return s;
}

bool
oko_scalar_is_const(const struct oko_scalar *s)
{
    return !s->t.mask;
}

bool
oko_scalar_contains(const struct oko_scalar *s, uint64_t v)
{
    return (v & ~s->t.mask) == s->t.value
           && v >= s->umin && v <= s->umax
           && (int64_t) v >= s->smin && (int64_t) v <= s->smax
           && (uint32_t) v >= s->u32min && (uint32_t) v <= s->u32max
           && (int32_t) v >= s->s32min && (int32_t) v <= s->s32max;
}

bool
oko_scalar_covers(const struct oko_scalar *old, const struct oko_scalar *new)
{
    return tnum_in(old->t, new->t)
           && old->umin <= new->umin && new->umax <= old->umax
           && old->smin <= new->smin && new->smax <= old->smax
           && old->u32min <= new->u32min && new->u32max <= old->u32max
           && old->s32min <= new->s32min && new->s32max <= old->s32max;
}

#define RAISE(x, v) do { if ((x) < (v)) (x) = (v); } while (0)
#define LOWER(x, v) do { if ((x) > (v)) (x) = (v); } while (0)

/* One round of deductions between the five views. */
static void
deduce(struct oko_scalar *s)
{
    struct oko_tnum t = s->t;
    uint64_t sign = UINT64_C(1) << 63;

    /* Known bits -> ranges: the smallest member has every unknown bit 0
     * (for the signed reading: the sign bit 1 if unknown). */
    RAISE(s->umin, t.value);
    LOWER(s->umax, t.value | t.mask);
    RAISE(s->smin, (int64_t) (t.value | (t.mask & sign)));
    LOWER(s->smax, (int64_t) ((t.value | t.mask) & ~(t.mask & sign)));
    uint32_t v32 = (uint32_t) t.value, m32 = (uint32_t) t.mask,
             sign32 = UINT32_C(1) << 31;
    RAISE(s->u32min, v32);
    LOWER(s->u32max, v32 | m32);
    RAISE(s->s32min, (int32_t) (v32 | (m32 & sign32)));
    LOWER(s->s32max, (int32_t) ((v32 | m32) & ~(m32 & sign32)));

    /* Unsigned <-> signed, when the range does not cross the sign
     * boundary (the two readings then order the members alike). */
    if (!((s->umin ^ s->umax) & sign)) {
        RAISE(s->smin, (int64_t) s->umin);
        LOWER(s->smax, (int64_t) s->umax);
    }
    if ((s->smin ^ s->smax) >= 0) {
        RAISE(s->umin, (uint64_t) s->smin);
        LOWER(s->umax, (uint64_t) s->smax);
    }
    if (!((s->u32min ^ s->u32max) & sign32)) {
        RAISE(s->s32min, (int32_t) s->u32min);
        LOWER(s->s32max, (int32_t) s->u32max);
    }
    if ((s->s32min ^ s->s32max) >= 0) {
        RAISE(s->u32min, (uint32_t) s->s32min);
        LOWER(s->u32max, (uint32_t) s->s32max);
    }

    /* 64 -> 32: members with the same upper half have their low halves in
     * [low(min), low(max)]. */
    if (s->umin >> 32 == s->umax >> 32) {
        RAISE(s->u32min, (uint32_t) s->umin);
        LOWER(s->u32max, (uint32_t) s->umax);
    }
    if (s->smin >> 32 == s->smax >> 32) {
        RAISE(s->u32min, (uint32_t) s->smin);
        LOWER(s->u32max, (uint32_t) s->smax);
        if (!((s->u32min ^ s->u32max) & sign32)) {
            RAISE(s->s32min, (int32_t) s->u32min);
            LOWER(s->s32max, (int32_t) s->u32max);
        }
    }
    /* 32 -> 64: the converse, with the upper half taken from the range. */
    if (s->umin >> 32 == s->umax >> 32 && s->u32min <= s->u32max) {
        uint64_t upper = s->umin & ~U32_MAX_;
        RAISE(s->umin, upper | s->u32min);
        LOWER(s->umax, upper | s->u32max);
    }

    /* Ranges -> known bits. */
    struct oko_tnum r;
    if (s->umin <= s->umax
        && tnum_intersect(s->t, tnum_range(s->umin, s->umax), &r)) {
        s->t = r;
    }
    if (s->u32min <= s->u32max) {
        struct oko_tnum low = tnum_range(s->u32min, s->u32max);
        low.mask |= ~U32_MAX_;
        if (tnum_intersect(s->t, low, &r)) {
            s->t = r;
        }
    }
}

static bool
is_empty(const struct oko_scalar *s)
{
    struct oko_tnum r;
    return s->umin > s->umax || s->smin > s->smax || s->u32min > s->u32max
           || s->s32min > s->s32max
           /* known bits that no member of a range can have */
           || !tnum_intersect(s->t, tnum_range(s->umin, s->umax), &r)
           || !tnum_intersect(tnum_trunc(s->t, 32),
                              tnum_range(s->u32min, s->u32max), &r);
}

bool
oko_scalar_normalize(struct oko_scalar *s)
{
    for (int round = 0; round < 3; round++) {
        struct oko_scalar before = *s;
        deduce(s);
        if (is_empty(s)) {
            return false;
        }
        if (!__builtin_memcmp(&before, s, sizeof before)) {
            break;
        }
    }
    return true;
}

bool
oko_scalar_meet(struct oko_scalar *a, const struct oko_scalar *b)
{
    struct oko_tnum t;
    if (!tnum_intersect(a->t, b->t, &t)) {
        return false;
    }
    a->t = t;
    RAISE(a->umin, b->umin);
    LOWER(a->umax, b->umax);
    RAISE(a->smin, b->smin);
    LOWER(a->smax, b->smax);
    RAISE(a->u32min, b->u32min);
    LOWER(a->u32max, b->u32max);
    RAISE(a->s32min, b->s32min);
    LOWER(a->s32max, b->s32max);
    return oko_scalar_normalize(a);
}

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

struct oko_scalar
oko_scalar_join(const struct oko_scalar *a, const struct oko_scalar *b)
{
    return (struct oko_scalar){
        .t = tnum_union(a->t, b->t),
        .umin = MIN(a->umin, b->umin),
        .umax = MAX(a->umax, b->umax),
        .smin = MIN(a->smin, b->smin),
        .smax = MAX(a->smax, b->smax),
        .u32min = MIN(a->u32min, b->u32min),
        .u32max = MAX(a->u32max, b->u32max),
        .s32min = MIN(a->s32min, b->s32min),
        .s32max = MAX(a->s32max, b->s32max),
    };
}

/* Normalizes an operation's result; an empty result would mean a bug in a
 * transfer function, and then nothing is claimed about it. */
static struct oko_scalar
result(struct oko_scalar r)
{
    if (!oko_scalar_normalize(&r)) {
        return oko_scalar_unknown();
    }
    return r;
}

/* ---- Views of the low half ---- */

/* Known bits 't' and the 32-bit ranges of 'a' (its low half, extended). */
static struct oko_scalar
low_half_of(struct oko_tnum t, const struct oko_scalar *a)
{
    struct oko_scalar r = from_tnum(t);
    r.u32min = a->u32min;
    r.u32max = a->u32max;
    r.s32min = a->s32min;
    r.s32max = a->s32max;
    return r;
}

static struct oko_scalar
zext32(const struct oko_scalar *a)
{
    struct oko_scalar r = low_half_of(tnum_trunc(a->t, 32), a);
    r.umin = a->u32min;
    r.umax = a->u32max;
    return result(r);
}

static struct oko_scalar
sext32(const struct oko_scalar *a)
{
    struct oko_scalar r = low_half_of(tnum_sext(a->t, 32), a);
    r.smin = a->s32min;
    r.smax = a->s32max;
    return result(r);
}

/* The low 'bits' bits, zero-extended. */
static struct oko_scalar
trunc_to(const struct oko_scalar *a, int bits)
{
    if (bits == 64) {
        return *a;
    }
    if (bits == 32) {
        return zext32(a);
    }
    struct oko_scalar r = from_tnum(tnum_trunc(a->t, bits));
    uint64_t keep = (UINT64_C(1) << bits) - 1;
    if (a->umin >> bits == a->umax >> bits) {
        r.umin = a->umin & keep;
        r.umax = a->umax & keep;
    } else {
        r.umax = keep;
    }
    return result(r);
}

/* The low 'bits' bits, sign-extended to 64. */
static struct oko_scalar
sext_from(const struct oko_scalar *a, int bits)
{
    if (bits == 32) {
        return sext32(a);
    }
    int64_t lo = -((int64_t) 1 << (bits - 1)),
            hi = ((int64_t) 1 << (bits - 1)) - 1;
    if (a->smin >= lo && a->smax <= hi) {
        return *a;                          /* already such a number */
    }
    struct oko_scalar r = from_tnum(tnum_sext(a->t, bits));
    r.smin = lo;
    r.smax = hi;
    return result(r);
}

/* ---- 64-bit operations ---- */

/* The exact integer intervals of a result in each view, before wrapping. */
struct exact {
    i128 umin, umax, smin, smax, u32min, u32max, s32min, s32max;
};

/* An abstract value with known bits 't' and each view's exact interval
 * wrapped to its width. */
static struct oko_scalar
from_exact(struct oko_tnum t, const struct exact *e)
{
    struct oko_scalar r = from_tnum(t);
    uint64_t lo, hi;
    int64_t slo, shi;
    wrap_u(e->umin, e->umax, 64, &r.umin, &r.umax);
    wrap_s(e->smin, e->smax, 64, &r.smin, &r.smax);
    wrap_u(e->u32min, e->u32max, 32, &lo, &hi);
    r.u32min = lo;
    r.u32max = hi;
    wrap_s(e->s32min, e->s32max, 32, &slo, &shi);
    r.s32min = slo;
    r.s32max = shi;
    return result(r);
}

static struct oko_scalar
add64(const struct oko_scalar *a, const struct oko_scalar *b)
{
    struct exact e = {
        (i128) a->umin + b->umin, (i128) a->umax + b->umax,
        (i128) a->smin + b->smin, (i128) a->smax + b->smax,
        (i128) a->u32min + b->u32min, (i128) a->u32max + b->u32max,
        (i128) a->s32min + b->s32min, (i128) a->s32max + b->s32max,
    };
    return from_exact(tnum_add(a->t, b->t), &e);
}

static struct oko_scalar
sub64(const struct oko_scalar *a, const struct oko_scalar *b)
{
    struct exact e = {
        (i128) a->umin - b->umax, (i128) a->umax - b->umin,
        (i128) a->smin - b->smax, (i128) a->smax - b->smin,
        (i128) a->u32min - b->u32max, (i128) a->u32max - b->u32min,
        (i128) a->s32min - b->s32max, (i128) a->s32max - b->s32min,
    };
    return from_exact(tnum_sub(a->t, b->t), &e);
}

static struct oko_scalar
mul64(const struct oko_scalar *a, const struct oko_scalar *b)
{
    struct oko_scalar r = from_tnum(tnum_mul(a->t, b->t));
    unsigned __int128 hi = (unsigned __int128) a->umax * b->umax;
    if (hi <= UINT64_MAX) {
        r.umin = a->umin * b->umin;
        r.umax = (uint64_t) hi;
    }
    /* Signed: the extremes are among the corner products, each below
     * 2^126 in magnitude. */
    i128 c[4] = {
        (i128) a->smin * b->smin, (i128) a->smin * b->smax,
        (i128) a->smax * b->smin, (i128) a->smax * b->smax,
    };
    i128 lo = c[0], top = c[0];
    for (int i = 1; i < 4; i++) {
        lo = MIN(lo, c[i]);
        top = MAX(top, c[i]);
    }
    wrap_s(lo, top, 64, &r.smin, &r.smax);
    uint64_t ulo, uhi;
    wrap_u((i128) a->u32min * b->u32min, (i128) a->u32max * b->u32max, 32,
           &ulo, &uhi);
    r.u32min = ulo;
    r.u32max = uhi;
    return result(r);
}

/* Unsigned division and modulo (x / 0 = 0, x % 0 = x). */
static struct oko_scalar
udiv64(const struct oko_scalar *a, const struct oko_scalar *b)
{
    if (b->umax == 0) {
        return oko_scalar_const(0);
    }
    if (b->umin == 0) {
        return oko_scalar_urange(0, a->umax);
    }
    return oko_scalar_urange(a->umin / b->umax, a->umax / b->umin);
}

static struct oko_scalar
umod64(const struct oko_scalar *a, const struct oko_scalar *b)
{
    if (b->umax == 0 || a->umax < b->umin) {
        /* x % 0 = x; x % y = x for x < y */
        return *a;
    }
    if (b->umin == 0) {
        return oko_scalar_urange(0, a->umax);
    }
    return oko_scalar_urange(0, MIN(a->umax, b->umax - 1));
}

static struct oko_scalar
shift_const(int op, const struct oko_scalar *a, int k)
{
    struct oko_scalar r;
    switch (op) {
    case 0x60:                              /* lsh */
        r = from_tnum(tnum(a->t.value << k, a->t.mask << k));
        if (!k || !(a->umax >> (64 - k))) {
            r.umin = a->umin << k;
            r.umax = a->umax << k;
        }
        break;
    case 0x70:                              /* rsh */
        r = from_tnum(tnum(a->t.value >> k, a->t.mask >> k));
        r.umin = a->umin >> k;
        r.umax = a->umax >> k;
        break;
    default:                                /* arsh */
        r = from_tnum(tnum((uint64_t) ((int64_t) a->t.value >> k),
                           (uint64_t) ((int64_t) a->t.mask >> k)));
        r.smin = a->smin >> k;
        r.smax = a->smax >> k;
        break;
    }
    return result(r);
}

/* A shift by each count in [kmin, kmax], joined. */
static struct oko_scalar
shift64(int op, const struct oko_scalar *a, int kmin, int kmax)
{
    struct oko_scalar r = shift_const(op, a, kmin);
    for (int k = kmin + 1; k <= kmax; k++) {
        struct oko_scalar x = shift_const(op, a, k);
        r = oko_scalar_join(&r, &x);
    }
    return result(r);
}

/* The counts a shift can use: the operand masked to 'bits' - 1. */
static void
shift_counts(const struct oko_scalar *b, int bits, int *kmin, int *kmax)
{
    if (b->umax < (uint64_t) bits) {
        *kmin = b->umin;
        *kmax = b->umax;
    } else {
        *kmin = 0;
        *kmax = bits - 1;
    }
}

static struct oko_scalar
alu64(int op, int off, const struct oko_scalar *a, const struct oko_scalar *b)
{
    int kmin, kmax;
    switch (op) {
    case 0x00: return add64(a, b);
    case 0x10: return sub64(a, b);
    case 0x20: return mul64(a, b);
    case 0x30: return off == 1 ? oko_scalar_unknown() : udiv64(a, b);
    case 0x40: {
        struct oko_scalar r = from_tnum(tnum_or(a->t, b->t));
        r.umin = MAX(a->umin, b->umin);     /* x | y >= x, y */
        return result(r);
    }
    case 0x50: {
        struct oko_scalar r = from_tnum(tnum_and(a->t, b->t));
        r.umax = MIN(a->umax, b->umax);     /* x & y <= x, y */
        return result(r);
    }
    case 0x60: case 0x70: case 0xc0:
        shift_counts(b, 64, &kmin, &kmax);
        return shift64(op, a, kmin, kmax);
    case 0x80: {
        struct oko_scalar zero = oko_scalar_const(0);
        return sub64(&zero, a);
    }
    case 0x90: return off == 1 ? oko_scalar_unknown() : umod64(a, b);
    case 0xa0: return result(from_tnum(tnum_xor(a->t, b->t)));
    case 0xb0: return off ? sext_from(b, off) : *b;
    default: return oko_scalar_unknown();
    }
}

/* 32-bit: the same on the low halves, truncated. */
static struct oko_scalar
alu32(int op, int off, const struct oko_scalar *a, const struct oko_scalar *b)
{
    struct oko_scalar x, y = zext32(b), r;
    int kmin, kmax;
    bool signed_op = op == 0xc0 || ((op == 0x30 || op == 0x90) && off == 1);
    x = signed_op ? sext32(a) : zext32(a);
    switch (op) {
    case 0x60: case 0x70: case 0xc0:
        shift_counts(&y, 32, &kmin, &kmax);
        r = shift64(op, &x, kmin, kmax);
        break;
    case 0x30: case 0x90:
        if (off == 1) {
            /* a signed 32-bit quotient: any low half */
            r = oko_scalar_unknown();
        } else {
            r = alu64(op, 0, &x, &y);
        }
        break;
    case 0xb0:
        /* movsx to 32 bits, then zero-extended */
        r = off ? sext_from(b, off) : *b;
        break;
    default:
        r = alu64(op, off, &x, &y);
        break;
    }
    return zext32(&r);
}

struct oko_scalar
oko_scalar_alu(int op, int off, bool is64, const struct oko_scalar *dst,
               const struct oko_scalar *src)
{
    if (op != 0xb0 && oko_scalar_is_const(dst) && oko_scalar_is_const(src)) {
        return oko_scalar_const(
            oko_isa_alu(op, off, is64, dst->t.value, src->t.value));
    }
    if (op == 0xb0 && oko_scalar_is_const(src)) {
        return oko_scalar_const(oko_isa_alu(op, off, is64, 0, src->t.value));
    }
    return is64 ? alu64(op, off, dst, src) : alu32(op, off, dst, src);
}

static uint64_t
bswap(int width, uint64_t v)
{
    return oko_isa_endian(1, width, v);
}

struct oko_scalar
oko_scalar_endian(bool swap, int width, const struct oko_scalar *a)
{
    struct oko_scalar low = trunc_to(a, width);
    if (!swap) {
        return low;
    }
    /* A byte swap moves each known bit to a known place: exact on known
     * bits; the ranges follow from them. */
    return result(
        from_tnum(tnum(bswap(width, low.t.value), bswap(width, low.t.mask))));
}

/* ---- Relations ---- */

bool
oko_rel_holds(enum oko_rel rel, bool is64, uint64_t x, uint64_t y)
{
    static const int ops[] = {
        [OKO_REL_EQ] = 0x10, [OKO_REL_GT] = 0x20, [OKO_REL_GE] = 0x30,
        [OKO_REL_SET] = 0x40, [OKO_REL_NE] = 0x50, [OKO_REL_SGT] = 0x60,
        [OKO_REL_SGE] = 0x70, [OKO_REL_LT] = 0xa0, [OKO_REL_LE] = 0xb0,
        [OKO_REL_SLT] = 0xc0, [OKO_REL_SLE] = 0xd0,
    };
    if (rel == OKO_REL_NSET) {
        return !oko_isa_jump_taken(0x40, is64, x, y);
    }
    return oko_isa_jump_taken(ops[rel], is64, x, y);
}

enum oko_rel
oko_rel_flip(enum oko_rel rel)
{
    switch (rel) {
    case OKO_REL_GT: return OKO_REL_LT;
    case OKO_REL_GE: return OKO_REL_LE;
    case OKO_REL_LT: return OKO_REL_GT;
    case OKO_REL_LE: return OKO_REL_GE;
    case OKO_REL_SGT: return OKO_REL_SLT;
    case OKO_REL_SGE: return OKO_REL_SLE;
    case OKO_REL_SLT: return OKO_REL_SGT;
    case OKO_REL_SLE: return OKO_REL_SGE;
    case OKO_REL_EQ: case OKO_REL_NE: case OKO_REL_SET: case OKO_REL_NSET:
    default:
        return rel;
    }
}

/* One width's ranges of a scalar, as signed 128-bit integers so that "+1"
 * and "-1" at the ends cannot overflow. */
struct view {
    i128 umin, umax, smin, smax;
};

static struct view
view_of(const struct oko_scalar *s, bool is64)
{
    if (is64) {
        return (struct view) { s->umin, s->umax, s->smin, s->smax };
    }
    return (struct view) { s->u32min, s->u32max, s->s32min, s->s32max };
}

/* Writes a narrowed view back; false if it is empty. */
static bool
set_view(struct oko_scalar *s, bool is64, const struct view *v)
{
    if (v->umin > v->umax || v->smin > v->smax) {
        return false;
    }
    if (is64) {
        s->umin = v->umin;
        s->umax = v->umax;
        s->smin = v->smin;
        s->smax = v->smax;
    } else {
        s->u32min = v->umin;
        s->u32max = v->umax;
        s->s32min = v->smin;
        s->s32max = v->smax;
    }
    return oko_scalar_normalize(s);
}

/* The known bits of the compared width: the upper half unknown for 32. */
static struct oko_tnum
compared_bits(const struct oko_scalar *s, bool is64)
{
    if (is64) {
        return s->t;
    }
    return tnum(s->t.value & U32_MAX_, s->t.mask | ~U32_MAX_);
}

static bool
is_single(const struct oko_scalar *s, bool is64, uint64_t *v)
{
    struct oko_tnum t = compared_bits(s, is64);
    uint64_t width_mask = is64 ? UINT64_MAX : U32_MAX_;
    if (t.mask & width_mask) {
        return false;
    }
    *v = t.value & width_mask;
    return true;
}

/* "a & b == 0" (set = false) or "!= 0" (set = true), for a constant b. */
static bool
relate_bits(bool set, bool is64, struct oko_scalar *a, uint64_t c)
{
    if (!is64) {
        c &= U32_MAX_;
    }
    if (!set) {
        if (a->t.value & c) {
            return false;                   /* a known 1 bit is tested */
        }
        a->t.mask &= ~c;                    /* every tested bit is 0 */
        return oko_scalar_normalize(a);
    }
    if (!((a->t.value | a->t.mask) & c)) {
        return false;                       /* no tested bit can be 1 */
    }
    if (c && !(c & (c - 1)) && (a->t.mask & c)) {
        a->t.value |= c;                    /* one bit tested: it is 1 */
        a->t.mask &= ~c;
        return oko_scalar_normalize(a);
    }
    return true;
}

bool
oko_scalar_relate(enum oko_rel rel, bool is64, struct oko_scalar *a,
                  struct oko_scalar *b)
{
    struct view x = view_of(a, is64), y = view_of(b, is64);
    uint64_t ca = 0, cb = 0;
    bool a_single = is_single(a, is64, &ca),
         b_single = is_single(b, is64, &cb);

    if (a_single && b_single) {
        return oko_rel_holds(rel, is64, ca, cb);
    }
    switch (rel) {
    case OKO_REL_EQ:
        if (is64) {
            /* Both are the same value: each is in the other. */
            if (!oko_scalar_meet(a, b)) {
                return false;
            }
            *b = *a;
            return true;
        } else {
            /* Only the low halves are equal: meet their known bits and
             * 32-bit ranges. */
            struct oko_tnum t;
            if (!tnum_intersect(compared_bits(a, false),
                                compared_bits(b, false), &t)) {
                return false;
            }
            struct view m = {
                MAX(x.umin, y.umin),
                MIN(x.umax, y.umax),
                MAX(x.smin, y.smin),
                MIN(x.smax, y.smax),
            };
            struct oko_scalar low = from_tnum(t);
            return set_view(a, false, &m) && set_view(b, false, &m)
                   && oko_scalar_meet(a, &low) && oko_scalar_meet(b, &low);
        }
    case OKO_REL_NE:
        /* Only an end of a range equal to the other's single value moves. */
        if (b_single) {
            i128 c = cb, sc = is64 ? (i128) (int64_t) cb : (i128) (int32_t) cb;
            if (x.umin == c) {
                x.umin++;
            }
            if (x.umax == c) {
                x.umax--;
            }
            if (x.smin == sc) {
                x.smin++;
            }
            if (x.smax == sc) {
                x.smax--;
            }
            return set_view(a, is64, &x);
        }
        if (a_single) {
            return oko_scalar_relate(rel, is64, b, a);
        }
        return true;
    case OKO_REL_LT:
        y.umin = MAX(y.umin, x.umin + 1);
        x.umax = MIN(x.umax, y.umax - 1);
        break;
    case OKO_REL_LE:
        y.umin = MAX(y.umin, x.umin);
        x.umax = MIN(x.umax, y.umax);
        break;
    case OKO_REL_SLT:
        y.smin = MAX(y.smin, x.smin + 1);
        x.smax = MIN(x.smax, y.smax - 1);
        break;
    case OKO_REL_SLE:
        y.smin = MAX(y.smin, x.smin);
        x.smax = MIN(x.smax, y.smax);
        break;
    case OKO_REL_GT: case OKO_REL_GE: case OKO_REL_SGT: case OKO_REL_SGE:
        return oko_scalar_relate(oko_rel_flip(rel), is64, b, a);
    case OKO_REL_SET: case OKO_REL_NSET: {
        bool set = rel == OKO_REL_SET;
        struct oko_tnum ta = compared_bits(a, is64),
                        tb = compared_bits(b, is64);
        if (b_single) {
            return relate_bits(set, is64, a, cb);
        }
        if (a_single) {
            return relate_bits(set, is64, b, ca);
        }
        if (set) {
            return ((ta.value | ta.mask) & (tb.value | tb.mask)) != 0;
        }
        return !(ta.value & tb.value);
    }
    default:
        return true;
    }
    return set_view(a, is64, &x) && set_view(b, is64, &y);
}
