/* Program-local calls (src/oko-inline.c): what a program with functions
 * computes in every engine, and what the loader refuses. */
#include <CUnit/Basic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "oko-asm.h"
#include "oko-filter.h"
#include "util.h"

/* Loads 'text'; returns the filter, or NULL with the reason in 'error'. */
static struct oko_filter *
load(const char *text, char error[OKO_ERROR_MAX])
{
    struct oko_program prog;
    struct oko_filter *f;
    CU_ASSERT_EQUAL_FATAL(oko_asm(text, &prog, error), 0);
    return oko_filter_from_program(&prog, NULL, &f, error) ? NULL : f;
}

/* r0 of 'text' on a 64-byte packet of zeros with byte 0 = 7, the same in
 * every engine. */
static uint64_t
run_everywhere(const char *text)
{
    char error[OKO_ERROR_MAX];
    struct oko_filter *f = load(text, error);
    if (!f) {
        printf("\n  rejected: %s", error);
        CU_FAIL_FATAL("program rejected");
    }
    uint8_t pkt[64] = { 7 };
    uint64_t first = engines[0].run(f, pkt, sizeof pkt);
    for (const struct engine *e = engines + 1; e->name; e++) {
        CU_ASSERT_EQUAL(e->run(f, pkt, sizeof pkt), first);
    }
    oko_filter_destroy(f);
    return first;
}

static void
expect_rejection(const char *text, const char *reason)
{
    char error[OKO_ERROR_MAX];
    struct oko_filter *f = load(text, error);
    CU_ASSERT_PTR_NULL(f);
    if (f || !strstr(error, reason)) {
        printf("\n  expected \"%s\", got \"%s\"", reason,
               f ? "acceptance" : error);
        CU_FAIL("not rejected as expected");
    }
    oko_filter_destroy(f);
}

/* The callee's stack is its own: it writes where the caller keeps a value,
 * relative to its own r10, and the caller's value survives. */
static void
test_callee_has_its_own_frame(void)
{
    CU_ASSERT_EQUAL(run_everywhere(
        "stdw [%r10-8], 41\n"
        "call local f\n"
        "ldxdw %r1, [%r10-8]\n"
        "add %r0, %r1\n"
        "exit\n"
        "f:\n"
        "stdw [%r10-8], 1000\n"
        "ldxdw %r0, [%r10-8]\n"
        "sub %r0, 999\n"
        "exit\n"), 42);
}

/* The caller's frame depth counts an access through a register that points
 * into the stack on one path only (when len <= 100; the 64-byte packet
 * takes that path): the callee's frame starts below fp-72, so its store does
 * not land on the caller's slot. */
static void
test_frame_depth_through_a_join(void)
{
    CU_ASSERT_EQUAL(run_everywhere(
        "mov %r6, %r2\n"
        "jgt %r6, 100, +3\n"
        "mov %r7, %r10\n"
        "add %r7, -64\n"
        "ja +1\n"
        "mov %r7, 0\n"
        "jgt %r6, 100, +1\n"
        "stdw [%r7-8], 7\n"        /* fp-72, reached only through r7 */
        "call local f\n"
        "mov %r0, 0\n"
        "jgt %r6, 100, +1\n"
        "ldxdw %r0, [%r7-8]\n"
        "exit\n"
        "f:\n"
        "stdw [%r10-8], 1000\n"
        "mov %r0, 0\n"
        "exit\n"), 7);
}

/* A pointer into the caller's frame passed as an argument reads the
 * caller's data; copies of r10 in the callee point into its own frame. */
static void
test_stack_pointer_argument(void)
{
    CU_ASSERT_EQUAL(run_everywhere(
        "stdw [%r10-16], 30\n"
        "mov %r1, %r10\n"
        "add %r1, -16\n"
        "call local f\n"
        "ldxdw %r2, [%r10-16]\n"
        "add %r0, %r2\n"            /* 12 + 30 */
        "exit\n"
        "f:\n"
        "ldxdw %r3, [%r1]\n"        /* the caller's 30 */
        "mov %r4, %r10\n"
        "add %r4, -16\n"
        "stdw [%r4], 18\n"          /* the callee's own slot */
        "ldxdw %r5, [%r4]\n"
        "mov %r0, %r3\n"
        "sub %r0, %r5\n"            /* 30 - 18 */
        "exit\n"), 42);
}

/* r6-r9 survive calls (the callee uses them too), also nested ones, and
 * the packet pointer goes through as an argument. */
static void
test_callee_saved_registers_nested(void)
{
    CU_ASSERT_EQUAL(run_everywhere(
        "mov %r6, 1\n"
        "mov %r7, 2\n"
        "mov %r8, 3\n"
        "mov %r9, 4\n"
        "call local f\n"            /* 7 (the packet's first byte) + 20 */
        "add %r0, %r6\n"
        "add %r0, %r7\n"
        "add %r0, %r8\n"
        "add %r0, %r9\n"            /* 27 + 10 */
        "exit\n"
        "f:\n"
        "mov %r6, 100\n"
        "mov %r9, %r1\n"
        "mov %r8, %r2\n"           /* the length, needed after g */
        "call local g\n"
        "add %r0, %r6\n"
        "sub %r0, 100\n"
        "jlt %r8, 1, +2\n"
        "ldxb %r2, [%r9]\n"
        "add %r0, %r2\n"
        "exit\n"
        "g:\n"
        "mov %r6, 5\n"
        "mov %r7, 5\n"
        "mov %r8, 5\n"
        "mov %r9, 5\n"
        "mov %r0, %r6\n"
        "add %r0, %r7\n"
        "add %r0, %r8\n"
        "add %r0, %r9\n"
        "exit\n"), 37);
}

