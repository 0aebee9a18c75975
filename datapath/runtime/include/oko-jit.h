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

/* r0 when the thread's program stack could not be mapped (oko-stack.h):
 * the program did not run; a program error, counted as such. */
#define OKO_R0_NO_STACK UINT64_MAX

/* r0 for a packet longer than OKO_MAX_PKT_LEN: the program did not run (a
 * program error).  The verifier proves a program safe for lengths up to
 * that bound only; code reachable only with a longer packet (after
 * "len > 65535") was never checked.  The userspace datapath's packets can be
 * longer (a dp_packet's size is 32 bits: TSO frames, jumbo pcaps). */
#define OKO_R0_TOO_LONG (UINT64_MAX - 1)

/* r0 for a packet whose data pointer is NULL (an empty packet some
 * datapath left without a buffer): the program did not run (a program
 * error).  The verifier decides "r1 == 0" as false, since r1 points into a
 * packet; run on address 0 it would take the branch the verifier never
 * checked. */
#define OKO_R0_NO_PACKET (UINT64_MAX - 2)

/* Where a fused chain finds a packet's bytes in the caller's packet
 * structure (a dp_packet, in Open vSwitch): at 'base', a pointer to the
 * buffer; at 'data_ofs', the data's offset in it (16 bits; UINT16_MAX for
 * no data); at 'len', the data's length (32 bits).  Offsets in bytes from
 * the structure's start, 0 to INT32_MAX. */
struct oko_jit_pkt_layout {
    int32_t base;
    int32_t data_ofs;
    int32_t len;
};

/* A fused chain: several programs compiled into one function that runs
 * them in order, with one stack, on each packet of a batch in turn, and
 * compares each r0 with what the chain expects of it.  It stops at the
 * first packet the chain refuses (a program's r0 differs: the programs
 * after it do not run for that packet) and returns that packet's index,
 * with the refusing program's index and r0 in '*refusal'; or returns 'n'
 * when the chain accepted every packet ('*refusal' untouched).  One call
 * for a batch: the frame is set up once, not once a packet.
 *
 * 'pkts' are the caller's packet structures, read as the layout given at
 * compilation says.  The code checks each packet before any program runs
 * on it: a packet without data, with a NULL data pointer or longer than
 * OKO_MAX_PKT_LEN is refused by the first program with r0 OKO_R0_NO_PACKET
 * or OKO_R0_TOO_LONG (no program ran).  With 'n' 0 it returns 0.  The code
 * embeds the programs' linked instructions (map addresses): it must not
 * outlive them. */
struct oko_jit_refusal {
    uint64_t at;                    /* the refusing program's index */
    uint64_t r0;                    /* its r0 */
};

typedef uint64_t oko_jit_chain_fn(const void *const pkts[], uint64_t n,
                                  void *stack_top,
                                  struct oko_jit_refusal *refusal);

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
                          const struct oko_jit_pkt_layout *layout,
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
