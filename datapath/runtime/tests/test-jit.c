/* Unit tests of where the JIT puts its code (CUnit): near the runtime's
 * text, so that helper calls are direct, and anywhere when nothing near is
 * free, with the same results either way. */
#define _GNU_SOURCE
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "oko-filter.h"
#include "oko-helpers.h"
#include "oko-jit.h"
#include "util.h"

#define N_FILTERS 300
#define IPPROTO_TCP 6

static bool
within_rel32(const void *code, const void *target)
{
    intptr_t distance = (intptr_t) target - (intptr_t) code;
    return distance == (int32_t) distance;
}

static struct oko_filter *
load_jitted(const char *name)
{
    size_t size;
    void *elf = read_prog_file(name, &size);
    struct oko_filter_options opts = { .interpret = false };
    struct oko_filter *filter = NULL;
    char error[OKO_ERROR_MAX];
    int err = oko_filter_load(elf, size, &opts, &filter, error);
    free(elf);
    CU_ASSERT_EQUAL_FATAL(err, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(filter->jit.fn);
    return filter;
}

/* count_by_proto calls five helpers: the first TCP packet does not match,
 * the second does (its protocol was seen), and the count map holds 2. */
static void
check_count_by_proto(struct oko_filter *filter)
{
    uint8_t pkt[64] = { 0 };
    pkt[12] = 0x08;
    pkt[14] = 0x45;
    pkt[23] = IPPROTO_TCP;
    CU_ASSERT_EQUAL(oko_filter_run(filter, pkt, sizeof pkt), 0);
    CU_ASSERT_EQUAL(oko_filter_run(filter, pkt, sizeof pkt), 1);
    uint32_t proto = IPPROTO_TCP;
    oko_epoch_enter();
    const uint64_t *count = oko_map_lookup(filter->maps[0], &proto);
    CU_ASSERT_PTR_NOT_NULL(count);
    if (count) {
        CU_ASSERT_EQUAL(*count, 2);
    }
    oko_epoch_exit();
}

static void
test_code_near_helpers(void)
{
    static struct oko_filter *filters[N_FILTERS];
    for (int round = 0; round < 2; round++) {   /* the second reuses the first's space */
        for (int i = 0; i < N_FILTERS; i++) {
            filters[i] = load_jitted("count_by_proto.o");
            for (int h = 1; h < OKO_N_HELPERS; h++) {
                if (oko_helper_table[h]) {
                    CU_ASSERT(within_rel32(filters[i]->jit.code, (void *) oko_helper_table[h]));
                }
            }
        }
        for (int i = 0; i < N_FILTERS; i++) {
            check_count_by_proto(filters[i]);
            oko_filter_destroy(filters[i]);
        }
    }
}

/* Fills the pages the JIT would search with a mapping of our own. */
static void
occupy_near_window(void **start, size_t *size)
{
    uintptr_t window;
    CU_ASSERT_EQUAL_FATAL(oko_jit_near_window(&window, size), 0);
    *start = (void *) window;
    void *p = mmap(*start, *size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
                   | MAP_FIXED_NOREPLACE, -1, 0);
    CU_ASSERT_EQUAL_FATAL(p, *start);
}

static void
test_code_anywhere_when_nothing_near_is_free(void)
{
    void *window;
    size_t window_size;
    occupy_near_window(&window, &window_size);

    struct oko_filter *filter = load_jitted("count_by_proto.o");
    uint8_t *code = filter->jit.code;
    CU_ASSERT(code + filter->jit.size <= (uint8_t *) window
              || code >= (uint8_t *) window + window_size);
    check_count_by_proto(filter);
    oko_filter_destroy(filter);

    munmap(window, window_size);
    filter = load_jitted("count_by_proto.o");
    CU_ASSERT(within_rel32(filter->jit.code, (void *) oko_helper_table[1]));
    check_count_by_proto(filter);
    oko_filter_destroy(filter);
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "code near the helpers", test_code_near_helpers },
        { "code anywhere when nothing near is free", test_code_anywhere_when_nothing_near_is_free },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "jit placement", cases);
}
