/* The execution engines every test runs programs in, to compare them. */
#ifndef OKO_TEST_ENGINES_H
#define OKO_TEST_ENGINES_H 1

#include <stdint.h>
#include "oko-filter.h"

struct engine {
    const char *name;
    uint64_t (*run)(const struct oko_filter *, const void *pkt, uint64_t len);
};

/* NULL-terminated. */
extern const struct engine engines[];

#endif
