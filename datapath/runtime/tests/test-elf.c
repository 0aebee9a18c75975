/* Unit tests of the ELF loader (CUnit). */
#include <CUnit/Basic.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-filter.h"
#include "oko-program.h"
#include "util.h"

static int
load(const void *elf, size_t size, struct oko_program *prog, char *error)
{
    return oko_program_load_elf(elf, size, prog, error);
}

static void
test_baseline(void)
{
    size_t size;
    void *elf = read_prog_file("baseline.o", &size);
    struct oko_program prog;
    char error[OKO_ERROR_MAX];

    CU_ASSERT_EQUAL(load(elf, size, &prog, error), 0);
    CU_ASSERT_EQUAL(prog.n_insns, 2);
    CU_ASSERT_EQUAL(prog.n_maps, 0);
    CU_ASSERT_EQUAL(prog.insns[0].opcode, 0xb7);    /* r0 = 1 */
    CU_ASSERT_EQUAL(prog.insns[0].imm, 1);
    CU_ASSERT_EQUAL(prog.insns[1].opcode, 0x95);    /* exit */
    oko_program_destroy(&prog);

    /* The same object at an odd address, as inside an OpenFlow message. */
    uint8_t *odd = malloc(size + 1);
    memcpy(odd + 1, elf, size);
    CU_ASSERT_EQUAL(load(odd + 1, size, &prog, error), 0);
    CU_ASSERT_EQUAL(prog.n_insns, 2);
    oko_program_destroy(&prog);
    free(odd);
    free(elf);
}

static void
test_two_maps(void)
{
    size_t size;
    void *elf = read_prog_file("two_maps.o", &size);
    struct oko_program prog;
    char error[OKO_ERROR_MAX];

    CU_ASSERT_EQUAL_FATAL(load(elf, size, &prog, error), 0);
    CU_ASSERT_EQUAL(prog.n_maps, 2);
    CU_ASSERT_STRING_EQUAL(prog.maps[0].name, "first");
    CU_ASSERT_EQUAL(prog.maps[0].type, 1);
    CU_ASSERT_EQUAL(prog.maps[0].key_size, 4);
    CU_ASSERT_EQUAL(prog.maps[0].value_size, 8);
    CU_ASSERT_EQUAL(prog.maps[0].max_entries, 16);
    CU_ASSERT_STRING_EQUAL(prog.maps[1].name, "second");
    CU_ASSERT_EQUAL(prog.maps[1].type, 2);
    /* Both lddw now name their map by index. */
    int seen[2] = { 0, 0 };
    for (size_t i = 0; i < prog.n_insns; i++) {
        if (prog.insns[i].opcode == 0x18
            && prog.insns[i].src == OKO_PSEUDO_MAP_INDEX) {
            CU_ASSERT(prog.insns[i].imm == 0 || prog.insns[i].imm == 1);
            seen[prog.insns[i].imm & 1]++;
            i++;
        }
    }
    CU_ASSERT_EQUAL(seen[0], 1);
    CU_ASSERT_EQUAL(seen[1], 1);
    oko_program_destroy(&prog);
    free(elf);
}

static void
test_global_data_refused(void)
{
    size_t size;
    void *elf = read_prog_file("global_data.o", &size);
    struct oko_program prog;
    char error[OKO_ERROR_MAX];

    CU_ASSERT_EQUAL(load(elf, size, &prog, error), EINVAL);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(error, "global and static data are not allowed"));
    CU_ASSERT_PTR_NULL(prog.insns);
    free(elf);
}

/* Every proper prefix of a valid object is refused cleanly (run under
 * ASan/UBSan: no read outside the buffer). */
static void
test_truncations_refused(void)
{
    size_t size;
    uint8_t *elf = read_prog_file("two_maps.o", &size);
    struct oko_program prog;
    char error[OKO_ERROR_MAX];

    for (size_t n = 0; n < size; n++) {
        void *copy = malloc(n ? n : 1);
        memcpy(copy, elf, n);
        int err = load(copy, n, &prog, error);
        if (!err) {
            /* Only trailing bytes nothing points into may go missing. */
            oko_program_destroy(&prog);
        } else {
            CU_ASSERT(error[0] != '\0');
        }
        free(copy);
    }
    CU_ASSERT_EQUAL(load(elf, 10, &prog, error), EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "too short"));
    free(elf);
}

