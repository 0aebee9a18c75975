/* libFuzzer target: programs the verifier accepts run on a packet without
 * doing what the verifier promises they cannot: checked execution
 * (oko-checked.h) traps on any access outside the pointer's object, any
 * pointer reaching r0, a map value or a helper, and any instruction the
 * verifier did not explore; the interpreter runs under ASan on a packet
 * that is a heap block of exactly its length; the JIT gives the same r0.
 *
 * Input: one byte L, L bytes of packet, then the instructions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "oko-checked.h"
#include "oko-filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size < 1u + data[0]) {
        return 0;
    }
    size_t len = data[0];
    struct oko_program prog;
    if (!fuzz_program(data + 1 + len, size - 1 - len, &prog)) {
        return 0;
    }
    static uint8_t explored[OKO_MAX_INSNS];
    memset(explored, 0, sizeof explored);
    struct oko_filter_options opts = { .verify = { .budget = 100000, .explored = explored } };
    struct oko_filter *f;
    char error[OKO_ERROR_MAX];
    if (oko_filter_from_program(&prog, &opts, &f, error)) {
        return 0;
    }
    uint8_t *pkt = malloc(len ? len : 1);
    memcpy(pkt, data + 1, len);
    for (int run = 0; run < 2; run++) {         /* the second run sees map state */
        uint64_t checked;
        oko_epoch_enter();
        if (oko_checked_run(&f->prog, f->maps, explored, pkt, len, &checked, error)) {
            fprintf(stderr, "checked execution: %s\n", error);
            __builtin_trap();
        }
        oko_epoch_exit();
        oko_epoch_enter();
        uint64_t interp = oko_interp_run(f->code, pkt, len, oko_stack_top());
        oko_epoch_exit();
        if (f->jit.fn) {
            oko_epoch_enter();
            uint64_t jit = f->jit.fn(pkt, len, oko_stack_top());
            oko_epoch_exit();
            /* Maps make runs differ (a counter, the time): compare only
             * programs without calls. */
            int has_call = 0;
            for (size_t i = 0; i < f->prog.n_insns; i++) {
                has_call |= f->prog.insns[i].opcode == 0x85;
            }
            if (!has_call && jit != interp) {
                __builtin_trap();
            }
        }
    }
    free(pkt);
    oko_filter_destroy(f);
    return 0;
}
