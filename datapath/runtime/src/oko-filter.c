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
#include "oko-filter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-inline.h"
#include "oko-isa.h"

int
oko_filter_load(const void *elf, size_t size,
                const struct oko_filter_options *opts,
                struct oko_filter **filterp, char error[OKO_ERROR_MAX])
{
    struct oko_program prog;
    *filterp = NULL;
    int err = oko_program_load_elf(elf, size, &prog, error);
    if (err) {
        return err;
    }
    return oko_filter_from_program(&prog, opts, filterp, error);
}

int
oko_filter_from_program(struct oko_program *prog,
                        const struct oko_filter_options *opts,
                        struct oko_filter **filterp, char error[OKO_ERROR_MAX])
{
    static const struct oko_filter_options default_opts;
    int err;

    *filterp = NULL;
    opts = opts ? opts : &default_opts;
    struct oko_filter *f = calloc(1, sizeof *f);
    if (!f) {
        oko_program_destroy(prog);
        snprintf(error, OKO_ERROR_MAX, "out of memory");
        return ENOMEM;
    }
    f->prog = *prog;
    memset(prog, 0, sizeof *prog);

    /* Maps first: their declarations must be valid and fit the cap before
     * anything is allocated. */
    for (size_t i = 0; i < f->prog.n_maps; i++) {
        size_t bytes = oko_map_memory(&f->prog.maps[i], error);
        if (!bytes) {
            err = ENOEXEC;              /* a bad declaration: a bad object */
            goto fail;
        }
        f->memory += bytes;
    }
    if (f->memory > OKO_MAX_PROGRAM_MEMORY) {
        snprintf(error, OKO_ERROR_MAX,
                 "the program's maps need %zu bytes; at most %u per program",
                 f->memory, OKO_MAX_PROGRAM_MEMORY);
        err = E2BIG;
        goto fail;
    }
    err = oko_program_inline_calls(&f->prog, error);
    if (err) {
        goto fail;
    }
    err = oko_verify(&f->prog, &opts->verify, &f->verify_stats, error);
    if (err) {
        goto fail;
    }
    if (opts->verify.min_len) {
        /* Reads the verifier let through on that promise alone are not
         * guarded by a length comparison the analysis would see. */
        f->fold = (struct oko_fold) {
            .why = "verified for a minimum packet length (--min-len)" };
    } else {
        oko_fold_analyse(&f->prog, &f->fold);
    }
    for (size_t i = 0; i < f->prog.n_maps; i++) {
        const struct oko_filter *old = opts->keep_maps_from;
        if (old && i < old->prog.n_maps
            && oko_map_decl_equal(&old->prog.maps[i], &f->prog.maps[i])) {
            f->maps[i] = oko_map_ref(old->maps[i]);
            continue;
        }
        err = oko_map_create(&f->prog.maps[i], &f->maps[i], error);
        if (err) {
            goto fail;
        }
    }

    /* Link: each map lddw loads the map's address. */
    f->code = malloc(f->prog.n_insns * sizeof *f->code);
    if (!f->code) {
        snprintf(error, OKO_ERROR_MAX, "out of memory");
        err = ENOMEM;
        goto fail;
    }
    memcpy(f->code, f->prog.insns, f->prog.n_insns * sizeof *f->code);
    for (size_t pc = 0; pc + 1 < f->prog.n_insns; pc++) {
        struct oko_insn *insn = &f->code[pc];
        if (insn->opcode == LDDW_OPCODE) {
            if (insn->src == OKO_PSEUDO_MAP_INDEX) {
                uint64_t addr = (uintptr_t) f->maps[insn->imm];
                insn->src = 0;
                insn->imm = (uint32_t) addr;
                insn[1].imm = (uint32_t) (addr >> 32);
            }
            pc++;
        }
    }
    if (!opts->interpret && oko_jit_available()) {
        err = oko_jit_compile(f->code, f->prog.n_insns, &f->jit, error);
        if (err) {
            goto fail;
        }
    }
    *filterp = f;
    return 0;

fail:
    oko_filter_destroy(f);
    return err;
}

void
oko_filter_destroy(struct oko_filter *f)
{
    if (f) {
        for (size_t i = 0; i < OKO_MAX_MAPS; i++) {
            oko_map_destroy(f->maps[i]);
        }
        oko_jit_free(&f->jit);
        free(f->code);
        oko_program_destroy(&f->prog);
        free(f);
    }
}
