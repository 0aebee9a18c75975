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

#ifndef OKO_INLINE_H
#define OKO_INLINE_H 1

#include "oko-program.h"

#define OKO_MAX_CALL_DEPTH 8        /* nested program-local calls */

/* Replaces every program-local call in 'prog' (RFC 9669 "call local") by a
 * copy of the function it calls, each with a stack frame of its own below
 * its caller's, and records in prog->origin the original index of every
 * instruction (the verifier reports those).  A program without local calls
 * is left as it is.  Returns 0, or EINVAL with "insn N: reason" in 'error'
 * (recursion, nesting deeper than OKO_MAX_CALL_DEPTH, a call outside the
 * program, control running from one function into another, ...) and 'prog'
 * unchanged, or ENOMEM.  Runs before the verifier: everything else is
 * checked on the result. */
int oko_program_inline_calls(struct oko_program *prog,
                             char error[OKO_ERROR_MAX]);

#endif /* oko-inline.h */
