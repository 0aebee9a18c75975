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
#ifndef OKO_ASM_H
#define OKO_ASM_H 1

/* A textual form of filter programs: the assembly syntax of the eBPF
 * conformance suite (uBPF's), which the disassembler also prints:
 *
 *     mov32 %r0, 1          add %r1, %r2        neg %r3       be16 %r0
 *     ldxh %r3, [%r1+12]    stxdw [%r10-8], %r0 stb [%r10-1], 0x80
 *     lddw %r0, 0x1122334455667788              lddw %r1, map flows
 *     jne %r3, 0x81, L1     ja +2    ja32 L1    call 1   exit
 *     lock fetch add [%r10-8], %r1   lock cmpxchg32 [%r10-8], %r1
 *     movsx1664 %r0, %r1    L1:      # comment
 *
 * A line may start with "N:" (an instruction index, as oko-filter disasm
 * prints), which is ignored.  A jump to "exit" where no label has that name
 * goes to the last instruction (the suite's convention).  One extension
 * declares maps, which "lddw %rN, map NAME" refers to:
 *
 *     .map NAME TYPE KEY_SIZE VALUE_SIZE MAX_ENTRIES [FLAGS]
 *
 * TYPE is hash, array, lru_hash, bloom, count_min or lpm (or a number).
 * ".insn OPCODE DST SRC OFF IMM" emits any encoding, even an invalid one. Used
 * by tests, the conformance runner and the oko-filter tool. */

#include <stddef.h>
#include "oko-program.h"

/* Assembles 'text' into 'prog'.  Returns 0, or EINVAL with "line N: reason"
 * in 'error'. */
int oko_asm(const char *text, struct oko_program *prog,
            char error[OKO_ERROR_MAX]);

/* Writes instruction 'pc' of 'prog' in the syntax above into 'buf' (a
 * jump shows its target as "+off" and, in a comment, the target's index).
 * Returns the number of slots it used (2 for lddw). */
int oko_disasm_insn(const struct oko_program *prog, size_t pc, char *buf,
                    size_t size);

#endif /* oko-asm.h */
