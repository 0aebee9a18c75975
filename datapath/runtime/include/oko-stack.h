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
#ifndef OKO_STACK_H
#define OKO_STACK_H 1

/* The program stack: where r10 points.
 *
 * A program's 512-byte stack is not on the thread's native stack, where a
 * verifier bug that let a program write past its frame would reach the
 * caller's return address (the JIT's frame sits right below it).  Each
 * thread that runs programs has a region of its own instead:
 *
 *     | guard (PROT_NONE) | stack page (read-write)     | guard (PROT_NONE) |
 *                                               ^ r10
 *
 * r10 is OKO_STACK_ABOVE_TOP bytes below the end of the stack page.  The
 * guards are at least 32 KiB + 8 bytes each: an access at r10 + off, with
 * any 16-bit offset an instruction can encode and any width, lands in the
 * stack page (the program's own scratch memory, nobody else's) or faults.
 *
 * Why not r10 at the page's very end: a key the program builds at the top
 * of its stack goes to helpers (map lookups: hashing, memcmp), and libc's
 * vector routines take a slow path when a 32- or 64-byte load from their
 * buffer would cross a page; with the key in the last bytes of the page a
 * map lookup cost 80 ns more (oko-bench, conntrack-established).  The page is
 * shared by the programs a thread runs one after another, as a native
 * frame at the same depth would be; the verifier refuses a read of stack
 * bytes the program has not written, so none sees another's data.
 *
 * The region is mapped the first time a thread asks for it (not per
 * packet) and unmapped when the thread exits. */

#include <stddef.h>
#include <stdint.h>

/* Bytes of the stack page above r10: room for the widest vector load a
 * helper's library routine makes past the end of a key at the top. */
#define OKO_STACK_ABOVE_TOP 64

/* The calling thread's stack top, or NULL before oko_stack_create(). */
extern __thread void *oko_stack_thread_top
    __attribute__((tls_model("initial-exec")));

/* Maps the calling thread's region; returns its stack top, or NULL if the
 * mapping failed (out of memory or address space). */
void *oko_stack_create(void);

/* The calling thread's stack top (r10 at a program's entry): the end of
 * OKO_STACK_SIZE bytes the program may use.  NULL only if the region
 * could not be mapped; the caller then must not run the program. */
static inline void *
oko_stack_top(void)
{
    void *top = oko_stack_thread_top;
    return __builtin_expect(top != NULL, 1) ? top : oko_stack_create();
}

/* Where the calling thread's region lies (for tests): its first byte and
 * size, and the stack page's (r10 is OKO_STACK_ABOVE_TOP below its end).
 * Returns 0 if the thread has none. */
int oko_stack_region(uintptr_t *start, size_t *size, uintptr_t *page,
                     size_t *page_size);

#endif /* oko-stack.h */