static void
test_header_errors(void)
{
    size_t size;
    uint8_t *elf = read_prog_file("baseline.o", &size);
    struct oko_program prog;
    char error[OKO_ERROR_MAX];
    uint8_t *bad = malloc(size);

    memcpy(bad, elf, size);
    bad[0] = 0;
    CU_ASSERT_EQUAL(load(bad, size, &prog, error), EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "bad magic"));

    memcpy(bad, elf, size);
    bad[18] = 62;                   /* e_machine = EM_X86_64 */
    bad[19] = 0;
    CU_ASSERT_EQUAL(load(bad, size, &prog, error), EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "is not BPF"));

    memcpy(bad, elf, size);
    bad[16] = 2;                    /* e_type = ET_EXEC */
    CU_ASSERT_EQUAL(load(bad, size, &prog, error), EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not a relocatable object"));

    memcpy(bad, elf, size);
    memset(bad + 40, 0xff, 8);      /* e_shoff far outside */
    CU_ASSERT_EQUAL(load(bad, size, &prog, error), EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "section header table"));

    free(bad);
    free(elf);
}

/* Returns the section header named 'name' in the object 'elf'. */
static Elf64_Shdr *
section_header(uint8_t *elf, const char *name)
{
    Elf64_Ehdr *eh = (Elf64_Ehdr *) (void *) elf;      /* malloc: aligned */
    Elf64_Shdr *shdrs = (Elf64_Shdr *) (void *) (elf + eh->e_shoff);
    const char *names = (const char *) elf + shdrs[eh->e_shstrndx].sh_offset;
    for (size_t i = 0; i < eh->e_shnum; i++) {
        if (!strcmp(names + shdrs[i].sh_name, name)) {
            return &shdrs[i];
        }
    }
    return NULL;
}

/* A maps section whose type says "no bytes in the file" (NOBITS) was not
 * bounds-checked and its declarations were read from its wild offset (found
 * by fuzz-load). */
static void
test_maps_section_not_progbits(void)
{
    size_t size;
    uint8_t *elf = read_prog_file("two_maps.o", &size);
    struct oko_program prog;
    char error[OKO_ERROR_MAX];

    Elf64_Shdr *maps = section_header(elf, "oko/maps");
    CU_ASSERT_PTR_NOT_NULL_FATAL(maps);
    maps->sh_type = SHT_NOBITS;
    maps->sh_offset = UINT64_C(1) << 40;
    CU_ASSERT_EQUAL(load(elf, size, &prog, error), EINVAL);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(error, "section oko/maps is not PROGBITS data"));
    CU_ASSERT_PTR_NULL(prog.insns);
    free(elf);
}

/* A function the filter never calls is dead code: not loaded, so what it
 * holds (here a call of something that is no helper) does not matter.
 * One the filter calls is loaded after it (functions.o). */
static void
test_unreached_function_not_loaded(void)
{
    size_t size;
    void *elf = read_prog_file("unused_function.o", &size);
    struct oko_program prog;
    char error[OKO_ERROR_MAX];
    CU_ASSERT_EQUAL(load(elf, size, &prog, error), 0);
    /* the filter section alone */
    CU_ASSERT_EQUAL(prog.n_insns, 4);
    oko_program_destroy(&prog);

    struct oko_filter *filter;
    CU_ASSERT_EQUAL_FATAL(oko_filter_load(elf, size, NULL, &filter, error), 0);
    uint8_t pkt[64] = { 0 };
    CU_ASSERT_EQUAL(oko_filter_run(filter, pkt, sizeof pkt), 1);
    CU_ASSERT_EQUAL(oko_filter_run(filter, pkt, 14), 0);
    oko_filter_destroy(filter);
    free(elf);

    elf = read_prog_file("functions.o", &size);
    CU_ASSERT_EQUAL(load(elf, size, &prog, error), 0);
    size_t local_calls = 0;                         /* calls into .text */
    for (size_t pc = 0; pc < prog.n_insns; pc++) {
        local_calls
            += prog.insns[pc].opcode == 0x85 && prog.insns[pc].src == 1;
    }
    CU_ASSERT(local_calls > 0);
    oko_program_destroy(&prog);
    free(elf);
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "baseline filter loads", test_baseline },
        { "maps are declared and relocated", test_two_maps },
        { "global data is refused", test_global_data_refused },
        { "truncated objects are refused", test_truncations_refused },
        { "bad headers are refused with a reason", test_header_errors },
        { "a maps section without file bytes is refused",
          test_maps_section_not_progbits },
        { "a function the filter never calls is not loaded",
          test_unreached_function_not_loaded },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "elf loader", cases);
}
