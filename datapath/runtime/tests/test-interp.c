/* Unit tests of the reference interpreter (CUnit). */
#include <CUnit/Basic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-interp.h"
#include "oko-stack.h"
#include "oko-program.h"
#include "util.h"

#define INSN(OP, DST, SRC, OFF, IMM) { (OP), (DST), (SRC), (OFF), (IMM) }
#define EXIT INSN(0x95, 0, 0, 0, 0)

static struct oko_program
load_prog(const char *name)
{
    char error[OKO_ERROR_MAX];
    size_t size;
    void *elf = read_prog_file(name, &size);
    struct oko_program prog;
    CU_ASSERT_EQUAL_FATAL(oko_program_load_elf(elf, size, &prog, error), 0);
    free(elf);
    return prog;
}

/* Ethernet + IPv4 + TCP, 54 bytes, to 'a.b.c.d':'port'. */
static size_t
tcp_packet(uint8_t *p, uint8_t d0, uint8_t d3, uint16_t port)
{
    memset(p, 0, 54);
    p[12] = 0x08; p[13] = 0x00;                 /* IPv4 */
    p[14] = 0x45; p[23] = 6;                    /* IHL 5, TCP */
    p[30] = d0; p[31] = 0; p[32] = 0; p[33] = d3;
    p[36] = port >> 8; p[37] = port & 0xff;     /* TCP dst port */
    return 54;
}

static void
test_compiled_filter(void)
{
    struct oko_program prog = load_prog("http_to_10_0_0_1.o");
    uint8_t pkt[64];

    size_t len = tcp_packet(pkt, 10, 1, 80);
    CU_ASSERT_EQUAL(oko_interp_run(prog.insns, pkt, len, oko_stack_top()), 1);
    /* too short for TCP */
    CU_ASSERT_EQUAL(oko_interp_run(prog.insns, pkt, 40, oko_stack_top()), 0);
    tcp_packet(pkt, 10, 2, 80);
    CU_ASSERT_EQUAL(oko_interp_run(prog.insns, pkt, len, oko_stack_top()), 0);
    tcp_packet(pkt, 10, 1, 443);
    CU_ASSERT_EQUAL(oko_interp_run(prog.insns, pkt, len, oko_stack_top()), 0);
    /* IPv6 ethertype */
    pkt[12] = 0x86; pkt[13] = 0xdd;
    CU_ASSERT_EQUAL(oko_interp_run(prog.insns, pkt, len, oko_stack_top()), 0);
    oko_program_destroy(&prog);

    prog = load_prog("baseline.o");
    CU_ASSERT_EQUAL(oko_interp_run(prog.insns, pkt, len, oko_stack_top()), 1);
    oko_program_destroy(&prog);
}

static uint64_t
run(const struct oko_insn *insns)
{
    return oko_interp_run(insns, NULL, 0, oko_stack_top());
}

/* RFC 9669: division by zero gives 0, modulo by zero leaves dst. */
static void
test_division_by_zero(void)
{
    const struct oko_insn div64[]
        = { INSN(0xb7, 0, 0, 0, 7), INSN(0xb7, 1, 0, 0, 0),
            INSN(0x3f, 0, 1, 0, 0), EXIT };
    const struct oko_insn mod64[]
        = { INSN(0xb7, 0, 0, 0, 7), INSN(0xb7, 1, 0, 0, 0),
            INSN(0x9f, 0, 1, 0, 0), EXIT };
    /* upper half cleared by the 32-bit op */
    const struct oko_insn mod32[]
        = { INSN(0x18, 0, 0, 0, 7), INSN(0, 0, 0, 0, 1),
            INSN(0x94, 0, 0, 0, 0), EXIT };
    CU_ASSERT_EQUAL(run(div64), 0);
    CU_ASSERT_EQUAL(run(mod64), 7);
    CU_ASSERT_EQUAL(run(mod32), 7);
}

static void
test_signed_division_overflow(void)
{
    /* INT64_MIN / -1 and % -1: the wrapped quotient and 0, no trap. */
    const struct oko_insn sdiv[]
        = { INSN(0x18, 0, 0, 0, 0), INSN(0, 0, 0, 0, INT32_MIN),
            INSN(0x37, 0, 0, 1, -1), EXIT };
    const struct oko_insn smod[]
        = { INSN(0x18, 0, 0, 0, 0), INSN(0, 0, 0, 0, INT32_MIN),
            INSN(0x97, 0, 0, 1, -1), EXIT };
    CU_ASSERT_EQUAL(run(sdiv), (uint64_t) INT64_MIN);
    CU_ASSERT_EQUAL(run(smod), 0);
}

static void
test_alu32_zero_extends_and_shifts_mask(void)
{
    const struct oko_insn add32[] = {
        /* 0xffff...ff + 1 in 32 bits */
        INSN(0xb7, 0, 0, 0, -1), INSN(0x04, 0, 0, 0, 1), EXIT };
    const struct oko_insn lsh[]
        = { INSN(0xb7, 0, 0, 0, 1), INSN(0xb7, 1, 0, 0, 65),
            INSN(0x6f, 0, 1, 0, 0), EXIT }; /* 1 << (65 & 63) */
    const struct oko_insn arsh32[] = {
        INSN(0xb4, 0, 0, 0, INT32_MIN), INSN(0xc4, 0, 0, 0, 4), EXIT };
    CU_ASSERT_EQUAL(run(add32), 0);
    CU_ASSERT_EQUAL(run(lsh), 2);
    CU_ASSERT_EQUAL(run(arsh32), 0xf8000000u);
}

static void
test_byte_swaps_and_sign_extension(void)
{
    const struct oko_insn be16[] = {
        INSN(0xb7, 0, 0, 0, 0x11223344), INSN(0xdc, 0, 0, 0, 16), EXIT };
    const struct oko_insn bswap64[] = {
        INSN(0xb7, 0, 0, 0, 0x11223344), INSN(0xd7, 0, 0, 0, 64), EXIT };
    const struct oko_insn movsx8[] = {
        INSN(0xb7, 1, 0, 0, 0x80), INSN(0xbf, 0, 1, 8, 0), EXIT };
    CU_ASSERT_EQUAL(run(be16), 0x4433);
    CU_ASSERT_EQUAL(run(bswap64), 0x4433221100000000ull);
    CU_ASSERT_EQUAL(run(movsx8), (uint64_t) -128);
}

static void
test_stack_and_jumps(void)
{
    /* *(u32 *)(r10 - 4) = 0xfffffffe; r0 = signed load; if r0 s< 0 goto +1; r0
     * = 5; exit */
    const struct oko_insn prog[] = {
        INSN(0x62, 10, 0, -4, -2), INSN(0x81, 0, 10, -4, 0),
        INSN(0xc5, 0, 0, 1, 0), INSN(0xb7, 0, 0, 0, 5), EXIT };
    CU_ASSERT_EQUAL(run(prog), (uint64_t) -2);
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "compiled filter on packets", test_compiled_filter },
        { "division by zero", test_division_by_zero },
        { "signed division overflow", test_signed_division_overflow },
        { "ALU32 zero-extends, shifts mask",
          test_alu32_zero_extends_and_shifts_mask },
        { "byte swaps and sign extension",
          test_byte_swaps_and_sign_extension },
        { "stack and signed jumps", test_stack_and_jumps },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "interpreter", cases);
}
