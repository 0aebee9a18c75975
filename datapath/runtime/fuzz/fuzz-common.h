/* Shared by the fuzz targets: programs from raw bytes, with a fixed set of
 * maps (one of each type) that map lddw instructions can name. */
#ifndef OKO_FUZZ_COMMON_H
#define OKO_FUZZ_COMMON_H 1

#include <stdlib.h>
#include <string.h>

#include "oko-filter.h"
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

/* A program the fold analysis calls foldable gives the same r0 on another
 * packet that agrees on the bytes it depends on (and is long enough if it
 * uses the length): the other bytes and the length changed. */
static inline void
fuzz_folded_verdict(const struct oko_filter *f, const uint8_t *pkt,
                    size_t len, uint64_t r0)
{
    const struct oko_fold *fold = &f->fold;
    static uint8_t other[256];

    if (!fold->foldable || (fold->uses_len && len < OKO_FOLD_MIN_LEN)) {
        return;
    }
    /* The analysis may name bytes only paths the verifier proved dead read
     * (it over-approximates): a packet without them cannot be compared. */
    if (fold->depends && 64 - __builtin_clzll(fold->depends) > (int) len) {
        return;
    }
    size_t other_len = (len * 7 + 3) % sizeof other;
    if (fold->uses_len && other_len < OKO_FOLD_MIN_LEN) {
        other_len += OKO_FOLD_MIN_LEN;
    }
    for (size_t i = 0; i < sizeof other; i++) {
        bool kept = i < OKO_FOLD_BYTES && fold->depends >> i & 1;
        other[i] = kept ? pkt[i] : (i < len ? pkt[i] : 0) ^ 0x5a;
    }
    oko_epoch_enter();
    uint64_t other_r0 = oko_interp_run(f->code, other, other_len,
                                       oko_stack_top());
    oko_epoch_exit();
    if (other_r0 != r0) {
        __builtin_trap();
    }
}

#endif
