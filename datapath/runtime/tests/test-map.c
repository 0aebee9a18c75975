/* Unit tests of the maps (CUnit), single-threaded; test-map-threads.c
 * covers concurrency under ThreadSanitizer. */
#include <CUnit/Basic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oko-epoch.h"
#include "oko-filter.h"
#include "oko-helpers.h"
#include "oko-map.h"
#include "util.h"

static struct oko_map *
make_map(uint32_t type, uint32_t key_size, uint32_t value_size, uint32_t max,
         uint32_t flags)
{
    struct oko_map_decl decl = { .type = type,
                                 .key_size = key_size,
                                 .value_size = value_size,
                                 .max_entries = max,
                                 .flags = flags };
    snprintf(decl.name, sizeof decl.name, "m");
    char error[OKO_ERROR_MAX];
    struct oko_map *m;
    int err = oko_map_create(&decl, &m, error);
    if (err) {
        printf("\n%s\n", error);
    }
    CU_ASSERT_EQUAL_FATAL(err, 0);
    return m;
}

static uint64_t
get_u64(struct oko_map *m, const void *key)
{
    const uint64_t *v = oko_map_lookup(m, key);
    return v ? *v : UINT64_MAX;
}

static void
test_hash(void)
{
    oko_epoch_enter();
    struct oko_map *m = make_map(1, 4, 8, 100, 0);
    for (uint32_t k = 0; k < 100; k++) {
        uint64_t v = k * 10;
        CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, OKO_UPDATE_NOEXIST), 0);
    }
    uint32_t k = 100;
    uint64_t v = 1;
    CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, OKO_UPDATE_ANY), -E2BIG);
    CU_ASSERT_EQUAL(oko_map_count(m), 100);
    k = 7;
    CU_ASSERT_EQUAL(get_u64(m, &k), 70);
    CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, OKO_UPDATE_NOEXIST), -EEXIST);
    CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, OKO_UPDATE_EXIST), 0);
    CU_ASSERT_EQUAL(get_u64(m, &k), 1);
    CU_ASSERT_EQUAL(oko_map_count(m), 100);
    CU_ASSERT_EQUAL(oko_map_delete(m, &k), 0);
    CU_ASSERT_EQUAL(oko_map_delete(m, &k), -ENOENT);
    CU_ASSERT_PTR_NULL(oko_map_lookup(m, &k));
    CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, OKO_UPDATE_EXIST), -ENOENT);
    CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, 7), -EINVAL);
    int n = 0;
    oko_map_foreach(m, count_entries, &n);
    CU_ASSERT_EQUAL(n, 99);
    CU_ASSERT_EQUAL(oko_map_add(m, &k, 1), -EOPNOTSUPP);
    oko_epoch_exit();

    /* Replacing entries over and over recycles them once no section holds
     * them: thousands of updates in a map of 100. */
    for (int round = 0; round < 5000; round++) {
        oko_epoch_enter();
        k = round % 50;
        v = round;
        CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, OKO_UPDATE_ANY), 0);
        CU_ASSERT_EQUAL(get_u64(m, &k), (uint64_t) round);
        oko_epoch_exit();
    }
    oko_epoch_enter();
    oko_map_clear(m);
    CU_ASSERT_EQUAL(oko_map_count(m), 0);
    k = 3;
    CU_ASSERT_PTR_NULL(oko_map_lookup(m, &k));
    oko_epoch_exit();
    oko_map_destroy(m);
}

