/* The verifier's scalar domain (src/oko-scalar.c) against the instruction
 * set's own arithmetic (oko_isa_alu, oko_isa_endian, oko_isa_jump_taken):
 * for abstract inputs A and B and concrete x in A, y in B,
 *  - op(x, y) must lie in the abstract op(A, B), for every ALU and ALU32
 *    opcode (with both div/mod signednesses and every movsx width) and
 *    every byte swap;
 *  - if "x REL y" holds, narrowing A and B by REL must keep x and y, for
 *    every relation at 64 and 32 bits (so a branch is dropped only when no
 *    member can take it).
 * Inputs come exhaustively from three-bit windows of known/unknown bits at
 * the places where widths meet (bits 0-2, 29-31, 30-32, 61-63) and randomly
 * from joins and narrowings of values around 0, 2^31, 2^32, 2^63, 2^64. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>

#include "oko-isa.h"
#include "oko-scalar.h"
#include "util.h"

#define MAX_MEMBERS 24

struct sample {
    struct oko_scalar a;
    uint64_t members[MAX_MEMBERS];
    int n;
};

static unsigned long checks, failures;

static uint64_t
rnd64(unsigned *seed)
{
    return (uint64_t) rand_r(seed) << 42 ^ (uint64_t) rand_r(seed) << 21
           ^ rand_r(seed);
}

static void
add_member(struct sample *s, uint64_t v)
{
    if (s->n < MAX_MEMBERS && oko_scalar_contains(&s->a, v)) {
        for (int i = 0; i < s->n; i++) {
            if (s->members[i] == v) {
                return;
            }
        }
        s->members[s->n++] = v;
    }
}

/* Members of 's->a' drawn from its known bits. */
static void
draw_members(struct sample *s, unsigned *seed, int tries)
{
    for (int i = 0; i < tries; i++) {
        add_member(s, s->a.t.value | (rnd64(seed) & s->a.t.mask));
    }
    add_member(s, s->a.umin);
    add_member(s, s->a.umax);
    add_member(s, (uint64_t) s->a.smin);
    add_member(s, (uint64_t) s->a.smax);
}

static uint64_t
interesting(unsigned *seed)
{
    static const uint64_t bases[] = {
        0,
        UINT64_C(1) << 31,
        UINT64_C(1) << 32,
        UINT64_C(1) << 63,
        0,
        64,
        1500,
        65535,
    };
    switch (rand_r(seed) % 6) {
    case 0: return rnd64(seed);
    case 1: return (uint32_t) rnd64(seed);
    case 2: return rand_r(seed) % 70;
    default:
        return bases[rand_r(seed) % 8]
               + (uint64_t) (int64_t) (rand_r(seed) % 7 - 3);
    }
}

static const enum oko_rel all_rels[] = {
    OKO_REL_EQ,  OKO_REL_NE,  OKO_REL_GT,  OKO_REL_GE,
    OKO_REL_LT,  OKO_REL_LE,  OKO_REL_SGT, OKO_REL_SGE,
    OKO_REL_SLT, OKO_REL_SLE, OKO_REL_SET, OKO_REL_NSET,
};
#define N_RELS (sizeof all_rels / sizeof *all_rels)

/* A random abstract value: a join of a few interesting numbers, sometimes
 * narrowed by a comparison with another, sometimes from random known bits. */
static struct sample
random_sample(unsigned *seed)
{
    struct sample s = { .n = 0 };
    if (rand_r(seed) % 5 == 0) {
        uint64_t mask = rnd64(seed) & rnd64(seed);
        s.a = oko_scalar_unknown();
        s.a.t.value = rnd64(seed) & ~mask;
        s.a.t.mask = mask;
        oko_scalar_normalize(&s.a);
        draw_members(&s, seed, 16);
        return s;
    }
    uint64_t v[4];
    int k = 1 + rand_r(seed) % 4;
    s.a = oko_scalar_const(v[0] = interesting(seed));
    for (int i = 1; i < k; i++) {
        struct oko_scalar c = oko_scalar_const(v[i] = interesting(seed));
        s.a = oko_scalar_join(&s.a, &c);
    }
    if (rand_r(seed) % 2) {
        struct oko_scalar narrowed = s.a,
                          c = oko_scalar_const(interesting(seed));
        if (oko_scalar_relate(all_rels[rand_r(seed) % N_RELS],
                              rand_r(seed) % 2, &narrowed, &c)) {
            s.a = narrowed;
        }
    }
    for (int i = 0; i < k; i++) {
        add_member(&s, v[i]);
    }
    draw_members(&s, seed, 12);
    return s;
}

/* Every three-bit window of known-0, known-1 and unknown bits at bit 'at',
 * over a base of all zeros or all ones. */
