/* Shared by the fuzz targets: programs from raw bytes, with a fixed set of
 * maps (one of each type) that map lddw instructions can name. */
#ifndef OKO_FUZZ_COMMON_H
#define OKO_FUZZ_COMMON_H 1

#include <stdlib.h>
#include <string.h>

#include "oko-program.h"

static const struct oko_map_decl fuzz_maps[] = {
    { "hash", 1, 4, 8, 64, 0 },
    { "array", 2, 4, 16, 8, 0 },
    { "lru", 3, 8, 8, 16, 0 },
    { "bloom", 4, 4, 0, 1024, 0 },
    { "count_min", 5, 4, 4, 64, 0 },
    { "lpm", 6, 8, 4, 16, 0 },
};

/* Fills 'prog' with the instructions in 'data' (whole 8-byte slots, at most
 * OKO_MAX_INSNS) and the fixed maps.  Returns false if there are none. */
static inline int
fuzz_program(const uint8_t *data, size_t size, struct oko_program *prog)
{
    memset(prog, 0, sizeof *prog);
    size_t n = size / sizeof(struct oko_insn);
    if (n == 0 || n > OKO_MAX_INSNS) {
        return 0;
    }
    prog->insns = malloc(n * sizeof *prog->insns);
    memcpy(prog->insns, data, n * sizeof *prog->insns);
    prog->n_insns = n;
    prog->n_maps = sizeof fuzz_maps / sizeof *fuzz_maps;
    memcpy(prog->maps, fuzz_maps, sizeof fuzz_maps);
    return 1;
}

#endif
