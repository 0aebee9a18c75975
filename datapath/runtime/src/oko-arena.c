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
#include "oko-arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <sys/mman.h>

/* Chunks of 1 MiB unless one allocation needs more. */
#define CHUNK_BYTES (1u << 20)

struct oko_arena_chunk {
    struct oko_arena_chunk *next;
    /* bytes mapped, this header included */
    size_t size;
    /* next free byte, from the chunk's start */
    size_t free_offset;
};

#define ALIGN alignof(max_align_t)
#define ROUND_UP(x) (((x) + ALIGN - 1) / ALIGN * ALIGN)

void
oko_arena_init(struct oko_arena *arena, size_t cap)
{
    arena->chunks = NULL;
    arena->used = 0;
    arena->cap = cap;
}

void *
oko_arena_alloc(struct oko_arena *arena, size_t size)
{
    if (size > arena->cap) {
        return NULL;                    /* also keeps ROUND_UP from wrapping */
    }
    size = ROUND_UP(size);
    if (size > arena->cap - arena->used) {   /* used <= cap always */
        return NULL;
    }
    struct oko_arena_chunk *c = arena->chunks;
    if (!c || c->size - c->free_offset < size) {
        size_t header = ROUND_UP(sizeof *c);
        size_t bytes
            = size > CHUNK_BYTES - header ? header + size : CHUNK_BYTES;
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            return NULL;
        }
        c = p;
        c->next = arena->chunks;
        c->size = bytes;
        c->free_offset = header;
        arena->chunks = c;
    }
    void *object = (uint8_t *) c + c->free_offset;
    c->free_offset += size;
    arena->used += size;
    return object;
}

void
oko_arena_destroy(struct oko_arena *arena)
{
    for (struct oko_arena_chunk *c = arena->chunks, *next; c; c = next) {
        next = c->next;
        munmap(c, c->size);
    }
    oko_arena_init(arena, arena->cap);
}