static void
test_array(void)
{
    oko_epoch_enter();
    struct oko_map *m = make_map(2, 4, 12, 8, 0);
    uint32_t k = 3;
    uint8_t value[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
    const uint8_t *p = oko_map_lookup(m, &k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(p[0], 0);
    CU_ASSERT_EQUAL(oko_map_update(m, &k, value, OKO_UPDATE_ANY), 0);
    CU_ASSERT_EQUAL(memcmp(oko_map_lookup(m, &k), value, 12), 0);
    CU_ASSERT_EQUAL(oko_map_update(m, &k, value, OKO_UPDATE_NOEXIST), -EEXIST);
    CU_ASSERT_EQUAL(oko_map_delete(m, &k), 0);
    CU_ASSERT_EQUAL(((const uint8_t *) oko_map_lookup(m, &k))[11], 0);
    k = 8;
    CU_ASSERT_PTR_NULL(oko_map_lookup(m, &k));
    CU_ASSERT_EQUAL(oko_map_update(m, &k, value, OKO_UPDATE_ANY), -EINVAL);
    CU_ASSERT_EQUAL(oko_map_count(m), 8);
    int n = 0;
    oko_map_foreach(m, count_entries, &n);
    CU_ASSERT_EQUAL(n, 8);
    oko_epoch_exit();
    oko_map_destroy(m);
}

static void
test_lru(void)
{
    oko_epoch_enter();
    struct oko_map *m = make_map(3, 4, 8, 4, 0);
    for (uint32_t k = 1; k <= 4; k++) {
        uint64_t v = k;
        CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, OKO_UPDATE_ANY), 0);
    }
    uint32_t k = 1;
    /* 1 is now the most recent */
    CU_ASSERT_EQUAL(get_u64(m, &k), 1);
    k = 5;
    uint64_t v = 5;
    CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, OKO_UPDATE_ANY), 0);
    CU_ASSERT_EQUAL(oko_map_count(m), 4);
    k = 2;
    /* least recently used: evicted */
    CU_ASSERT_PTR_NULL(oko_map_lookup(m, &k));
    for (k = 1; k <= 5; k++) {
        if (k != 2) {
            CU_ASSERT_EQUAL(get_u64(m, &k), k);
        }
    }
    /* The lookups above used 1, 3, 4, 5 in that order: 6 evicts 1. */
    k = 6;
    v = 6;
    CU_ASSERT_EQUAL(oko_map_update(m, &k, &v, OKO_UPDATE_ANY), 0);
    k = 1;
    CU_ASSERT_PTR_NULL(oko_map_lookup(m, &k));
    CU_ASSERT_EQUAL(oko_map_count(m), 4);
    oko_epoch_exit();
    oko_map_destroy(m);
}

static void
test_bloom(void)
{
    struct oko_map *m = make_map(4, 4, 0, 16384, 0);
    for (uint32_t k = 0; k < 1000; k++) {
        CU_ASSERT_EQUAL(oko_map_add(m, &k, 1), 0);
    }
    int present = 0, false_positives = 0;
    for (uint32_t k = 0; k < 1000; k++) {
        present += oko_map_query(m, &k) == 1;
    }
    for (uint32_t k = 100000; k < 110000; k++) {
        false_positives += oko_map_query(m, &k) == 1;
    }
    CU_ASSERT_EQUAL(present, 1000);                 /* no false negatives */
    /* ~0.24 % expected at 16 bits/key, 4 hashes */
    CU_ASSERT(false_positives < 200);
    CU_ASSERT_EQUAL(oko_map_lookup(m, &present), NULL);
    /* The count of non-zero words is kept by the adds: it equals a scan. */
    int words = 0;
    oko_map_foreach(m, count_entries, &words);
    CU_ASSERT_EQUAL((uint32_t) words, oko_map_count(m));
    CU_ASSERT(words > 0);
    oko_map_clear(m);
    CU_ASSERT_EQUAL(oko_map_count(m), 0);
    uint32_t k = 5;
    CU_ASSERT_EQUAL(oko_map_query(m, &k), 0);
    oko_map_destroy(m);
}

static void
test_count_min(void)
{
    struct oko_map *m = make_map(5, 4, 4, 1024, 0);
    for (uint32_t k = 0; k < 50; k++) {
        for (uint32_t i = 0; i <= k; i++) {
            oko_map_add(m, &k, 1);
        }
    }
    int exact = 0;
    for (uint32_t k = 0; k < 50; k++) {
        int64_t estimate = oko_map_query(m, &k);
        /* never below the true count */
        CU_ASSERT(estimate >= k + 1);
        exact += estimate == k + 1;
    }
    CU_ASSERT(exact >= 45);
    uint32_t k = 7;
    CU_ASSERT(oko_map_add(m, &k, 10) >= 18);
    int cells = 0;
    oko_map_foreach(m, count_entries, &cells);
    CU_ASSERT_EQUAL((uint32_t) cells, oko_map_count(m));
    CU_ASSERT(cells > 0 && cells <= 50 * 4);
    oko_map_clear(m);
    CU_ASSERT_EQUAL(oko_map_count(m), 0);
    /* A cell that wraps around to zero is no longer counted. */
    oko_map_add(m, &k, 1);
    CU_ASSERT_EQUAL(oko_map_count(m), 4);
    oko_map_add(m, &k, UINT32_MAX);
    CU_ASSERT_EQUAL(oko_map_count(m), 0);
    oko_map_destroy(m);
}

