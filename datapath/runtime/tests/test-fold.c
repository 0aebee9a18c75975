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

/* Result folding (oko-fold.h): what folds, what does not and why, and that
 * a folded program's r0 really is the same for every packet that agrees on
 * the bytes the analysis names. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-asm.h"
#include "oko-filter.h"
#include "oko-fold.h"
#include "util.h"

struct fold_case {
    const char *name;
    const char *text;
    bool foldable;
    uint64_t depends;           /* if foldable */
    bool uses_len;              /* if foldable */
    const char *why;            /* if not: part of the reason */
};

#define BYTES(FIRST, LAST) \
    ((((uint64_t) 2 << (LAST)) - 1) & ~(((uint64_t) 1 << (FIRST)) - 1))

static const struct fold_case cases[] = {
    { "a constant verdict", "mov %r0, 1\nexit\n", true, 0, false, NULL },
    { "a byte of the source MAC, length compared",
      "mov %r0, 0\n"
      "jlt %r2, 14, out\n"
      "ldxb %r3, [%r1+11]\n"
      "jne %r3, 5, out\n"
      "mov %r0, 1\n"
      "out:\nexit\n", true, BYTES(11, 11), true, NULL },
    { "bounds checked as clang does: packet + 14 > packet + len",
      "mov %r0, 0\n"
      "mov %r3, %r1\n"
      "add %r3, 14\n"
      "mov %r4, %r1\n"
      "add %r4, %r2\n"
      "jgt %r3, %r4, out\n"
      "ldxh %r5, [%r1+6]\n"
      "jne %r5, 0x5450, out\n"
      "mov %r0, 1\n"
      "out:\nexit\n", true, BYTES(6, 7), true, NULL },
    { "a 32-bit copy of the length",
      "mov %r0, 0\n"
      "mov32 %r3, %r2\n"
      "jlt32 %r3, 14, out\n"
      "ldxw %r0, [%r1+0]\n"
      "out:\nexit\n", true, BYTES(0, 3), true, NULL },
    { "a byte read and never used",
      "mov %r0, 1\n"
      "jlt %r2, 14, out\n"
      "ldxb %r3, [%r1+13]\n"
      "out:\nexit\n", true, 0, true, NULL },
    { "a packet pointer spilled to the stack and back",
      "mov %r0, 0\n"
      "jlt %r2, 14, out\n"
      "stxdw [%r10-8], %r1\n"
      "ldxdw %r4, [%r10-8]\n"
      "ldxb %r0, [%r4+2]\n"
      "out:\nexit\n", true, BYTES(2, 2), true, NULL },
    { "packet bytes through the stack in parts",
      "mov %r0, 0\n"
      "jlt %r2, 14, out\n"
      "ldxb %r3, [%r1+4]\n"
      "stdw [%r10-8], 0\n"
      "stxb [%r10-3], %r3\n"
      "ldxdw %r0, [%r10-8]\n"
      "and %r0, 1\n"
      "out:\nexit\n", true, BYTES(4, 4), true, NULL },
    { "the length equal to a number no Ethernet frame has",
      "mov %r0, 1\n"
      "jeq %r2, 5, out\n"
      "mov %r0, 0\n"
      "out:\nexit\n", true, 0, true, NULL },
    { "the length equal to a number a frame may have",
      "mov %r0, 1\n"
      "jeq %r2, 100, out\n"
      "mov %r0, 0\n"
      "out:\nexit\n", false, 0, false, "length" },
    { "an IPv4 header's length check (34 bytes)",
      "mov %r0, 0\n"
      "jlt %r2, 34, out\n"
      "ldxh %r3, [%r1+18]\n"
      "and %r3, 1\n"
      "mov %r0, %r3\n"
      "out:\nexit\n", false, 0, false, "length" },
    { "a byte-swapped constant stays known (the verifier's dead code too)",
      "mov %r0, 1\n"
      "mov %r3, 0x100\n"
      "be16 %r3\n"
      "jeq %r3, 1, out\n"
      "ldxb %r0, [%r1+70]\n"
      "out:\n"
      "exit\n", true, 0, false, NULL },
    { "the length as the verdict",
      "mov %r0, %r2\nexit\n", false, 0, false, "returns" },
    { "the length in arithmetic",
      "mov %r0, %r2\nrsh %r0, 1\nexit\n", false, 0, false, "computes" },
    { "a read at a packet-dependent offset",
      "mov %r0, 0\n"
      "jlt %r2, 14, out\n"
      "ldxb %r3, [%r1+0]\n"
      "and %r3, 7\n"
      "add %r1, %r3\n"
      "ldxb %r0, [%r1+0]\n"
      "out:\nexit\n", false, 0, false, "computes" },
    { "a helper call", "call 6\nmov %r0, 1\nexit\n", false, 0, false,
      "helper" },
    { "a map",
      ".map m array 4 8 1\n"
      "lddw %r1, map m\n"
      "mov %r0, 1\n"
      "exit\n", false, 0, false, "map" },
};

