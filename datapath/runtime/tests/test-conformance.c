/* Runs the external eBPF conformance suite (../shared/conformance/bpf, or
 * $OKO_CONFORMANCE_DIR): each case is assembled, verified with the packet
 * length fixed to its memory block (the suite passes a fixed-size block),
 * and run in every execution engine.  Cases the verifier rejects on purpose
 * are listed in tests/conformance-rejected.txt with the reason expected;
 * every other case must pass. */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "oko-asm.h"
#include "oko-filter.h"
#include "util.h"

struct expected_rejection {
    char name[64];
    char reason[200];
    int seen;
};

static struct expected_rejection rejections[64];
static size_t n_rejections;

static void
load_rejections(void)
{
    FILE *f = fopen("tests/conformance-rejected.txt", "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[300];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (line[0] == '#' || !colon) {
            continue;
        }
        *colon = '\0';
        struct expected_rejection *r = &rejections[n_rejections++];
        snprintf(r->name, sizeof r->name, "%.63s", line);
        char *reason = colon + 1;
        reason += strspn(reason, " ");
        reason[strcspn(reason, "\n")] = '\0';
        snprintf(r->reason, sizeof r->reason, "%.199s", reason);
    }
    fclose(f);
}

static struct expected_rejection *
expected_rejection(const char *name)
{
    for (size_t i = 0; i < n_rejections; i++) {
        if (!strcmp(rejections[i].name, name)) {
            return &rejections[i];
        }
    }
    return NULL;
}

struct test_data {
    char asm_text[16384];
    uint8_t mem[4096];
    size_t mem_len;
    uint64_t result;
    int has_result;
    uint64_t raw[64];
    size_t n_raw;
};

static int
parse_data(const char *path, struct test_data *t)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        return errno;
    }
    memset(t, 0, sizeof *t);
    char line[512];
    enum { NONE, ASM, MEM, RESULT, RAW, OTHER } section = NONE;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "-- ", 3)) {
            section = !strncmp(line + 3, "asm", 3)      ? ASM
                      : !strncmp(line + 3, "mem", 3)    ? MEM
                      : !strncmp(line + 3, "result", 6) ? RESULT
                      : !strncmp(line + 3, "raw", 3)    ? RAW
                                                        : OTHER;
            continue;
        }
        switch (section) {
        case ASM:
            strncat(t->asm_text, line,
                    sizeof t->asm_text - strlen(t->asm_text) - 1);
            break;
        case MEM:
            for (char *p = strtok(line, " \t\n"); p;
                 p = strtok(NULL, " \t\n")) {
                if (t->mem_len < sizeof t->mem) {
                    t->mem[t->mem_len++] = strtoul(p, NULL, 16);
                }
            }
            break;
        case RESULT:
            if (line[0] != '\n' && line[0] != '#') {
                t->result = strtoull(line, NULL, 16);
                t->has_result = 1;
            }
            break;
        case RAW:
            if (line[0] == '0' && t->n_raw < 64) {
                t->raw[t->n_raw++] = strtoull(line, NULL, 16);
            }
            break;
        case NONE:
        case OTHER:
            break;
        }
    }
    fclose(f);
    return 0;
}

static const char *
conformance_dir(void)
{
    static const char *const candidates[] = {
        /* from datapath/runtime in /work/main */
        "../../../shared/conformance/bpf",
        "/work/shared/conformance/bpf",
    };
    const char *env = getenv("OKO_CONFORMANCE_DIR");
    if (env) {
        return env;
    }
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        DIR *d = opendir(candidates[i]);
        if (d) {
            closedir(d);
            return candidates[i];
        }
    }
    return candidates[0];
}

static int
by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

static void
test_suite(void)
{
    const char *dir = conformance_dir();
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr,
                "\nconformance suite not found at %s (set "
                "OKO_CONFORMANCE_DIR)\n",
                dir);
        CU_FAIL_FATAL("conformance suite not found");
    }
    load_rejections();
    char *names[1024];
    size_t n_names = 0;
    for (struct dirent *e; (e = readdir(d)) && n_names < 1024;) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".data")) {
            names[n_names++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n_names, sizeof *names, by_name);

    struct test_data *t = malloc(sizeof *t);
    size_t passed = 0, rejected = 0, failed = 0, runs = 0;
    for (size_t i = 0; i < n_names; i++) {
        char path[1024], error[OKO_ERROR_MAX], name[256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(name, sizeof name, "%.*s", (int) strlen(names[i]) - 5,
                 names[i]);
        CU_ASSERT_EQUAL_FATAL(parse_data(path, t), 0);

        struct oko_program prog;
        if (oko_asm(t->asm_text, &prog, error)) {
            printf("\n  FAIL %s: does not assemble: %s", name, error);
            failed++;
            continue;
        }
        int encoding_ok = 1;
        for (size_t k = 0; k < t->n_raw; k++) {
            uint64_t word;
            memcpy(&word, &prog.insns[k], 8);
            encoding_ok &= k < prog.n_insns && word == t->raw[k];
        }
        if (!encoding_ok) {
            printf("\n  FAIL %s: encoding differs from the suite's raw bytes",
                   name);
            failed++;
            oko_program_destroy(&prog);
            continue;
        }
        struct oko_filter_options opts
            = { .verify = { .min_len = t->mem_len } };
        struct oko_filter *filter;
        int err = oko_filter_from_program(&prog, &opts, &filter, error);
        struct expected_rejection *expected = expected_rejection(name);
        if (expected) {
            expected->seen = 1;
            if (!err || !strstr(error, expected->reason)) {
                printf("\n  FAIL %s: expected rejection \"%s\", got %s", name,
                       expected->reason, err ? error : "acceptance");
                failed++;
            } else {
                rejected++;
            }
            oko_filter_destroy(filter);
            continue;
        }
        if (err) {
            printf("\n  FAIL %s: rejected: %s", name, error);
            failed++;
            continue;
        }
        int ok = t->has_result;
        for (const struct engine *engine = engines; engine->name; engine++) {
            uint8_t mem[4096];
            memcpy(mem, t->mem, t->mem_len);
            uint64_t r0 = engine->run(filter, mem, t->mem_len);
            runs++;
            if (r0 != t->result) {
                printf("\n  FAIL %s (%s): r0 = 0x%llx, expected 0x%llx", name,
                       engine->name, (unsigned long long) r0,
                       (unsigned long long) t->result);
                ok = 0;
            }
        }
        ok ? passed++ : failed++;
        oko_filter_destroy(filter);
    }
    for (size_t i = 0; i < n_rejections; i++) {
        if (!rejections[i].seen) {
            printf("\n  FAIL %s: listed as rejected but not in the suite",
                   rejections[i].name);
            failed++;
        }
    }
    printf("\nconformance: %zu cases: %zu pass in every engine (%zu runs), "
           "%zu rejected as listed, %zu failed\n",
           n_names, passed, runs, rejected, failed);
    CU_ASSERT_EQUAL(failed, 0);
    CU_ASSERT(n_names > 300);
    for (size_t i = 0; i < n_names; i++) {
        free(names[i]);
    }
    free(t);
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "conformance suite", test_suite },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "conformance", cases);
}
