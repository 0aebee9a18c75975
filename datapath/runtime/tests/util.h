/* Helpers shared by the runtime's CUnit tests. */
#ifndef OKO_TEST_UTIL_H
#define OKO_TEST_UTIL_H 1

#include <CUnit/Basic.h>
#include <stddef.h>
#include <stdint.h>

struct test_case {
    const char *name;
    CU_TestFunc run;
};

/* Reads the BPF object 'name' from the folder of test programs (the test's
 * first argument, default build/progs) into a malloc'd buffer. */
void *read_prog_file(const char *name, size_t *size);

/* The folder of test programs. */
const char *progs_directory(void);

/* An oko_map_foreach() callback that counts entries in the int at 'aux'. */
int count_entries(const void *key, uint32_t key_size, const void *value,
                  uint32_t value_size, void *aux);

/* Runs the NULL-terminated 'cases' as one suite; returns main's exit code. */
int run_suite(int argc, char *argv[], const char *suite,
              const struct test_case cases[]);

#endif
