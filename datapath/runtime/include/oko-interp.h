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

#ifndef OKO_INTERP_H
#define OKO_INTERP_H 1

/* The reference interpreter of the eBPF instruction set (RFC 9669).  It
 * trusts its program: only programs the verifier accepted may be run (the
 * verifier proves every memory access and the absence of loops), so the
 * per-packet path does no checks the verifier already made. */

#include <stdint.h>
#include "oko-program.h"

#define OKO_STACK_SIZE 512

/* Runs 'insns' with r1 = 'pkt', r2 = 'len' and r10 = 'stack_top', the end
 * of OKO_STACK_SIZE writable bytes (oko_stack_top(): a guarded region, not
 * the native stack); returns r0 at exit. */
uint64_t oko_interp_run(const struct oko_insn *insns, const void *pkt,
                        uint64_t len, void *stack_top);

#endif /* oko-interp.h */
