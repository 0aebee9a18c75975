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

/* oko-prevail-dump FILE OUT [MIN_LEN]: loads FILE (an ELF object or .s) as
 * ovs-vswitchd does, inlines program-local calls, runs our verifier (with
 * MIN_LEN as the known minimum packet length, for the conformance suite)
 * and writes the program for oko-prevail (dump-format.h).  Prints
 * "ours: accept" or "ours: reject: REASON" (exit 0 or 1), or
 * "ours: load-error: REASON" (exit 3, nothing written).  With DISASM set in
 * the environment, also the instructions as verified. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump-format.h"
#include "oko-asm.h"
#include "oko-inline.h"
#include "oko-program.h"
#include "oko-verifier.h"

int
main(int argc, char *argv[])
{
    if (argc < 3) {
        fprintf(stderr, "usage: oko-prevail-dump FILE OUT [MIN_LEN]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    static char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';

    struct oko_program prog;
    char error[OKO_ERROR_MAX];
    int err = n >= 4 && !memcmp(buf, "\177ELF", 4)
              ? oko_program_load_elf(buf, n, &prog, error)
              : oko_asm(buf, &prog, error);
    if (!err) {
        err = oko_program_inline_calls(&prog, error);
    }
    if (err) {
        printf("ours: load-error: %s\n", error);
        return 3;
    }
    struct oko_verify_options opts = {
        .min_len = argc > 3 ? strtoull(argv[3], NULL, 0) : 0,
    };
    err = oko_verify(&prog, &opts, NULL, error);
    if (err) {
        printf("ours: reject: %s\n", error);
    } else {
        printf("ours: accept\n");
    }
    if (oko_dump_write(argv[2], &prog)) {
        perror(argv[2]);
        return 2;
    }
    if (getenv("DISASM")) {
        for (size_t pc = 0; pc < prog.n_insns;) {
            char line[128];
            int used = oko_disasm_insn(&prog, pc, line, sizeof line);
            printf("%4zu: %s\n", pc, line);
            pc += used > 0 ? used : 1;
        }
    }
    oko_program_destroy(&prog);
    return err ? 1 : 0;
}