static int
window_samples(int at, struct sample out[])
{
    int n = 0;
    for (int base = 0; base < 2; base++) {
        for (int code = 0; code < 27; code++) {
            uint64_t value = base ? UINT64_MAX : 0, mask = 0;
            for (int bit = 0, c = code; bit < 3; bit++, c /= 3) {
                uint64_t b = UINT64_C(1) << (at + bit);
                value &= ~b;
                if (c % 3 == 1) {
                    value |= b;
                } else if (c % 3 == 2) {
                    mask |= b;
                }
            }
            struct sample *s = &out[n++];
            s->a = oko_scalar_unknown();
            s->a.t.value = value;
            s->a.t.mask = mask;
            CU_ASSERT_FATAL(oko_scalar_normalize(&s->a));
            s->n = 0;
            for (uint64_t sub = 0; sub < 8; sub++) {
                uint64_t m = 0;
                for (int bit = 0; bit < 3; bit++) {
                    if (sub & (1 << bit)) {
                        m |= UINT64_C(1) << (at + bit);
                    }
                }
                if (!(m & ~mask)) {
                    add_member(s, value | m);
                }
            }
        }
    }
    return n;
}

static void
fail(const char *what, uint64_t x, uint64_t y, uint64_t r,
     const struct oko_scalar *res)
{
    if (failures++ < 10) {
        printf("\n  %s: x=%#llx y=%#llx -> %#llx not in t=(%#llx,%#llx) "
               "u=[%#llx,%#llx] "
               "s=[%lld,%lld] u32=[%#x,%#x] s32=[%d,%d]",
               what, (unsigned long long) x, (unsigned long long) y,
               (unsigned long long) r, (unsigned long long) res->t.value,
               (unsigned long long) res->t.mask,
               (unsigned long long) res->umin, (unsigned long long) res->umax,
               (long long) res->smin, (long long) res->smax, res->u32min,
               res->u32max, res->s32min, res->s32max);
    }
}

struct alu_case {
    int op, off;
    const char *name;
};

static const struct alu_case alu_cases[] = {
    { 0x00, 0, "add" },      { 0x10, 0, "sub" },      { 0x20, 0, "mul" },
    { 0x30, 0, "div" },      { 0x30, 1, "sdiv" },     { 0x40, 0, "or" },
    { 0x50, 0, "and" },      { 0x60, 0, "lsh" },      { 0x70, 0, "rsh" },
    { 0x80, 0, "neg" },      { 0x90, 0, "mod" },      { 0x90, 1, "smod" },
    { 0xa0, 0, "xor" },      { 0xb0, 0, "mov" },      { 0xb0, 8, "movsx8" },
    { 0xb0, 16, "movsx16" }, { 0xb0, 32, "movsx32" }, { 0xc0, 0, "arsh" },
};

static void
check_pair(const struct sample *a, const struct sample *b)
{
    char what[64];
    for (size_t c = 0; c < sizeof alu_cases / sizeof *alu_cases; c++) {
        for (int is64 = 0; is64 < 2; is64++) {
            const struct alu_case *ac = &alu_cases[c];
            if (ac->off == 32 && !is64) {
                continue;                   /* no 32-bit movsx from 32 bits */
            }
            struct oko_scalar r
                = oko_scalar_alu(ac->op, ac->off, is64, &a->a, &b->a);
            for (int i = 0; i < a->n; i++) {
                for (int j = 0; j < b->n; j++) {
                    uint64_t x = a->members[i], y = b->members[j];
                    uint64_t v = oko_isa_alu(ac->op, ac->off, is64, x, y);
                    checks++;
                    if (!oko_scalar_contains(&r, v)) {
                        snprintf(what, sizeof what, "%s%s", ac->name,
                                 is64 ? "" : "32");
                        fail(what, x, y, v, &r);
                    }
                }
            }
        }
    }
    for (size_t k = 0; k < N_RELS; k++) {
        for (int is64 = 0; is64 < 2; is64++) {
            struct oko_scalar na = a->a, nb = b->a;
            bool possible = oko_scalar_relate(all_rels[k], is64, &na, &nb);
            for (int i = 0; i < a->n; i++) {
                for (int j = 0; j < b->n; j++) {
                    uint64_t x = a->members[i], y = b->members[j];
                    if (!oko_rel_holds(all_rels[k], is64, x, y)) {
                        continue;
                    }
                    checks++;
                    snprintf(what, sizeof what, "relation %zu%s", k,
                             is64 ? "" : " (32)");
                    if (!possible) {
                        fail(what, x, y, 0, &na);
                    } else if (!oko_scalar_contains(&na, x)) {
                        fail(what, x, y, x, &na);
                    } else if (!oko_scalar_contains(&nb, y)) {
                        fail(what, x, y, y, &nb);
                    }
                }
            }
        }
    }
}

