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
#ifndef OKO_CHECKED_H
#define OKO_CHECKED_H 1

/* Checked execution: the oracle for fuzzing the verifier, never used on
 * the per-packet path.  It runs a program as the reference interpreter
 * does, and traps (instead of touching memory) when the program would do
 * what the verifier promises it cannot:
 *  - read or write outside the object its pointer came from: the packet
 *    [pkt, pkt + len) (read-only), the 512-byte stack, the value of size
 *    value_size returned by one particular lookup;
 *  - let a pointer, or a number computed from pointers of two objects,
 *    reach r0 at exit, a map value, an atomic operation or a helper's
 *    number or data argument, or read part of a spilled pointer;
 *  - run an instruction the verifier never explored. */

#include <stdint.h>
#include "oko-map.h"
#include "oko-program.h"

/* Runs 'prog' (as verified: map lddw not linked) with 'maps' (one per
 * declaration) on 'len' bytes at 'pkt'.  'explored' (NULL to skip that
 * check) is oko_verify_options.explored of its verification.  Returns 0
 * with r0 in '*r0', or EFAULT with "insn N: what" in 'error'. */
int oko_checked_run(const struct oko_program *prog,
                    struct oko_map *const maps[], const uint8_t *explored,
                    const void *pkt, uint64_t len, uint64_t *r0,
                    char error[OKO_ERROR_MAX]);

#endif /* oko-checked.h */
