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
#ifndef OKO_VERIFIER_H
#define OKO_VERIFIER_H 1

/* Oko's verifier: proves a loaded program safe to run on any packet, or
 * rejects it with the instruction index and a one-line reason.
 *
 * It explores every path through the program (there are no loops, so there
 * are finitely many), tracking what each register and stack byte holds:
 * numbers with their ranges, the packet length, pointers to the packet, the
 * stack, a map or a map value.  See docs/filter-programs.md for the rules. */

#include <stddef.h>
#include <stdint.h>
#include "oko-program.h"

/* The largest len a program runs with (oko-filter.h). */
#define OKO_MAX_PKT_LEN 65535
/* Steps: instructions explored plus the cost of comparing states where
 * paths join. */
#define OKO_VERIFY_BUDGET 1000000
/* The largest oko_verify_options.min_len. */
#define OKO_MAX_MIN_LEN (1 << 24)

struct oko_verify_options {
    /* The packet is known to be at least this long (0 for filters: the
     * datapath passes any length).  Harnesses that run a program on a
     * fixed-size memory block, such as the conformance suite's, set it. */
    uint64_t min_len;                   /* at most OKO_MAX_MIN_LEN */
    size_t budget;                      /* 0 = OKO_VERIFY_BUDGET */
    /* NULL, or an array of prog->n_insns bytes: each instruction some path
     * reached is set to 1 (others are left alone).  Code no path reaches is
     * never checked; the checked interpreter traps if it runs any. */
    uint8_t *explored;
};

struct oko_verify_stats {
    /* instructions explored over all paths */
    size_t explored;
    /* paths cut short by an equivalent state */
    size_t pruned;
    size_t stored;                      /* states remembered for pruning */
    size_t stored_bytes;                /* their memory (at most 16 MiB) */
    /* stored states compared with a new one */
    size_t compared;
    /* charged to the budget: 1 + spilled slots / 8 each */
    size_t compare_cost;
    /* copies narrowed with a register (1 step each) */
    size_t narrowed;
    size_t max_pending;                 /* most branches waiting at once */
};

/* Verifies 'prog' (as the ELF loader left it).  Returns 0 if it is safe;
 * otherwise EINVAL with "insn N: reason" in 'error' (OKO_ERROR_MAX bytes),
 * or ENOMEM.  'opts' and 'stats' may be NULL.  Never crashes or hangs on any
 * input. */
int oko_verify(const struct oko_program *prog,
               const struct oko_verify_options *opts,
               struct oko_verify_stats *stats, char error[OKO_ERROR_MAX]);

#endif /* oko-verifier.h */