static struct oko_filter *
load(const char *text)
{
    struct oko_program prog;
    struct oko_filter *f;
    char error[OKO_ERROR_MAX];

    if (oko_asm(text, &prog, error)) {
        fprintf(stderr, "%s\n", error);
        return NULL;
    }
    struct oko_filter_options opts = { .interpret = true };
    if (oko_filter_from_program(&prog, &opts, &f, error)) {
        fprintf(stderr, "%s\n", error);
        return NULL;
    }
    return f;
}

static void
test_what_folds(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct fold_case *c = &cases[i];
        struct oko_filter *f = load(c->text);
        char line[128];

        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        oko_fold_format(&f->fold, line, sizeof line);
        if (f->fold.foldable != c->foldable
            || (c->foldable && (f->fold.depends != c->depends
                                || f->fold.uses_len != c->uses_len))
            || (!c->foldable && !strstr(f->fold.why, c->why))) {
            fprintf(stderr, "%s: %s\n", c->name, line);
            CU_FAIL("unexpected fold analysis");
        }
        oko_filter_destroy(f);
    }
}

/* A folded program's r0 on random packets that agree with a first one on
 * the bytes it depends on (and are long enough if it uses the length) is
 * the first one's r0. */
static void
check_folded_verdict(const struct oko_filter *f, const char *name)
{
    static uint8_t ref[OKO_FOLD_BYTES], pkt[1600];
    uint64_t min_len = f->fold.uses_len ? OKO_FOLD_MIN_LEN : 0;

    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof ref; i++) {
            ref[i] = random() & (round & 1 ? 0xff : 0x0f);
        }
        memcpy(pkt, ref, sizeof ref);
        uint64_t r0 = oko_filter_run(f, pkt, OKO_FOLD_BYTES);
        for (int other = 0; other < 50; other++) {
            uint64_t len = min_len + random() % (sizeof pkt - min_len + 1);
            for (size_t i = 0; i < sizeof pkt; i++) {
                pkt[i] = i < OKO_FOLD_BYTES && f->fold.depends >> i & 1
                         ? ref[i] : random();
            }
            if (oko_filter_run(f, pkt, len) != r0) {
                fprintf(stderr, "%s: r0 differs for length %llu\n", name,
                        (unsigned long long) len);
                CU_FAIL("a folded verdict differs between packets");
                return;
            }
        }
    }
}

static void
test_folded_verdicts_hold(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct oko_filter *f = load(cases[i].text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        if (f->fold.foldable) {
            check_folded_verdict(f, cases[i].name);
        }
        oko_filter_destroy(f);
    }
}

/* The test programs and the library's filters: those that fold keep their
 * verdict; the library's stateful filters do not fold. */
static void
test_objects(void)
{
    static const char *const objects[][2] = {
        { "baseline.o", "folds: on no packet byte" },
        { "mac_src_guard.o", "folds: on bytes 6-11, for packets of 14 bytes "
          "or more" },
        { "ip_id_parity.o", "does not fold" },
        { "verdict_map.o", "does not fold" },
        { "rate-limiter.o", "does not fold" },
        { "stateful-firewall.o", "does not fold" },
    };

    for (size_t i = 0; i < sizeof objects / sizeof objects[0]; i++) {
        size_t size;
        void *elf = read_prog_file(objects[i][0], &size);
        struct oko_filter *f;
        char error[OKO_ERROR_MAX], line[128];

        CU_ASSERT_PTR_NOT_NULL_FATAL(elf);
        CU_ASSERT_EQUAL_FATAL(oko_filter_load(elf, size, NULL, &f, error), 0);
        oko_fold_format(&f->fold, line, sizeof line);
        if (strncmp(line, objects[i][1], strlen(objects[i][1]))) {
            fprintf(stderr, "%s: %s\n", objects[i][0], line);
            CU_FAIL("unexpected fold analysis of an object");
        }
        if (f->fold.foldable) {
            check_folded_verdict(f, objects[i][0]);
        }
        oko_filter_destroy(f);
        free(elf);
    }
}

int
main(int argc, char *argv[])
{
    static const struct test_case tests[] = {
        { "what folds and why not", test_what_folds },
        { "folded verdicts hold for every matching packet",
          test_folded_verdicts_hold },
        { "test programs and library filters", test_objects },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "fold", tests);
}
