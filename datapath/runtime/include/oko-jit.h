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
#ifndef OKO_JIT_H
#define OKO_JIT_H 1

/* x86-64 JIT: compiles a verified, linked program to native code with the
 * same results as the interpreter.  The code pages are written while
 * mapped read-write and then switched to read-execute: never writable and
 * executable at once (W^X). */

#include <stddef.h>
#include <stdint.h>
#include "oko-program.h"

/* r1 = 'pkt', r2 = 'len', r10 = 'stack_top' (as oko_interp_run()). */
typedef uint64_t oko_jit_fn(const void *pkt, uint64_t len, void *stack_top);

struct oko_jit {
    oko_jit_fn *fn;
    void *code;                     /* mapping of 'size' bytes */
    size_t size;
};

/* True if this build has a JIT for the machine it runs on. */
int oko_jit_available(void);

/* Compiles 'n' linked instructions (map lddw already holding addresses).
 * Returns 0, or an errno value with 'error' set (ENOTSUP without a JIT). */
int oko_jit_compile(const struct oko_insn *insns, size_t n,
                    struct oko_jit *jit, char error[OKO_ERROR_MAX]);

void oko_jit_free(struct oko_jit *jit);

/* A fused chain: several programs compiled into one function that runs
 * them in order on one packet, with one stack, and compares each r0 with
 * what the chain expects of it.  Returns the index of the first program
 * whose r0 differs, with that r0 in '*r0', or the number of programs when
 * every one gave its expected r0 ('*r0' untouched).  The programs after a
 * refusal do not run.  The code embeds the programs' linked instructions
 * (map addresses): it must not outlive them. */
typedef uint64_t oko_jit_chain_fn(const void *pkt, uint64_t len,
                                  void *stack_top, uint64_t *r0);

#define OKO_JIT_CHAIN_MAX 64

struct oko_jit_chain_link {
    const struct oko_insn *insns;   /* linked, verified */
    size_t n_insns;
    uint64_t expect;                /* 0 to INT32_MAX */
};

struct oko_jit_chain {
    oko_jit_chain_fn *fn;
    void *code;                     /* mapping of 'size' bytes */
    size_t size;
};

/* Compiles 'n' (1 to OKO_JIT_CHAIN_MAX) programs of 1 to OKO_MAX_INSNS
 * instructions each into one function.
 * Returns 0, or an errno value with 'error' set (ENOTSUP without a JIT). */
int oko_jit_compile_chain(const struct oko_jit_chain_link *links, size_t n,
                          struct oko_jit_chain *jit,
                          char error[OKO_ERROR_MAX]);

void oko_jit_chain_free(struct oko_jit_chain *jit);

/* The address range the JIT maps code into when it can: the 16 MB below
 * the image this runtime is linked into, where helpers are in reach of a
 * direct call.  Returns 0 and the range, or -1 if there is none (no JIT, or
 * no image below which it fits).  Tests and benchmarks take the range to
 * see the fallback placement. */
int oko_jit_near_window(uintptr_t *start, size_t *size);

#endif /* oko-jit.h */
