/* Concurrency of maps, built with ThreadSanitizer (any report fails the
 * run: TSAN_OPTIONS=halt_on_error=1 exitcode=66).  Several threads hammer
 * one map with lookups, updates and deletes; the checks are the promises of
 * oko-map.h: whole values, exact counts, no lost atomic update. */
#include <CUnit/Basic.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-epoch.h"
#include "oko-filter.h"
#include "oko-map.h"
#include "util.h"

#define N_THREADS 4
#define N_KEYS 512

/* A value whose four words are always written equal: a reader that sees
 * them differ saw a torn value. */
struct value {
    uint64_t w[4];
};

static struct oko_map *
make_map(uint32_t type, uint32_t max)
{
    struct oko_map_decl decl = { "m", type, 4, sizeof(struct value), max, 0 };
    char error[OKO_ERROR_MAX];
    struct oko_map *m;
    CU_ASSERT_EQUAL_FATAL(oko_map_create(&decl, &m, error), 0);
    return m;
}

struct worker {
    pthread_t thread;
    struct oko_map *map;
    unsigned seed;
    int id;
    long torn, ops, bad_errors;     /* CUnit asserts are not thread-safe */
};

static void *
hammer(void *w_)
{
    struct worker *w = w_;
    for (int i = 0; i < 100000; i++) {
        uint32_t key = rand_r(&w->seed) % N_KEYS;
        int what = rand_r(&w->seed) % 8;
        oko_epoch_enter();
        if (what < 5) {
            const struct value *v = oko_map_lookup(w->map, &key);
            if (v) {
                uint64_t first = v->w[0];
                for (int k = 1; k < 4; k++) {
                    w->torn += v->w[k] != first;
                }
            }
        } else if (what < 7) {
            uint64_t x = (uint64_t) w->id << 32 | i;
            struct value v = { { x, x, x, x } };
            int err = oko_map_update(w->map, &key, &v, OKO_UPDATE_ANY);
            w->bad_errors += !(err == 0 || err == -E2BIG || err == -EBUSY);
        } else {
            int err = oko_map_delete(w->map, &key);
            w->bad_errors += !(err == 0 || err == -ENOENT);
        }
        oko_epoch_exit();
        w->ops++;
    }
    return NULL;
}

static void
run_hammer(uint32_t type, uint32_t max_entries)
{
    struct oko_map *m = make_map(type, max_entries);
    struct worker workers[N_THREADS];
    for (int t = 0; t < N_THREADS; t++) {
        workers[t] = (struct worker) { .map = m, .seed = 1000 + t, .id = t };
        pthread_create(&workers[t].thread, NULL, hammer, &workers[t]);
    }
    long torn = 0, ops = 0, bad_errors = 0;
    for (int t = 0; t < N_THREADS; t++) {
        pthread_join(workers[t].thread, NULL);
        torn += workers[t].torn;
        ops += workers[t].ops;
        bad_errors += workers[t].bad_errors;
    }
    CU_ASSERT_EQUAL(bad_errors, 0);
    int n = 0;
    oko_epoch_enter();
    oko_map_foreach(m, count_entries, &n);
    oko_epoch_exit();
    printf("\n  type %u, max %u: %ld operations, %d entries left, %ld torn "
           "reads",
           type, max_entries, ops, n, torn);
    CU_ASSERT_EQUAL(torn, 0);
    /* the count stays exact */
    CU_ASSERT_EQUAL((uint32_t) n, oko_map_count(m));
    CU_ASSERT((uint32_t) n <= max_entries);
    oko_map_destroy(m);
}

static void
test_hash_hammer(void)
{
    run_hammer(1, N_KEYS);          /* room for every key */
    run_hammer(1, N_KEYS / 4);      /* full most of the time: -E2BIG */
}

static void
test_lru_hammer(void)
{
    run_hammer(3, N_KEYS / 4);      /* evicting all the time */
}

/* Every thread inserts its own keys while the others delete theirs, with
 * the control-path calls: afterwards each thread's surviving keys are
 * exactly what it left, and no call failed. */
struct owner {
    pthread_t thread;
    struct oko_map *map;
    int id;
    int failures;
};

