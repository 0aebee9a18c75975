/* The verifier's corpora (CUnit):
 *  - the .s files of tests/verifier/unsafe: each must be rejected, with the
 * message text of its "# reject:" line and at the instruction of "# insn:";
 *  - the .s files of tests/verifier/safe and every compiled program in the
 * test programs folder (the filter library's and tests/progs/): accepted;
 *  - generated programs: too long, too complex, random bytes (the
 *    verifier must answer, never crash or hang). */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oko-asm.h"
#include "oko-filter.h"
#include "oko-inline.h"
#include "oko-verifier.h"
#include "util.h"

static char *
read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    CU_ASSERT_FATAL(feof(f));           /* the whole file, not its start */
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The value of the "# KEY: value" header line, or NULL. */
static const char *
header(const char *text, const char *key, char *out, size_t size)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "# %s: ", key);
    const char *p = strstr(text, pattern);
    if (!p) {
        return NULL;
    }
    p += strlen(pattern);
    snprintf(out, size, "%.*s", (int) strcspn(p, "\n"), p);
    return out;
}

static int
list_dir(const char *dir, const char *suffix, char *names[], int max)
{
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < max;) {
        size_t len = strlen(e->d_name), slen = strlen(suffix);
        if (len > slen && !strcmp(e->d_name + len - slen, suffix)) {
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    return n;
}

/* What loading does: program-local calls inlined, then verification. */
static int
inline_and_verify(struct oko_program *prog, char error[OKO_ERROR_MAX])
{
    int err = oko_program_inline_calls(prog, error);
    return err ? err : oko_verify(prog, NULL, NULL, error);
}

static void
test_unsafe_corpus(void)
{
    char *names[256];
    int n = list_dir("tests/verifier/unsafe", ".s", names, 256);
    int rejected = 0;
    for (int i = 0; i < n; i++) {
        char path[512], reason[256], insn[32], error[OKO_ERROR_MAX];
        snprintf(path, sizeof path, "tests/verifier/unsafe/%s", names[i]);
        const char *text = read_text(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(
            header(text, "reject", reason, sizeof reason));
        struct oko_program prog;
        int err = oko_asm(text, &prog, error);
        if (err) {
            printf("\n  %s: does not assemble: %s", names[i], error);
            CU_FAIL("corpus program does not assemble");
            free(names[i]);
            continue;
        }
        err = inline_and_verify(&prog, error);
        char prefix[48] = "";
        if (header(text, "insn", insn, sizeof insn)) {
            snprintf(prefix, sizeof prefix, "insn %s: ", insn);
        }
        if (err && strstr(error, reason)
            && !strncmp(error, prefix, strlen(prefix))) {
            rejected++;
        } else {
            printf("\n  %s: expected \"%s%s\", got \"%s\"", names[i], prefix,
                   reason, err ? error : "accepted");
            CU_FAIL("unsafe program not rejected as expected");
        }
        oko_program_destroy(&prog);
        free(names[i]);
    }
    printf("\nunsafe corpus: %d of %d rejected with the expected reason\n",
           rejected, n);
    CU_ASSERT(n >= 40);
    CU_ASSERT_EQUAL(rejected, n);
}

static void
test_safe_corpus(void)
{
    char *names[256];
    int n = list_dir("tests/verifier/safe", ".s", names, 256);
    int accepted = 0;
    for (int i = 0; i < n; i++) {
        char path[512], error[OKO_ERROR_MAX];
        snprintf(path, sizeof path, "tests/verifier/safe/%s", names[i]);
        struct oko_program prog;
        int err = oko_asm(read_text(path), &prog, error);
        if (!err) {
            err = inline_and_verify(&prog, error);
            oko_program_destroy(&prog);
        }
        if (err) {
            printf("\n  %s: %s", names[i], error);
        }
        accepted += !err;
        free(names[i]);
    }
    printf("\nsafe corpus (assembly): %d of %d accepted\n", accepted, n);
    CU_ASSERT(n > 0);
    CU_ASSERT_EQUAL(accepted, n);
}

/* Compiled programs the verifier (or loader) must refuse, with why. */
static const struct {
    const char *name;
    const char *reason;
} refused_objects[] = {
    { "global_data.o", "global and static data are not allowed" },
    { "two_maps.o", "r0 holds a map reference at exit" },
    { "unsafe_no_len_check.o",
      "packet read of 1 bytes at offset 12 is not proven within len" },
    { "unsafe_no_null_check.o", "may be NULL" },
    { "unsafe_loop.o", "makes a loop" },
    { "unsafe_packet_write.o", "writes to the packet are not allowed" },
};

static void
test_compiled_programs(void)
{
    char *names[256];
    int n = list_dir(progs_directory(), ".o", names, 256);
    int accepted = 0, expected = 0, refused = 0;
    for (int i = 0; i < n; i++) {
        char error[OKO_ERROR_MAX];
        size_t size;
        void *elf = read_prog_file(names[i], &size);
        struct oko_filter *filter;
        int err = oko_filter_load(elf, size, NULL, &filter, error);
        free(elf);
        const char *reason = NULL;
        for (size_t k = 0;
             k < sizeof refused_objects / sizeof *refused_objects; k++) {
            if (!strcmp(names[i], refused_objects[k].name)) {
                reason = refused_objects[k].reason;
            }
        }
        if (!reason) {
            expected++;
            if (err) {
                printf("\n  %s: %s", names[i], error);
            }
            accepted += !err;
        } else if (!err || !strstr(error, reason)) {
            printf("\n  %s: expected \"%s\", got \"%s\"", names[i], reason,
                   err ? error : "accepted");
            CU_FAIL("compiled program not refused as expected");
        } else {
            refused++;
        }
        oko_filter_destroy(filter);
        free(names[i]);
    }
    printf("\ncompiled programs: %d of %d safe ones accepted, %d refused as "
           "expected\n",
           accepted, expected, refused);
    CU_ASSERT(expected > 0);
    CU_ASSERT_EQUAL(accepted, expected);
    CU_ASSERT_EQUAL(refused,
                    (int) (sizeof refused_objects / sizeof *refused_objects));
}

/* A program 'n' instructions long: movs then exit. */
static struct oko_program
straight_program(size_t n)
{
    struct oko_program prog = { .n_insns = n };
    prog.insns = calloc(n, sizeof *prog.insns);
    for (size_t i = 0; i + 1 < n; i++) {
        prog.insns[i]
            = (struct oko_insn){ .opcode = 0xb7, .dst = 0, .imm = i };
    }
    prog.insns[n - 1].opcode = 0x95;
    return prog;
}

static void
test_instruction_limit(void)
{
    char error[OKO_ERROR_MAX];
    struct oko_program prog = straight_program(OKO_MAX_INSNS);
    CU_ASSERT_EQUAL(oko_verify(&prog, NULL, NULL, error), 0);
    oko_program_destroy(&prog);
    prog = straight_program(OKO_MAX_INSNS + 1);
    CU_ASSERT_EQUAL(oko_verify(&prog, NULL, NULL, error), EINVAL);
    CU_ASSERT_STRING_EQUAL(error,
                           "program of 4097 instructions; at most 4096");
    oko_program_destroy(&prog);
}

/* A harness's minimum length is bounded, so that the length arithmetic
 * stays far from any wrap: above the bound is a clear error. */
static void
test_min_len_limit(void)
{
    char error[OKO_ERROR_MAX];
    struct oko_program prog = straight_program(2);
    struct oko_verify_options opts = { .min_len = OKO_MAX_MIN_LEN };
    CU_ASSERT_EQUAL(oko_verify(&prog, &opts, NULL, error), 0);
    opts.min_len = (uint64_t) OKO_MAX_MIN_LEN + 1;
    CU_ASSERT_EQUAL(oko_verify(&prog, &opts, NULL, error), EINVAL);
    CU_ASSERT_STRING_EQUAL(error,
                           "minimum packet length 16777217 is above 16777216");
    oko_program_destroy(&prog);
}

/* 'k' diamonds, each on a different bit of len, each adding a different
 * power of two to r4: 2^k paths whose states never cover each other. */
static void
test_too_complex(void)
{
    char text[65536] = "mov %r4, 0\n", error[OKO_ERROR_MAX];
    for (int i = 0; i < 40; i++) {
        char block[256];
        snprintf(block, sizeof block,
                 "mov %%r3, %%r2\nrsh %%r3, %d\nand %%r3, 1\njeq %%r3, 0, "
                 "+1\nadd %%r4, %d\n",
                 i % 16, 1 << (i % 30));
        strcat(text, block);
    }
    strcat(text, "mov %r0, %r4\nexit\n");
    struct oko_program prog;
    CU_ASSERT_EQUAL_FATAL(oko_asm(text, &prog, error), 0);
    struct oko_verify_stats stats;
    CU_ASSERT_EQUAL(oko_verify(&prog, NULL, &stats, error), EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "the program is too complex"));
    CU_ASSERT(stats.explored + stats.compare_cost > OKO_VERIFY_BUDGET);
    /* The same with 8 diamonds is fine. */
    oko_program_destroy(&prog);
    char *cut = text;
    for (int lines = 0; lines < 1 + 8 * 5; lines++) {
        cut = strchr(cut, '\n') + 1;
    }
    static const char tail[] = "mov %r0, %r4\nexit\n";
    memcpy(cut, tail, sizeof tail);
    CU_ASSERT_EQUAL_FATAL(oko_asm(text, &prog, error), 0);
    CU_ASSERT_EQUAL(oko_verify(&prog, NULL, &stats, error), 0);
    oko_program_destroy(&prog);
}

/* 4,000 comparisons of an unknown number, each with a branch to the end:
 * every taken branch waits while the other goes on.  Waiting branches are
 * whole states (8.6 KB each): more than 1,024 at once is refused, not 35 MB
 * of them; 1,000 are fine. */
static void
test_pending_branches_bounded(void)
{
    size_t cap = 1 << 17;
    char *text = malloc(cap), error[OKO_ERROR_MAX];
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    for (int branches = 4000; branches >= 1000; branches -= 3000) {
        int n = snprintf(text, cap, "call 6\nmov %%r7, %%r0\n");
        for (int i = 0; i < branches; i++) {
            n += snprintf(text + n, cap - n, "jeq %%r7, %d, out\n", i);
        }
        snprintf(text + n, cap - n,
                 "mov %%r0, 0\nexit\nout:\nmov %%r0, 1\nexit\n");
        struct oko_program prog;
        CU_ASSERT_EQUAL_FATAL(oko_asm(text, &prog, error), 0);
        struct oko_verify_stats stats;
        int err = oko_verify(&prog, NULL, &stats, error);
        if (branches == 4000) {
            CU_ASSERT_EQUAL(err, EINVAL);
            CU_ASSERT_STRING_EQUAL(error, "insn 1026: the program is too "
                                          "complex: more than "
                                          "1024 branches wait to be explored "
                                          "at once");
        } else {
            CU_ASSERT_EQUAL(err, 0);
            CU_ASSERT_EQUAL(stats.max_pending, 1000);
        }
        oko_program_destroy(&prog);
    }
    free(text);
}

static size_t
resident_bytes(void)
{
    unsigned long size = 0, resident = 0;
    static const char statm[] = "/proc/self/statm";
    FILE *f = fopen(statm, "r");
    if (f) {
        if (fscanf(f, "%lu %lu", &size, &resident) != 2) {
            resident = 0;
        }
        fclose(f);
    }
    return resident * (size_t) sysconf(_SC_PAGESIZE);
}

/* Many join points, each reached with registers of different ranges and
 * with all 64 stack slots spilled: the most memory per stored state.  The
 * stored states stay within 16 MiB (not 8,192 x 8.6 KB = 70 MB) and go back
 * to the system when the verification ends. */
static void
test_stored_states_bounded(void)
{
    size_t cap = 1 << 20;
    char *text = malloc(cap), error[OKO_ERROR_MAX];
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    int blocks = 400;
    /* A packet shorter than 64 bytes jumps over the rest to the exit. */
    int n = snprintf(text, cap, "jlt %%r2, 64, +%d\n", 7 + 64 + 2 * blocks);
    for (int r = 3; r <= 9; r++) {
        n += snprintf(text + n, cap - n, "ldxb %%r%d, [%%r1+%d]\n", r, r);
    }
    for (int slot = 1; slot <= 64; slot++) {
        n += snprintf(text + n, cap - n, "stxdw [%%r10-%d], %%r%d\n", slot * 8,
                      3 + slot % 7);
    }
    uint32_t seed = 1;
    for (int i = 0; i < blocks; i++) {
        seed = seed * 1103515245 + 12345;
        int r = 3 + (seed >> 16) % 7;
        n += snprintf(text + n, cap - n, "jgt %%r%d, %u, +1\nmov %%r%d, %u\n",
                      r, 1 + (seed >> 8) % 250, r, (seed >> 4) % 256);
    }
    n += snprintf(text + n, cap - n, "mov %%r0, 0\nexit\n");

    struct oko_program prog;
    CU_ASSERT_EQUAL_FATAL(oko_asm(text, &prog, error), 0);
    size_t before = resident_bytes();
    struct oko_verify_stats stats;
    oko_verify(&prog, NULL, &stats, error);
    size_t after = resident_bytes();
    CU_ASSERT(stats.stored > 1000);
    CU_ASSERT(stats.stored_bytes > (8u << 20));
    CU_ASSERT(stats.stored_bytes <= (16u << 20));
    CU_ASSERT(after < before + (4u << 20));
    if (after >= before + (4u << 20) || stats.stored_bytes > (16u << 20)) {
        fprintf(stderr, "%zu states in %zu bytes; resident %zu -> %zu bytes\n",
                stats.stored, stats.stored_bytes, before, after);
    }
    oko_program_destroy(&prog);
    free(text);
}

/* Random instruction streams after a prologue that sets r0 and r3-r9:
 * the verifier answers every one, and accepts a fair share. */
static void
test_random_programs(void)
{
    unsigned seed = 12345;
    int accepted = 0;
    static const uint8_t opcodes[] = {
        0x07, 0x0f, 0x17, 0x1f, 0x27, 0x2f, 0x37, 0x3f, 0x47, 0x4f, 0x57, 0x5f,
        0x67, 0x6f, 0x77, 0x7f, 0x87, 0x97, 0x9f, 0xa7, 0xaf, 0xb7, 0xbf, 0xc7,
        0xcf, 0xd4, 0xdc, 0xd7, 0x04, 0x0c, 0x14, 0x1c, 0x24, 0x2c, 0x34, 0x3c,
        0x44, 0x4c, 0x54, 0x5c, 0x64, 0x6c, 0x74, 0x7c, 0x84, 0x94, 0x9c, 0xa4,
        0xac, 0xb4, 0xbc, 0xc4, 0xcc, 0x61, 0x69, 0x71, 0x79, 0x81, 0x89, 0x91,
        0x62, 0x6a, 0x72, 0x7a, 0x63, 0x6b, 0x73, 0x7b, 0xdb, 0xc3, 0x05, 0x15,
        0x1d, 0x25, 0x2d, 0x35, 0x3d, 0x45, 0x4d, 0x55, 0x5d, 0x65, 0x6d, 0x75,
        0x7d, 0xa5, 0xad, 0xb5, 0xbd, 0xc5, 0xcd, 0xd5, 0xdd, 0x16, 0x1e, 0x26,
        0xa6, 0x56, 0x85, 0x95, 0x18,
    };
    for (int round = 0; round < 20000; round++) {
        size_t body = 1 + rand_r(&seed) % 10;
        size_t n = 8 + body + 1;
        struct oko_program prog = { .n_insns = n };
        prog.insns = calloc(n, sizeof *prog.insns);
        static const int prologue_regs[] = { 0, 3, 4, 5, 6, 7, 8, 9 };
        for (size_t i = 0; i < 8; i++) {
            prog.insns[i]
                = (struct oko_insn){ .opcode = 0xb7,
                                     .dst = prologue_regs[i],
                                     .imm = (int32_t) rand_r(&seed) % 100 };
        }
        for (size_t i = 8; i < n - 1; i++) {
            struct oko_insn *insn = &prog.insns[i];
            insn->opcode = rand_r(&seed) % 16
                               ? opcodes[rand_r(&seed) % sizeof opcodes]
                               : rand_r(&seed) % 256;
            insn->dst
                = rand_r(&seed) % 32 ? rand_r(&seed) % 10 : rand_r(&seed) % 16;
            insn->src
                = rand_r(&seed) % 32 ? rand_r(&seed) % 11 : rand_r(&seed) % 16;
            switch (insn->opcode & 0x07) {
            case 0x05: case 0x06:
                insn->off = rand_r(&seed) % 8
                                ? rand_r(&seed) % 4
                                : (int16_t) (rand_r(&seed) % 9) - 4;
                break;
            case 0x04: case 0x07:
                insn->off = rand_r(&seed) % 16 ? 0 : rand_r(&seed) % 2;
                break;
            default:
                insn->off = rand_r(&seed) % 4
                                ? -8 * (1 + rand_r(&seed) % 8)
                                : (int16_t) (rand_r(&seed) % 64) - 32;
            }
            insn->imm = rand_r(&seed) % 4 ? (int32_t) (rand_r(&seed) % 64) - 16
                                          : (int32_t) rand_r(&seed);
            if ((insn->opcode & 0xf0) == 0x80
                && (insn->opcode & 0x07) == 0x05) {
                /* helper ids around the real ones */
                insn->imm = rand_r(&seed) % 9;
            }
            if ((insn->opcode & 0xf0) == 0xd0
                && (insn->opcode & 0x07) != 0x05) {
                insn->imm = 16 << (rand_r(&seed) % 3);
            }
            /* Mostly clear the field the operation does not use (the
             * verifier refuses it set; now and then it still is). */
            int cls = insn->opcode & 0x07, op = insn->opcode & 0xf0;
            bool alu = cls == 0x04 || cls == 0x07;
            bool cond = (cls == 0x05 || cls == 0x06) && op != 0x00
                        && op != 0x80 && op != 0x90;
            if ((alu || cond) && rand_r(&seed) % 16) {
                if (alu && (op == 0x80 || op == 0xd0)) {
                    insn->src = 0;
                    insn->imm = op == 0x80 ? 0 : insn->imm;
                } else if (insn->opcode & 0x08) {
                    insn->imm = 0;
                } else {
                    insn->src = 0;
                }
            }
        }
        prog.insns[n - 1].opcode = 0x95;
        char error[OKO_ERROR_MAX];
        int err = oko_verify(&prog, NULL, NULL, error);
        CU_ASSERT(err == 0 || (err == EINVAL && !strncmp(error, "insn ", 5)));
        if (err && getenv("OKO_SHOW_REJECTIONS")) {
            printf("\nREJ %s", strchr(error, ':') + 2);
        }
        accepted += !err;
        oko_program_destroy(&prog);
    }
    printf("\nrandom programs: %d of 20000 accepted\n", accepted);
    CU_ASSERT(accepted > 1000);
}

/* Assembles 'text' and loads it for the JIT or (interpret) the interpreter. */
static struct oko_filter *
load_asm(const char *text, int interpret)
{
    struct oko_program prog;
    struct oko_filter *f;
    char error[OKO_ERROR_MAX];
    CU_ASSERT_EQUAL_FATAL(oko_asm(text, &prog, error), 0);
    struct oko_filter_options opts = { .interpret = interpret };
    CU_ASSERT_EQUAL_FATAL(oko_filter_from_program(&prog, &opts, &f, error), 0);
    return f;
}

/* The verifier proves a program safe for lengths up to OKO_MAX_PKT_LEN; a
 * branch only a longer packet takes is never checked.  The datapath's
 * packets can be longer, so a longer one must not run the program: here
 * the unchecked branch would return 7 (found by the second opinion). */
static void
test_longer_packets_do_not_run(void)
{
    static const char text[] =
        "jgt %r2, 65535, long\n"
        "mov %r0, 0\n"
        "exit\n"
        "long:\n"
        "mov %r0, 7\n"
        "exit\n";
    static uint8_t packet[OKO_MAX_PKT_LEN + 2];
    for (int interpret = 0; interpret <= 1; interpret++) {
        struct oko_filter *f = load_asm(text, interpret);
        CU_ASSERT_EQUAL(oko_filter_run(f, packet, OKO_MAX_PKT_LEN), 0);
        uint64_t r0 = oko_filter_run(f, packet, OKO_MAX_PKT_LEN + 1);
        CU_ASSERT_EQUAL(r0, OKO_R0_TOO_LONG);
        CU_ASSERT_EQUAL(oko_verdict_of(r0), OKO_VERDICT_ERROR);
        CU_ASSERT_EQUAL(oko_filter_run(f, packet, UINT32_MAX),
                        OKO_R0_TOO_LONG);
        oko_filter_destroy(f);
    }
}

/* The verifier decides "r1 == 0" as false (r1 points into a packet).  A
 * NULL packet buffer would take the branch it never checked: here that
 * branch returns 7. */
static void
test_null_packet_does_not_run(void)
{
    static const char text[] =
        "jeq %r1, 0, null\n"
        "mov %r0, 0\n"
        "exit\n"
        "null:\n"
        "mov %r0, 7\n"
        "exit\n";
    static uint8_t packet[1];
    for (int interpret = 0; interpret <= 1; interpret++) {
        struct oko_filter *f = load_asm(text, interpret);
        CU_ASSERT_EQUAL(oko_filter_run(f, packet, 0), 0);
        uint64_t r0 = oko_filter_run(f, NULL, 0);
        CU_ASSERT_EQUAL(r0, OKO_R0_NO_PACKET);
        CU_ASSERT_EQUAL(oko_verdict_of(r0), OKO_VERDICT_ERROR);
        oko_filter_destroy(f);
    }
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "unsafe corpus", test_unsafe_corpus },
        { "safe corpus", test_safe_corpus },
        { "compiled programs", test_compiled_programs },
        { "instruction limit", test_instruction_limit },
        { "too complex", test_too_complex },
        { "a NULL packet does not run", test_null_packet_does_not_run },
        { "branches waiting are bounded", test_pending_branches_bounded },
        { "minimum length limit", test_min_len_limit },
        { "stored states bounded and given back", test_stored_states_bounded },
        { "random programs", test_random_programs },
        { "longer packets do not run", test_longer_packets_do_not_run },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "verifier", cases);
}
