/* Checked execution (src/oko-checked.c), the fuzzing oracle:
 *  - every program the verifier accepts here (the safe corpus, the filter
 *    library and tests/progs) runs under it on packets of many lengths and
 *    contents without a trap, agreeing with the interpreter;
 *  - each program of the unsafe corpus that an earlier verifier accepted
 *    (one per class of the outside audit), run without verification on a
 *    packet that triggers it, traps: the oracle sees the fault. */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-asm.h"
#include "oko-checked.h"
#include "oko-epoch.h"
#include "oko-filter.h"
#include "oko-interp.h"
#include "oko-verifier.h"
#include "util.h"

static char *
read_text(const char *path)
{
    static char buf[1 << 20];
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    CU_ASSERT_FATAL(feof(f));           /* the whole file, not its start */
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static const size_t lengths[]
    = { 0, 1, 14, 20, 34, 54, 60, 64, 74, 128, 1500 };
#define N_LENGTHS (sizeof lengths / sizeof *lengths)

/* Runs an accepted filter checked on packets of each length, with three
 * fillings; returns the number of traps (printed). */
static int
run_clean(const char *name, struct oko_filter *f, const uint8_t *explored)
{
    int traps = 0;
    unsigned seed = 7;
    for (size_t i = 0; i < N_LENGTHS; i++) {
        for (int fill = 0; fill < 3; fill++) {
            size_t len = lengths[i];
            uint8_t *pkt = malloc(len ? len : 1);
            for (size_t b = 0; b < len; b++) {
                pkt[b] = fill == 0 ? 0 : fill == 1 ? 0xff : rand_r(&seed);
            }
            if (len >= 14 && fill == 2) {
                pkt[12] = 0x08;             /* IPv4, version 4, ihl 5, TCP */
                pkt[13] = 0;
                if (len >= 34) {
                    pkt[14] = 0x45;
                    pkt[23] = 6;
                }
            }
            char error[OKO_ERROR_MAX];
            uint64_t r0;
            oko_epoch_enter();
            int err = oko_checked_run(&f->prog, f->maps, explored, pkt, len,
                                      &r0, error);
            oko_epoch_exit();
            if (err) {
                printf("\n  %s, %zu bytes: %s", name, len, error);
                traps++;
            }
            free(pkt);
        }
    }
    return traps;
}

static int
load_and_run(const char *name, struct oko_program *prog)
{
    static uint8_t explored[OKO_MAX_INSNS];
    memset(explored, 0, sizeof explored);
    struct oko_filter_options opts
        = { .verify = { .explored = explored }, .interpret = true };
    struct oko_filter *f;
    char error[OKO_ERROR_MAX];
    if (oko_filter_from_program(prog, &opts, &f, error)) {
        return -1;                          /* not accepted: nothing to run */
    }
    int traps = run_clean(name, f, explored);
    oko_filter_destroy(f);
    return traps;
}

static void
test_accepted_programs_run_clean(void)
{
    int programs = 0, traps = 0;
    DIR *d = opendir("tests/verifier/safe");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strstr(e->d_name, ".s")) {
            continue;
        }
        char path[512], error[OKO_ERROR_MAX];
        snprintf(path, sizeof path, "tests/verifier/safe/%s", e->d_name);
        struct oko_program prog;
        CU_ASSERT_EQUAL_FATAL(oko_asm(read_text(path), &prog, error), 0);
        int t = load_and_run(e->d_name, &prog);
        CU_ASSERT(t >= 0);
        programs += t >= 0;
        traps += t > 0 ? t : 0;
    }
    closedir(d);
    d = opendir(progs_directory());
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strstr(e->d_name, ".o")) {
            continue;
        }
        size_t size;
        void *elf = read_prog_file(e->d_name, &size);
        struct oko_program prog;
        char error[OKO_ERROR_MAX];
        if (!oko_program_load_elf(elf, size, &prog, error)) {
            int t = load_and_run(e->d_name, &prog);
            programs += t >= 0;
            traps += t > 0 ? t : 0;
        }
        free(elf);
    }
    closedir(d);
    printf("\nchecked execution: %d accepted programs x %zu packets, %d "
           "traps\n",
           programs, N_LENGTHS * 3, traps);
    CU_ASSERT(programs >= 25);
    CU_ASSERT_EQUAL(traps, 0);
}

