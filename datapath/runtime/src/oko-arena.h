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
#ifndef OKO_ARENA_H
#define OKO_ARENA_H 1

/* A bump allocator over mmap'd chunks, for memory that lives exactly as
 * long as one operation (the verifier's stored states): nothing is freed
 * alone, everything goes back to the system at once.  malloc would keep
 * thousands of freed blocks of a few KB in the process's heap (in
 * ovs-vswitchd, for good), and would not bound the total. */

#include <stddef.h>

struct oko_arena {
    struct oko_arena_chunk *chunks;     /* newest first */
    size_t used;                        /* bytes handed out, all chunks */
    size_t cap;                         /* refuse beyond this many bytes */
};

/* An empty arena that hands out at most 'cap' bytes in all. */
void oko_arena_init(struct oko_arena *arena, size_t cap);

/* 'size' bytes aligned for any object, or NULL if the arena's cap would
 * be exceeded or the system refused memory. */
void *oko_arena_alloc(struct oko_arena *arena, size_t size);

/* Unmaps every chunk: everything handed out is gone. */
void oko_arena_destroy(struct oko_arena *arena);

#endif /* oko-arena.h */
