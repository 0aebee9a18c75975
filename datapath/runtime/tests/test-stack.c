/* Unit tests of the program stack (CUnit): r10 points into the calling
 * thread's guarded region in both engines, never at the native stack; an
 * access past either end of the stack page, at any offset an instruction
 * can encode, faults in a guard page (the defense when a verifier bug lets
 * a program through); the region is per thread and goes with its thread.
 *
 * The programs here are not verified (the verifier would refuse all but
 * the first): they stand for what a verifier bug would let through. */
#define _GNU_SOURCE
#include <CUnit/Basic.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oko-interp.h"
#include "oko-jit.h"
#include "oko-stack.h"
#include "util.h"

#define INSN(OP, DST, SRC, OFF, IMM) { (OP), (DST), (SRC), (OFF), (IMM) }
#define EXIT INSN(0x95, 0, 0, 0, 0)
#define MOV64_REG 0xbf
#define MOV64_IMM 0xb7
#define STDW_IMM 0x7a                   /* *(u64 *) (dst + off) = imm */

#define EXIT_FAULT_IN_GUARD 42
#define EXIT_FAULT_ELSEWHERE 43
#define EXIT_NO_FAULT 44

enum engine { INTERPRETER, JIT };
static const char *const engine_names[] = { "interpreter", "JIT" };

static uint64_t
run(enum engine engine, const struct oko_insn *insns, size_t n)
{
    void *top = oko_stack_top();
    CU_ASSERT_PTR_NOT_NULL_FATAL(top);
    if (engine == INTERPRETER) {
        return oko_interp_run(insns, NULL, 0, top);
    }
    struct oko_jit jit;
    char error[OKO_ERROR_MAX];
    CU_ASSERT_EQUAL_FATAL(oko_jit_compile(insns, n, &jit, error), 0);
    uint64_t r0 = jit.fn(NULL, 0, top);
    oko_jit_free(&jit);
    return r0;
}

/* r10 is the end of the thread's stack page, in both engines. */
static void
test_r10_is_the_guarded_stack(void)
{
    const struct oko_insn insns[] = { INSN(MOV64_REG, 0, 10, 0, 0), EXIT };
    for (int e = INTERPRETER; e <= JIT; e++) {
        uint64_t r10 = run(e, insns, 2);
        uintptr_t start, page;
        size_t size, page_size;
        CU_ASSERT_FATAL(oko_stack_region(&start, &size, &page, &page_size));
        void *top = oko_stack_top();
        CU_ASSERT_EQUAL(r10, (uintptr_t) top);
        CU_ASSERT_EQUAL(r10, page + page_size - OKO_STACK_ABOVE_TOP);
        CU_ASSERT(page_size >= OKO_STACK_SIZE + OKO_STACK_ABOVE_TOP);
        /* Not the native stack: far from this function's frame. */
        uintptr_t here = (uintptr_t) &start;
        CU_ASSERT(here < start || here >= start + size);
        if (r10 != page + page_size - OKO_STACK_ABOVE_TOP) {
            fprintf(stderr, "%s: r10 %#" PRIx64 " is not the stack top %#lx\n",
                    engine_names[e], r10,
                    (unsigned long) (page + page_size - OKO_STACK_ABOVE_TOP));
        }
    }
}

static uintptr_t guard_low, guard_high;         /* [low, high) of one guard */

static void
on_segv(int sig, siginfo_t *info, void *context)
{
    (void) sig;
    (void) context;
    uintptr_t addr = (uintptr_t) info->si_addr;
    _exit(addr >= guard_low && addr < guard_high ? EXIT_FAULT_IN_GUARD
                                                 : EXIT_FAULT_ELSEWHERE);
}

/* Runs "*(u64 *) (r10 + off) = 7" in a child; returns the child's exit
 * status: EXIT_FAULT_IN_GUARD if it faulted at an address inside the
 * guard [low, high). */
static int
store_in_child(enum engine engine, int16_t off, uintptr_t low, uintptr_t high)
{
    const struct oko_insn insns[] = {
        INSN(STDW_IMM, 10, 0, off, 7), INSN(MOV64_IMM, 0, 0, 0, 0), EXIT,
    };
    fflush(NULL);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        guard_low = low;
        guard_high = high;
        struct sigaction sa
            = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, NULL);
        sigaction(SIGBUS, &sa, NULL);
        run(engine, insns, 3);
        _exit(EXIT_NO_FAULT);
    }
    int status;
    CU_ASSERT_EQUAL_FATAL(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Stores at the extremes of what r10 + off reaches fault in a guard;
 * stores at the page's lowest and highest bytes land in the page. */
static void
test_guards_catch_any_r10_offset(void)
{
    oko_stack_top();
    uintptr_t start, page;
    size_t size, page_size;
    CU_ASSERT_FATAL(oko_stack_region(&start, &size, &page, &page_size));
    uintptr_t page_end = page + page_size, end = start + size;
    /* r10 + below = page */
    int16_t below = OKO_STACK_ABOVE_TOP - page_size;
    const struct {
        int16_t off;
        uintptr_t low, high;                    /* the guard it must hit */
    } cases[] = {
        /* the first word above the page */
        { OKO_STACK_ABOVE_TOP, page_end, end },
        { INT16_MAX, page_end, end },           /* the furthest above */
        { below - 8, start, page },             /* the first word below */
        { INT16_MIN, start, page },             /* the furthest below */
    };
    for (int e = INTERPRETER; e <= JIT; e++) {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            int status
                = store_in_child(e, cases[i].off, cases[i].low, cases[i].high);
            CU_ASSERT_EQUAL(status, EXIT_FAULT_IN_GUARD);
            if (status != EXIT_FAULT_IN_GUARD) {
                fprintf(stderr, "%s: store at r10%+d: child status %d\n",
                        engine_names[e], cases[i].off, status);
            }
        }
        CU_ASSERT_EQUAL(store_in_child(e, below, 0, 0), EXIT_NO_FAULT);
        CU_ASSERT_EQUAL(store_in_child(e, OKO_STACK_ABOVE_TOP - 8, 0, 0),
                        EXIT_NO_FAULT);
    }
}

static void *
thread_region(void *regionp)
{
    uintptr_t *region = regionp;
    size_t size, page_size;
    oko_stack_top();
    CU_ASSERT(oko_stack_region(&region[0], &size, &region[1], &page_size));
    region[2] = size;
    return NULL;
}

static bool
mapped(uintptr_t start, size_t size)
{
    unsigned char vec[64];
    long page = sysconf(_SC_PAGESIZE);
    return mincore((void *) start,
                   size < 64 * (size_t) page ? size : 64 * page, vec)
               == 0
           || errno != ENOMEM;
}

/* Each thread has its own region; it is unmapped when the thread exits. */
static void
test_region_per_thread(void)
{
    oko_stack_top();
    uintptr_t start, page;
    size_t size, page_size;
    CU_ASSERT_FATAL(oko_stack_region(&start, &size, &page, &page_size));

    uintptr_t region[3] = { 0 };
    pthread_t thread;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&thread, NULL, thread_region, region),
                          0);
    pthread_join(thread, NULL);
    CU_ASSERT_NOT_EQUAL(region[0], start);
    CU_ASSERT(region[0] + region[2] <= start || start + size <= region[0]);
    CU_ASSERT(mapped(start, size));
    CU_ASSERT(!mapped(region[0], region[2]));
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "r10 is the guarded stack", test_r10_is_the_guarded_stack },
        { "guards catch any r10 offset", test_guards_catch_any_r10_offset },
        { "one region per thread", test_region_per_thread },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "stack", cases);
}