struct lpm_key {
    uint32_t prefix_len;
    uint8_t addr[4];
};

static void
test_lpm(void)
{
    oko_epoch_enter();
    struct oko_map *m = make_map(6, 8, 8, 16, 0);
    struct lpm_key k8 = { 8, { 10, 0, 0, 0 } },
                   k16 = { 16, { 10, 1, 99, 99 } };
    uint64_t v8 = 8, v16 = 16;
    CU_ASSERT_EQUAL(oko_map_update(m, &k8, &v8, OKO_UPDATE_ANY), 0);
    CU_ASSERT_EQUAL(oko_map_update(m, &k16, &v16, OKO_UPDATE_ANY), 0);
    struct lpm_key q = { 32, { 10, 1, 2, 3 } };
    CU_ASSERT_EQUAL(get_u64(m, &q), 16);
    q = (struct lpm_key) { 32, { 10, 2, 0, 1 } };
    CU_ASSERT_EQUAL(get_u64(m, &q), 8);
    q = (struct lpm_key) { 32, { 11, 1, 2, 3 } };
    CU_ASSERT_PTR_NULL(oko_map_lookup(m, &q));
    /* a /12 query: only the /8 covers it */
    q = (struct lpm_key) { 12, { 10, 1, 2, 3 } };
    CU_ASSERT_EQUAL(get_u64(m, &q), 8);
    struct lpm_key k16_other = { 16, { 10, 1, 0, 0 } };
    /* same prefix, host bits differ */
    CU_ASSERT_EQUAL(oko_map_delete(m, &k16_other), 0);
    q = (struct lpm_key) { 32, { 10, 1, 2, 3 } };
    CU_ASSERT_EQUAL(get_u64(m, &q), 8);
    struct lpm_key bad = { 33, { 0 } };
    CU_ASSERT_EQUAL(oko_map_update(m, &bad, &v8, OKO_UPDATE_ANY), -EINVAL);
    struct lpm_key all = { 0, { 0 } };
    uint64_t v0 = 0;
    CU_ASSERT_EQUAL(oko_map_update(m, &all, &v0, OKO_UPDATE_ANY), 0);
    q = (struct lpm_key) { 32, { 192, 168, 0, 1 } };
    CU_ASSERT_EQUAL(get_u64(m, &q), 0);
    oko_epoch_exit();
    oko_map_destroy(m);
}