static void *
insert_own_keys(void *o_)
{
    struct owner *o = o_;
    for (int round = 0; round < 20; round++) {
        for (uint32_t i = 0; i < 100; i++) {
            uint32_t key = o->id * 1000 + i;
            struct value v = { { key, key, key, key } };
            o->failures
                += oko_map_update_ctl(o->map, &key, &v, OKO_UPDATE_ANY) != 0;
        }
        for (uint32_t i = 0; i < 100; i += 2) {
            uint32_t key = o->id * 1000 + i;
            o->failures += oko_map_delete_ctl(o->map, &key) != 0;
        }
    }
    return NULL;
}

static void
test_no_lost_insert(void)
{
    struct oko_map *m = make_map(1, N_THREADS * 100);
    struct owner owners[N_THREADS];
    for (int t = 0; t < N_THREADS; t++) {
        owners[t] = (struct owner) { .map = m, .id = t };
        pthread_create(&owners[t].thread, NULL, insert_own_keys, &owners[t]);
    }
    for (int t = 0; t < N_THREADS; t++) {
        pthread_join(owners[t].thread, NULL);
        CU_ASSERT_EQUAL(owners[t].failures, 0);
    }
    oko_epoch_enter();
    CU_ASSERT_EQUAL(oko_map_count(m), N_THREADS * 50);
    for (int t = 0; t < N_THREADS; t++) {
        for (uint32_t i = 0; i < 100; i++) {
            uint32_t key = t * 1000 + i;
            const struct value *v = oko_map_lookup(m, &key);
            if (i % 2) {
                CU_ASSERT(v && v->w[3] == key);
            } else {
                CU_ASSERT_PTR_NULL(v);
            }
        }
    }
    oko_epoch_exit();
    oko_map_destroy(m);
}

/* Threads run one compiled program that increments a per-protocol counter
 * with an atomic add: no increment is lost. */
struct runner {
    pthread_t thread;
    const struct oko_filter *filter;
};

#define RUNS_PER_THREAD 20000

static void *
run_program(void *r_)
{
    struct runner *r = r_;
    uint8_t pkt[64] = { 0 };
    pkt[12] = 0x08;
    pkt[14] = 0x45;
    pkt[23] = 6;
    for (int i = 0; i < RUNS_PER_THREAD; i++) {
        pkt[29] = i;
        oko_filter_run(r->filter, pkt, sizeof pkt);
    }
    return NULL;
}

static void
test_program_counters(void)
{
    size_t size;
    void *elf = read_prog_file("count_by_proto.o", &size);
    char error[OKO_ERROR_MAX];
    struct oko_filter *f;
    CU_ASSERT_EQUAL_FATAL(oko_filter_load(elf, size, NULL, &f, error), 0);
    free(elf);
    /* Create the counter first, so that every run takes the atomic path. */
    oko_epoch_enter();
    uint32_t proto = 6;
    uint64_t zero = 0;
    CU_ASSERT_EQUAL(oko_map_update(f->maps[0], &proto, &zero, OKO_UPDATE_ANY),
                    0);
    oko_epoch_exit();
    struct runner runners[N_THREADS];
    for (int t = 0; t < N_THREADS; t++) {
        runners[t] = (struct runner) { .filter = f };
        pthread_create(&runners[t].thread, NULL, run_program, &runners[t]);
    }
    for (int t = 0; t < N_THREADS; t++) {
        pthread_join(runners[t].thread, NULL);
    }
    oko_epoch_enter();
    const uint64_t *count = oko_map_lookup(f->maps[0], &proto);
    CU_ASSERT_PTR_NOT_NULL_FATAL(count);
    CU_ASSERT_EQUAL(*count, (uint64_t) N_THREADS * RUNS_PER_THREAD);
    oko_epoch_exit();
    oko_filter_destroy(f);
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "hash: lookups, updates, deletes from 4 threads", test_hash_hammer },
        { "lru hash: the same while evicting", test_lru_hammer },
        { "no insert or delete lost", test_no_lost_insert },
        { "atomic counters in a program run by 4 threads",
          test_program_counters },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "maps under threads", cases);
}
