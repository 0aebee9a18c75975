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
#ifndef OKO_FOLD_H
#define OKO_FOLD_H 1

/* Result folding: which verified programs give one verdict for all packets
 * that agree on a few fixed bytes, so that a switch can decide them once per
 * cached flow, with those bytes matched exactly, instead of running them on
 * every packet (docs/filter-programs.md, "Folded results").
 *
 * A program folds if it calls no helper and names no map (so it keeps no
 * state and reads nothing but its packet), reads the packet only at fixed
 * offsets below OKO_FOLD_BYTES, and uses the packet's length only in
 * comparisons that come out the same for every length from
 * OKO_FOLD_MIN_LEN to OKO_MAX_PKT_LEN.  Then its r0 is a function of the
 * bytes in 'depends' alone, for every packet at least OKO_FOLD_MIN_LEN long
 * (any packet if it does not use the length).
 *
 * The analysis is separate from the verifier and only ever answers "no" to
 * what it does not understand: a wrong "no" costs a run per packet, a wrong
 * "yes" would give packets another program's verdict. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "oko-program.h"

/* Offsets 'depends' can name. */
#define OKO_FOLD_BYTES 64
/* The shortest packet a folded verdict holds for when the program uses the
 * length: an Ethernet header. */
#define OKO_FOLD_MIN_LEN 14

struct oko_fold {
    bool foldable;
    /* The verdict holds only for packets of OKO_FOLD_MIN_LEN bytes or more
     * (the program compares the length). */
    bool uses_len;
    /* Bit i set: the verdict may depend on the packet's byte i. */
    uint64_t depends;
    /* If not foldable: the first instruction found that prevents it (in
     * the program as loaded, like the verifier's errors), and why. */
    int why_pc;
    const char *why;
};

/* Analyses 'prog', which oko_verify() accepted.  Never fails: a program it
 * cannot prove foldable (including for lack of memory or time) is not. */
void oko_fold_analyse(const struct oko_program *, struct oko_fold *);

/* One line for people: "folds: on bytes 6-11, for packets of 14 bytes or
 * more", "folds: on no packet byte", or "does not fold: insn 3: it calls a
 * helper".  'size' of at least 128 bytes holds every answer. */
void oko_fold_format(const struct oko_fold *, char *buf, size_t size);

#endif /* oko-fold.h */
