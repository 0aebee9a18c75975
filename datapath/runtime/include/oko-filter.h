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
#ifndef OKO_FILTER_RUNTIME_H
#define OKO_FILTER_RUNTIME_H 1

/* A filter program ready to run: loaded from ELF, its maps created,
 * verified, linked (map references become the maps' addresses) and, where
 * available, compiled to native code.  This is what a switch keeps per
 * program id. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oko-epoch.h"
#include "oko-fold.h"
#include "oko-interp.h"
#include "oko-jit.h"
#include "oko-map.h"
#include "oko-program.h"
#include "oko-stack.h"
#include "oko-verifier.h"

/* Bytes of maps one program may have, all maps together. */
#define OKO_MAX_PROGRAM_MEMORY (256u << 20)

struct oko_filter_options {
    struct oko_verify_options verify;
    /* do not compile: run in the interpreter */
    bool interpret;
    /* Share this filter's map of the same index where the declarations are
     * identical, instead of creating an empty one (LOAD_PROG's
     * OKO_LOAD_KEEP_MAPS).  NULL: every map starts empty. */
    const struct oko_filter *keep_maps_from;
};

struct oko_filter {
    struct oko_program prog;        /* as loaded (what disassemblers show) */
    struct oko_insn *code;          /* linked copy the interpreter runs */
    struct oko_jit jit;             /* native code, if compiled (jit.fn) */
    struct oko_map *maps[OKO_MAX_MAPS];
    size_t memory;                  /* bytes of all maps */
    struct oko_verify_stats verify_stats;
    /* Whether a switch may decide it once per cached flow (oko-fold.h). */
    struct oko_fold fold;
};

/* Loads, verifies, links and (unless opts->interpret, or without a JIT for
 * this machine) compiles a program from its ELF object.  Returns 0, or
 * an errno value with a one-line reason in 'error': EINVAL, bad object
 * (oko_filter_load) or rejected by the verifier; ENOEXEC, a map
 * declaration is invalid; E2BIG, the maps are over the memory cap; ENOMEM. */
int oko_filter_load(const void *elf, size_t size,
                    const struct oko_filter_options *opts,
                    struct oko_filter **filterp, char error[OKO_ERROR_MAX]);

/* The same from an already parsed program, whose ownership passes to the
 * filter (also on failure). */
int oko_filter_from_program(struct oko_program *prog,
                            const struct oko_filter_options *opts,
                            struct oko_filter **filterp,
                            char error[OKO_ERROR_MAX]);

/* Frees 'filter' and its maps.  No thread may be running it. */
void oko_filter_destroy(struct oko_filter *filter);

/* The r0 of a run that did not happen (OKO_R0_NO_STACK, OKO_R0_TOO_LONG,
 * OKO_R0_NO_PACKET) are in oko-jit.h. */

/* Runs 'filter' on a packet and returns r0, for a caller already inside an
 * epoch section (see oko_filter_run()), such as a datapath thread that
 * enters once for a batch of packets. */
static inline uint64_t
oko_filter_run_in_section(const struct oko_filter *filter, const void *pkt,
                          uint64_t len)
{
    if (__builtin_expect(len > OKO_MAX_PKT_LEN || !pkt, 0)) {
        return pkt ? OKO_R0_TOO_LONG : OKO_R0_NO_PACKET;
    }
    void *stack_top = oko_stack_top();
    if (__builtin_expect(!stack_top, 0)) {
        return OKO_R0_NO_STACK;
    }
    return filter->jit.fn ? filter->jit.fn(pkt, len, stack_top)
                          : oko_interp_run(filter->code, pkt, len, stack_top);
}

/* Runs a fused chain (oko_jit_compile_chain()) on one packet structure,
 * inside an epoch section if any of its programs has maps: true if every
 * program gave the chain's r0, otherwise false with the first program whose
 * r0 differs, and that r0, in '*refusal'.  A packet no program may run on
 * is refused by the first program with the r0 oko_filter_run_in_section()
 * would give (see oko_jit_chain_fn). */
static inline bool
oko_filter_chain_run_in_section(oko_jit_chain_fn *fn, const void *pkt,
                                struct oko_jit_refusal *refusal)
{
    void *stack_top = oko_stack_top();
    if (__builtin_expect(!stack_top, 0)) {
        refusal->at = 0;
        refusal->r0 = OKO_R0_NO_STACK;
        return false;
    }
    return fn(&pkt, 1, stack_top, refusal) == 1;
}

/* Runs 'filter' on a packet and returns r0.  Lock-free, allocation-free.
 * The epoch section protects map entries the program reads; a program
 * without maps reads none (the verifier only lets a program reach map memory
 * through its own maps), so it runs without one and saves the section's full
 * barrier, which costs more than a short program itself. */
static inline uint64_t
oko_filter_run(const struct oko_filter *filter, const void *pkt, uint64_t len)
{
    bool in_section = filter->prog.n_maps != 0;
    if (in_section) {
        oko_epoch_enter();
    }
    uint64_t r0 = oko_filter_run_in_section(filter, pkt, len);
    if (in_section) {
        oko_epoch_exit();
    }
    return r0;
}

/* What r0 means: 1 = match, 0 = no match; anything else is a program error,
 * which the datapath counts and treats as no match. */
enum oko_verdict {
    OKO_VERDICT_NO_MATCH,
    OKO_VERDICT_MATCH,
    OKO_VERDICT_ERROR
};

static inline enum oko_verdict
oko_verdict_of(uint64_t r0)
{
    return r0 == 1   ? OKO_VERDICT_MATCH
           : r0 == 0 ? OKO_VERDICT_NO_MATCH
                     : OKO_VERDICT_ERROR;
}

#endif /* oko-filter.h */
