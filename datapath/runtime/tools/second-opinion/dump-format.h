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

#ifndef OKO_DUMP_FORMAT_H
#define OKO_DUMP_FORMAT_H 1

/* A program as the second opinion (oko-prevail, src/main.rs) reads it: the
 * instructions our verifier sees (after the loader and call inlining), and
 * the maps.  Little-endian:
 *   u32 n_maps; n_maps x { u32 type, key_size, value_size, max_entries, flags }
 *   u32 n_insns; n_insns x 8-byte instructions (RFC 9669 layout) */

#include <stdint.h>
#include <stdio.h>
#include "oko-program.h"

static inline int
oko_dump_write(const char *path, const struct oko_program *prog)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        return -1;
    }
    uint32_t n_maps = prog->n_maps, n_insns = prog->n_insns;
    fwrite(&n_maps, 4, 1, f);
    for (size_t i = 0; i < prog->n_maps; i++) {
        const struct oko_map_decl *m = &prog->maps[i];
        uint32_t d[5] = { m->type, m->key_size, m->value_size, m->max_entries, m->flags };
        fwrite(d, 4, 5, f);
    }
    fwrite(&n_insns, 4, 1, f);
    fwrite(prog->insns, sizeof *prog->insns, prog->n_insns, f);
    return fclose(f);
}

#endif /* dump-format.h */
