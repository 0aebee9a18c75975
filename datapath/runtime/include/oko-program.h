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

#ifndef OKO_PROGRAM_H
#define OKO_PROGRAM_H 1

/* A filter program as the ELF loader leaves it: instructions with map
 * references resolved to map indexes, and the maps' declarations.  Nothing
 * here has been verified yet. */

#include <stddef.h>
#include <stdint.h>

#define OKO_MAX_MAPS 64             /* docs/protocol.md, section 2 */
#define OKO_MAX_INSNS 4096          /* instructions per program */
#define OKO_MAP_NAME_MAX 64
#define OKO_ERROR_MAX 256

/* One eBPF instruction (RFC 9669 layout, little-endian host). */
struct oko_insn {
    uint8_t opcode;
    uint8_t dst : 4;
    uint8_t src : 4;
    int16_t off;
    int32_t imm;
};

/* "src" of an lddw whose imm is a map index (as the Linux kernel's
 * BPF_PSEUDO_MAP_FD, but naming the map by its index in the program). */
#define OKO_PSEUDO_MAP_INDEX 1

/* Map types: the numbers of enum oko_map_type in oko/filter.h. */
enum oko_map_type_id {
    OKO_MAP_TYPE_HASH = 1,
    OKO_MAP_TYPE_ARRAY,
    OKO_MAP_TYPE_LRU_HASH,
    OKO_MAP_TYPE_BLOOM,
    OKO_MAP_TYPE_COUNT_MIN,
    OKO_MAP_TYPE_LPM,
};

struct oko_map_decl {
    char name[OKO_MAP_NAME_MAX];
    uint32_t type;                  /* enum oko_map_type_id */
    uint32_t key_size;
    uint32_t value_size;
    uint32_t max_entries;
    uint32_t flags;
};

struct oko_program {
    struct oko_insn *insns;         /* owned */
    size_t n_insns;
    /* NULL, or (owned) for each instruction its index in the program as
     * loaded, once program-local calls are inlined (oko-inline.h): the
     * indexes errors name. */
    uint32_t *origin;
    struct oko_map_decl maps[OKO_MAX_MAPS];
    size_t n_maps;
};

/* Parses 'elf' ('size' bytes) into 'prog'.  Returns 0 on success; otherwise
 * a positive errno value, with a one-line reason in 'error' (OKO_ERROR_MAX
 * bytes) and 'prog' left empty.  Never reads outside 'elf'. */
int oko_program_load_elf(const void *elf, size_t size,
                         struct oko_program *prog, char error[OKO_ERROR_MAX]);

void oko_program_destroy(struct oko_program *);

#endif /* oko-program.h */