/* One function called from two places, each copy with its own exits. */
static void
test_function_called_twice(void)
{
    CU_ASSERT_EQUAL(run_everywhere(
        "mov %r1, 5\n"
        "call local max10\n"
        "mov %r6, %r0\n"
        "mov %r1, 15\n"
        "call local max10\n"
        "add %r0, %r6\n"            /* 10 + 5 */
        "exit\n"
        "max10:\n"
        "mov %r0, %r1\n"
        "jle %r1, 10, +2\n"
        "mov %r0, 10\n"
        "exit\n"
        "exit\n"), 15);
}

/* clang's functions (noinline, in .text, reached through relocations), one
 * with a map lookup through a key on its caller's stack, in every engine. */
static void
test_compiled_functions(void)
{
    size_t size;
    void *elf = read_prog_file("functions.o", &size);
    for (const struct engine *e = engines; e->name; e++) {
        char error[OKO_ERROR_MAX];
        struct oko_filter *f;
        CU_ASSERT_EQUAL_FATAL(oko_filter_load(elf, size, NULL, &f, error), 0);
        uint8_t tcp[64] = { 0 }, arp[64] = { 0 };
        tcp[12] = 0x08; tcp[14] = 0x45; tcp[23] = 6;
        arp[12] = 0x08; arp[13] = 0x06;
        CU_ASSERT_EQUAL(e->run(f, tcp, sizeof tcp), 0);     /* TCP seen once */
        CU_ASSERT_EQUAL(e->run(f, tcp, sizeof tcp), 1);     /* twice */
        CU_ASSERT_EQUAL(e->run(f, arp, sizeof arp), 0);
        /* too short to be IPv4 */
        CU_ASSERT_EQUAL(e->run(f, tcp, 20), 0);
        oko_filter_destroy(f);
    }
    free(elf);
}

static void
test_rejections(void)
{
    expect_rejection("call local f\nexit\nf:\ncall local f\nexit\n",
                     "insn 2: recursive call");
    expect_rejection("call local f\nexit\nf:\ncall local g\nexit\ng:\ncall "
                     "local f\nexit\n",
                     "insn 4: recursive call");
    expect_rejection("call local +5\nexit\n",
                     "insn 0: call to insn 6, outside the program");
    expect_rejection("call local f\nexit\nf:\nmov %r0, 1\ng:\nmov %r0, "
                     "2\nexit\n"
                     "h:\ncall local g\nexit\n",
                     "runs on into the function at insn 3");
    expect_rejection("call local f\nja +2\nexit\nf:\nmov %r0, 1\nexit\n",
                     "insn 1: jump from the function at insn 0 into the "
                     "function at insn 3");
    /* 480 bytes in the caller and 40 in the callee do not fit in 512; the
     * callee's store is named by its own index. */
    expect_rejection("stdw [%r10-480], 1\ncall local f\nexit\nf:\nstdw "
                     "[%r10-40], 2\n"
                     "mov %r0, 0\nexit\n",
                     "insn 3: ");
    expect_rejection("mov %r1, 0\ncall local f\nexit\nf:\nmov %r2, 1\nadd "
                     "%r2, %r10\nmov %r0, 0\nexit\n",
                     "insn 4: r10 used as an operand in a called function");
    /* Nine functions deep. */
    char deep[1024] = "";
    for (int i = 0; i < 9; i++) {
        snprintf(deep + strlen(deep), sizeof deep - strlen(deep),
                 "call local f%d\nexit\nf%d:\n", i, i);
    }
    strcat(deep, "mov %r0, 0\nexit\n");
    expect_rejection(deep, "calls nested deeper than 8");

    /* Constants added to a copy of r10 add up beyond 32 bits before the
     * verifier sees them (found by fuzz-run: a signed overflow, under UBSan).
     */
    expect_rejection("mov %r1, %r10\nadd %r1, 1618018536\nadd %r1, "
                     "1618018536\n"
                     "call local f\nexit\nf:\nmov %r0, 0\nexit\n",
                     "insn ");

    /* Register fields name r11-r15 too: the verifier refuses them, the
     * inliner must not index by them first (found by fuzz-load). */
    static const struct oko_insn bad_register[] = {
        { 0x85, 0, 1, 0, 1 },                   /* call local +1 */
        { 0x95, 0, 0, 0, 0 },
        { 0xbf, 15, 10, 0, 0 },                 /* mov %r15, %r10 */
        { 0x95, 0, 0, 0, 0 },
    };
    struct oko_program prog = { .n_insns = 4 };
    prog.insns = malloc(sizeof bad_register);
    memcpy(prog.insns, bad_register, sizeof bad_register);
    char error[OKO_ERROR_MAX];
    struct oko_filter *f;
    CU_ASSERT_NOT_EQUAL(oko_filter_from_program(&prog, NULL, &f, error), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "insn 2: "));
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "a callee has its own stack frame", test_callee_has_its_own_frame },
        { "stack pointers as arguments", test_stack_pointer_argument },
        { "frame depth through a join", test_frame_depth_through_a_join },
        { "r6-r9 survive nested calls", test_callee_saved_registers_nested },
        { "one function, two call sites", test_function_called_twice },
        { "compiled functions", test_compiled_functions },
        { "what is refused, and where", test_rejections },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "program-local calls", cases);
}
