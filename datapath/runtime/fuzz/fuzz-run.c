/* libFuzzer target: programs the verifier accepts run on a packet without
 * doing what the verifier promises they cannot: checked execution
 * (oko-checked.h) traps on any access outside the pointer's object, any
 * pointer reaching r0, a map value or a helper, and any instruction the
 * verifier did not explore; the interpreter runs under ASan on a packet
 * that is a heap block of exactly its length; the JIT gives the same r0,
 * and so does the program fused into a chain (oko_jit_compile_chain())
 * after another copy of itself: the chain stops at the copy whose result
 * it does not expect, with that copy's r0.
 *
 * Input: one byte L, L bytes of packet, then the instructions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "oko-checked.h"
#include "oko-filter.h"
#include "oko-jit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Fuses 'f' twice into one chain, the first copy expected to give 'r0'
 * (what the interpreter said) and the second the opposite of 'r0''s truth,
 * runs it, and traps unless the chain refused at the second copy with its
 * r0 (programs with calls: at a copy, with a result of that copy's kind).
 * Its code embeds the same checked accesses as the single program's, run
 * from one frame: any escape of the fused code's stack or packet shows
 * under ASan as it does for the single JIT. */
static void
fuzz_fused_chain(const struct oko_filter *f, const uint8_t *pkt, size_t len,
                 uint64_t r0, int has_call)
{
    if (r0 > INT32_MAX) {
        return;                 /* a chain expects 0 to INT32_MAX */
    }
    uint64_t other = r0 ? 0 : 1;
    struct oko_jit_chain_link links[2] = {
        { .insns = f->code, .n_insns = f->prog.n_insns, .expect = r0 },
        { .insns = f->code, .n_insns = f->prog.n_insns, .expect = other },
    };
    struct oko_jit_chain chain;
    char error[OKO_ERROR_MAX];
    /* A packet structure of this file's own: the buffer is the packet. */
    struct fuzz_pkt {
        const void *base;
        uint32_t len;
        uint16_t data_ofs;
    };
    static const struct oko_jit_pkt_layout layout = {
        .base = offsetof(struct fuzz_pkt, base),
        .data_ofs = offsetof(struct fuzz_pkt, data_ofs),
        .len = offsetof(struct fuzz_pkt, len),
    };
    if (oko_jit_compile_chain(links, 2, &layout, &chain, error)) {
        fprintf(stderr, "fused chain: %s\n", error);
        __builtin_trap();
    }
    struct fuzz_pkt tp = { .base = pkt, .len = len, .data_ofs = 0 };
    const void *one = &tp;
    struct oko_jit_refusal refusal = { .at = 2, .r0 = 77 };
    oko_epoch_enter();
    uint64_t accepted = chain.fn(&one, 1, oko_stack_top(), &refusal);
    oko_epoch_exit();
    if (accepted > 1 || (accepted == 1 && refusal.at != 2)) {
        __builtin_trap();
    }
    uint64_t at = refusal.at, got = refusal.r0;
    if (!has_call && (at != 1 || got != r0)) {
        __builtin_trap();
    }
    if (at > 2 || (at < 2 && got == links[at].expect)) {
        __builtin_trap();
    }
    oko_jit_chain_free(&chain);
}

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
    struct oko_filter_options opts
        = { .verify = { .budget = 100000, .explored = explored } };
    struct oko_filter *f;
    char error[OKO_ERROR_MAX];
    if (oko_filter_from_program(&prog, &opts, &f, error)) {
        return 0;
    }
    uint8_t *pkt = malloc(len ? len : 1);
    memcpy(pkt, data + 1, len);
    /* the second run sees map state */
    for (int run = 0; run < 2; run++) {
        uint64_t checked;
        oko_epoch_enter();
        if (oko_checked_run(&f->prog, f->maps, explored, pkt, len, &checked,
                            error)) {
            fprintf(stderr, "checked execution: %s\n", error);
            __builtin_trap();
        }
        oko_epoch_exit();
        oko_epoch_enter();
        uint64_t interp = oko_interp_run(f->code, pkt, len, oko_stack_top());
        oko_epoch_exit();
        fuzz_folded_verdict(f, pkt, len, interp);
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
            fuzz_fused_chain(f, pkt, len, interp, has_call);
        }
    }
    free(pkt);
    oko_filter_destroy(f);
    return 0;
}