/* The audit classes' programs trap when run unverified. */
static void
test_unsafe_programs_trap(void)
{
    static const struct {
        const char *file;
        const char *trap;
    } cases[] = {
        { "pointer-diff-pkt-minus-end.s", "of a packet pointer" },
        { "pointer-diff-variable-minus-base.s", "of a stack pointer" },
        { "pointer-diff-two-lookups.s", "a number made of addresses" },
        { "spill-pointer-partly-overwritten.s",
          "overwrites part of a packet pointer" },
        { "byteswap-be64-is-64-bit.s", "of a stack pointer" },
        { "byteswap-le64-is-64-bit.s", "of a stack pointer" },
        { "len-narrowing-overflow-le.s", "of a packet pointer" },
        { "len-narrowing-overflow-sge.s", "of a packet pointer" },
    };
    uint8_t pkt[64];
    memset(pkt, 0xff, sizeof pkt);
    int trapped = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[512], error[OKO_ERROR_MAX];
        snprintf(path, sizeof path, "tests/verifier/unsafe/%s", cases[i].file);
        struct oko_program prog;
        CU_ASSERT_EQUAL_FATAL(oko_asm(read_text(path), &prog, error), 0);
        struct oko_map *maps[OKO_MAX_MAPS] = { NULL };
        for (size_t m = 0; m < prog.n_maps; m++) {
            CU_ASSERT_EQUAL_FATAL(oko_map_create(&prog.maps[m], &maps[m],
                                                 error),
                                  0);
        }
        uint64_t r0;
        size_t len = strstr(cases[i].file, "len-narrowing") ? 1 : sizeof pkt;
        oko_epoch_enter();
        int err = oko_checked_run(&prog, maps, NULL, pkt, len, &r0, error);
        oko_epoch_exit();
        if (err == EFAULT && strstr(error, cases[i].trap)) {
            trapped++;
        } else {
            printf("\n  %s: expected a trap with \"%s\", got \"%s\"",
                   cases[i].file, cases[i].trap, err ? error : "no trap");
        }
        for (size_t m = 0; m < prog.n_maps; m++) {
            oko_map_destroy(maps[m]);
        }
        oko_program_destroy(&prog);
    }
    printf("\nunverified unsafe programs: %d of %zu trapped\n", trapped,
           sizeof cases / sizeof *cases);
    CU_ASSERT_EQUAL(trapped, (int) (sizeof cases / sizeof *cases));
}

/* A run that reaches an instruction the verifier did not mark as explored
 * traps there (as a branch wrongly thought impossible would). */
static void
test_unexplored_instruction_traps(void)
{
    char error[OKO_ERROR_MAX];
    struct oko_program prog;
    CU_ASSERT_EQUAL_FATAL(oko_asm("mov %r0, 0\njlt %r2, 4, +1\nmov %r0, "
                                  "1\nexit\n",
                                  &prog, error),
                          0);
    uint8_t explored[4] = { 0 };
    struct oko_verify_options opts = { .explored = explored };
    CU_ASSERT_EQUAL_FATAL(oko_verify(&prog, &opts, NULL, error), 0);
    CU_ASSERT(explored[0] && explored[1] && explored[2] && explored[3]);
    uint8_t pkt[8] = { 0 };
    uint64_t r0;
    CU_ASSERT_EQUAL(oko_checked_run(&prog, NULL, explored, pkt, 8, &r0, error),
                    0);
    CU_ASSERT_EQUAL(r0, 1);
    explored[2] = 0; /* as if "len >= 4" were impossible */
    CU_ASSERT_EQUAL(oko_checked_run(&prog, NULL, explored, pkt, 8, &r0, error),
                    EFAULT);
    CU_ASSERT_STRING_EQUAL(error, "insn 2: runs an instruction the verifier "
                                  "never explored");
    CU_ASSERT_EQUAL(oko_checked_run(&prog, NULL, explored, pkt, 2, &r0, error),
                    0);
    oko_program_destroy(&prog);
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "accepted programs run clean", test_accepted_programs_run_clean },
        { "unsafe programs trap", test_unsafe_programs_trap },
        { "unexplored instruction traps", test_unexplored_instruction_traps },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "checked execution", cases);
}