static void
test_bad_declarations(void)
{
    static const struct {
        struct oko_map_decl decl;
        const char *error;
    } cases[] = {
        { { "a", 9, 4, 4, 4, 0 }, "map 'a': unknown map type 9" },
        { { "b", 1, 0, 4, 4, 0 }, "map 'b': key_size 0; it must be 1 to 512" },
        { { "c", 1, 4, 4, 0, 0 },
          "map 'c': max_entries 0; it must be 1 to 16777216" },
        { { "d", 2, 8, 4, 4, 0 },
          "map 'd': an array's key is a u32 index (key_size 4), not 8" },
        { { "e", 4, 4, 8, 64, 0 },
          "map 'e': a bloom filter has key_size 1 to 512 and value_size 0" },
        { { "f", 5, 4, 8, 64, 0 },
          "map 'f': a count-min sketch has key_size 1 to 512 and value_size 4 "
          "(u32 counters)" },
        { { "g", 6, 4, 8, 64, 0 },
          "map 'g': an lpm key is a u32 prefix length and 1 to 16 address "
          "bytes (key_size 5 to 20), not 4" },
        { { "h", 1, 4, 70000, 4, 0 },
          "map 'h': value_size 70000; it must be 1 to 65536" },
        { { "i", 5, 4, 4, 64, 9 },
          "map 'i': flags is the number of rows, at most 8" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char error[OKO_ERROR_MAX];
        struct oko_map *m;
        CU_ASSERT_EQUAL(oko_map_create(&cases[i].decl, &m, error), EINVAL);
        CU_ASSERT_PTR_NULL(m);
        CU_ASSERT_STRING_EQUAL(error, cases[i].error);
    }
}

/* Ethernet + IPv4 with protocol 'proto' from 'src'. */
static void
ip_packet(uint8_t *p, uint8_t proto, uint8_t src)
{
    memset(p, 0, 64);
    p[12] = 0x08;
    p[14] = 0x45;
    p[23] = proto;
    p[26] = 10; p[29] = src;
}

static void
test_program_with_maps(void)
{
    size_t size;
    void *elf = read_prog_file("count_by_proto.o", &size);
    char error[OKO_ERROR_MAX];
    struct oko_filter *f;
    int err = oko_filter_load(elf, size, NULL, &f, error);
    free(elf);
    if (err) {
        printf("\n%s\n", error);
    }
    CU_ASSERT_EQUAL_FATAL(err, 0);
    CU_ASSERT_STRING_EQUAL(f->prog.maps[0].name, "packets_per_proto");
    uint8_t pkt[64];
    ip_packet(pkt, 6, 1);
    /* first TCP packet: not seen */
    CU_ASSERT_EQUAL(oko_filter_run(f, pkt, 64), 0);
    CU_ASSERT_EQUAL(oko_filter_run(f, pkt, 64), 1);      /* now it is */
    ip_packet(pkt, 17, 2);
    CU_ASSERT_EQUAL(oko_filter_run(f, pkt, 64), 0);
    for (int i = 0; i < 10; i++) {
        oko_filter_run(f, pkt, 64);
    }
    /* too short: no map touched */
    CU_ASSERT_EQUAL(oko_filter_run(f, pkt, 20), 0);
    oko_epoch_enter();
    uint32_t proto = 6;
    CU_ASSERT_EQUAL(get_u64(f->maps[0], &proto), 2);
    proto = 17;
    CU_ASSERT_EQUAL(get_u64(f->maps[0], &proto), 11);
    CU_ASSERT_EQUAL(oko_map_count(f->maps[1]), 2);
    uint32_t src = 10 | 2 << 24;
    CU_ASSERT_EQUAL(oko_map_query(f->maps[2], &src), 1);
    oko_epoch_exit();
    oko_filter_destroy(f);
}

/* A replacing program keeps the maps whose declarations are unchanged. */
static void
test_keep_maps(void)
{
    size_t size;
    void *elf = read_prog_file("count_by_proto.o", &size);
    char error[OKO_ERROR_MAX];
    struct oko_filter *old, *kept, *fresh;
    CU_ASSERT_EQUAL_FATAL(oko_filter_load(elf, size, NULL, &old, error), 0);
    uint8_t pkt[64];
    ip_packet(pkt, 6, 1);
    oko_filter_run(old, pkt, 64);
    struct oko_filter_options opts = { .keep_maps_from = old };
    CU_ASSERT_EQUAL_FATAL(oko_filter_load(elf, size, &opts, &kept, error), 0);
    CU_ASSERT_EQUAL_FATAL(oko_filter_load(elf, size, NULL, &fresh, error), 0);
    free(elf);
    CU_ASSERT_PTR_EQUAL(kept->maps[0], old->maps[0]);
    oko_filter_destroy(old);                /* the shared maps survive */
    /* TCP already seen */
    CU_ASSERT_EQUAL(oko_filter_run(kept, pkt, 64), 1);
    CU_ASSERT_EQUAL(oko_filter_run(fresh, pkt, 64), 0);     /* empty maps */
    CU_ASSERT_EQUAL(oko_map_count(kept->maps[0]), 1);
    oko_filter_destroy(kept);
    oko_filter_destroy(fresh);
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "hash", test_hash },
        { "array", test_array },
        { "lru hash evicts the least recently used", test_lru },
        { "bloom filter", test_bloom },
        { "count-min sketch", test_count_min },
        { "longest prefix match", test_lpm },
        { "bad declarations", test_bad_declarations },
        { "compiled program with maps and helpers", test_program_with_maps },
        { "a replacing program keeps identical maps", test_keep_maps },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "maps", cases);
}
