/* Helpers shared by the runtime's CUnit tests. */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

static const char *progs_dir = "build/progs";

void *
read_prog_file(const char *name, size_t *size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", progs_dir, name);
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    *size = ftell(f);
    rewind(f);
    void *data = malloc(*size);
    CU_ASSERT_EQUAL_FATAL(fread(data, 1, *size, f), *size);
    fclose(f);
    return data;
}

int
count_entries(const void *key, uint32_t key_size, const void *value,
              uint32_t value_size, void *aux)
{
    (void) key; (void) key_size; (void) value; (void) value_size;
    int *count = aux;

    (*count)++;
    return 0;
}

const char *
progs_directory(void)
{
    return progs_dir;
}

int
run_suite(int argc, char *argv[], const char *suite_name,
          const struct test_case cases[])
{
    if (argc > 1) {
        progs_dir = argv[1];
    }
    if (CU_initialize_registry() != CUE_SUCCESS) {
        return 1;
    }
    CU_pSuite suite = CU_add_suite(suite_name, NULL, NULL);
    for (const struct test_case *c = cases; c->name; c++) {
        CU_add_test(suite, c->name, c->run);
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed
        = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