static void
check_endian(const struct sample *a)
{
    for (int swap = 0; swap < 2; swap++) {
        for (int width = 16; width <= 64; width *= 2) {
            struct oko_scalar r = oko_scalar_endian(swap, width, &a->a);
            for (int i = 0; i < a->n; i++) {
                uint64_t v = oko_isa_endian(swap, width, a->members[i]);
                checks++;
                if (!oko_scalar_contains(&r, v)) {
                    fail(swap ? "bswap" : "to-le", a->members[i], width, v,
                         &r);
                }
            }
        }
    }
}

static void
test_windows(void)
{
    static const int places[] = { 0, 29, 30, 61 };
    static struct sample s[54];
    checks = failures = 0;
    for (size_t p = 0; p < sizeof places / sizeof *places; p++) {
        for (size_t q = 0; q < sizeof places / sizeof *places; q++) {
            int n = window_samples(places[p], s);
            static struct sample t[54];
            int m = window_samples(places[q], t);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < m; j++) {
                    check_pair(&s[i], &t[j]);
                }
                check_endian(&s[i]);
            }
        }
    }
    printf("\nwindows: %lu checks, %lu failures\n", checks, failures);
    CU_ASSERT_EQUAL(failures, 0);
}

static void
test_random(void)
{
    unsigned seed = 20261124;
    checks = failures = 0;
    for (int round = 0; round < 20000; round++) {
        struct sample a = random_sample(&seed), b = random_sample(&seed);
        check_pair(&a, &b);
        check_endian(&a);
    }
    printf("\nrandom: %lu checks, %lu failures\n", checks, failures);
    CU_ASSERT_EQUAL(failures, 0);
}

/* Precision the library filters rely on, and the audit's byte-swap case. */
static void
test_precision(void)
{
    struct oko_scalar byte = oko_scalar_urange(0, 255), k;
    k = oko_scalar_const(15);
    struct oko_scalar ihl = oko_scalar_alu(0x50, 0, true, &byte, &k);
    k = oko_scalar_const(2);
    ihl = oko_scalar_alu(0x60, 0, true, &ihl, &k);
    CU_ASSERT_EQUAL(ihl.umin, 0);
    CU_ASSERT_EQUAL(ihl.umax, 60);
    CU_ASSERT_EQUAL(ihl.t.mask, 0x3c);

    /* be64/le64 of a byte can be any of 2^64 values' top byte: not 32-bit. */
    struct oko_scalar swapped = oko_scalar_endian(true, 64, &byte);
    CU_ASSERT(oko_scalar_contains(&swapped, UINT64_C(0xff) << 56));
    CU_ASSERT_EQUAL(swapped.umax, UINT64_C(0xff) << 56);
    struct oko_scalar unknown = oko_scalar_unknown();
    struct oko_scalar le64 = oko_scalar_endian(false, 64, &unknown);
    CU_ASSERT_EQUAL(le64.umax, UINT64_MAX);

    /* A 32-bit add cannot leave 32 bits; a 64-bit one of the same can. */
    struct oko_scalar big = oko_scalar_urange(0, UINT32_MAX);
    struct oko_scalar sum32 = oko_scalar_alu(0x00, 0, false, &big, &big);
    struct oko_scalar sum64 = oko_scalar_alu(0x00, 0, true, &big, &big);
    CU_ASSERT_EQUAL(sum32.umax, UINT32_MAX);
    CU_ASSERT_EQUAL(sum64.umax, 2 * (uint64_t) UINT32_MAX);

    /* x <= 100 after "if x s> -1" and "x < 101": both views agree. */
    struct oko_scalar x = oko_scalar_unknown(),
                      c = oko_scalar_const((uint64_t) -1);
    CU_ASSERT(oko_scalar_relate(OKO_REL_SGT, true, &x, &c));
    c = oko_scalar_const(101);
    CU_ASSERT(oko_scalar_relate(OKO_REL_LT, true, &x, &c));
    CU_ASSERT_EQUAL(x.umin, 0);
    CU_ASSERT_EQUAL(x.umax, 100);
    CU_ASSERT_EQUAL(x.smax, 100);

    /* A decided comparison is reported impossible. */
    c = oko_scalar_const(200);
    struct oko_scalar y = x;
    CU_ASSERT_FALSE(oko_scalar_relate(OKO_REL_GT, true, &y, &c));
    y = x;
    CU_ASSERT(oko_scalar_relate(OKO_REL_LE, true, &y, &c));
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "exhaustive bit windows", test_windows },
        { "random abstract values", test_random },
        { "precision", test_precision },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "scalar domain", cases);
}
