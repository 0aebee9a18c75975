/* oko-filter: try a filter program before loading it into a switch.
 *
 *   oko-filter verify FILE [--min-len N]
 *   oko-filter disasm FILE
 *   oko-filter run FILE TRACE.pcap [--interpret] [--quiet] [--json]
 *                  [--clock pcap] [--map MAP:KEYHEX=VALUEHEX]... [--repeat N]
 *                  [--layout MAP=FIELD:TYPE,.../FIELD:TYPE,...]...
 *   oko-filter asm FILE.s -o OUT.bin
 *
 * FILE is an ELF object from clang -target bpf, or assembly (.s, the
 * syntax of oko-asm.h).  Exit status: 0 success, 1 rejected or failed,
 * 2 usage. */

#include <errno.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oko-asm.h"
#include "oko-epoch.h"
#include "oko-filter.h"
#include "oko-helpers.h"
#include "oko-map.h"
#include "oko-verifier.h"

static const char *const map_type_names[] = {
    "?", "hash", "array", "lru_hash", "bloom", "count_min", "lpm",
};

static void
usage(void)
{
    fprintf(stderr,
            "usage: oko-filter verify FILE [--min-len N] [--cost]\n"
            "       oko-filter disasm FILE\n"
            "       oko-filter run FILE TRACE.pcap [--interpret] [--quiet] "
            "[--json]\n"
            "                      [--clock pcap] [--map "
            "MAP:KEYHEX=VALUEHEX]... [--repeat N]\n"
            "                      [--layout "
            "MAP=FIELD:TYPE,.../FIELD:TYPE,...]...\n"
            "       oko-filter asm FILE.s -o OUT.bin\n"
            "FILE: an ELF object (clang -O2 -target bpf -c) or assembly "
            "(.s).\n"
            "Layout types: u8 u16 u32 u64 (little-endian), be16 be32 be64 "
            "(network order),\n"
            "ipv4, mac, hex<N> (N raw bytes).\n"
            "--map writes an entry before the first packet, as UPDATE_MAP "
            "would (bloom: no\n"
            "value; count_min: a u32 increment).  --clock pcap: oko_time_ns() "
            "returns the\n"
            "packet's capture time.  --json: verdicts and map entries as one "
            "JSON object.\n"
            "--repeat N: a benchmark: the trace (held in memory) N more "
            "times, timed as a\n"
            "whole, then 'ns per packet' without the per-packet clock reads.\n"
            "--cost: what the verification spent of its budget (1,000,000 "
            "steps).\n");
    exit(2);
}

static void *
read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "oko-filter: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    size_t cap = 1 << 16, n = 0;
    char *data = malloc(cap + 1);
    for (size_t r; (r = fread(data + n, 1, cap - n, f)) > 0;) {
        n += r;
        if (n == cap) {
            cap *= 2;
            data = realloc(data, cap + 1);
        }
    }
    fclose(f);
    data[n] = '\0';
    *size = n;
    return data;
}

/* Loads FILE (ELF or assembly) into 'prog'; exits on error. */
static void
load_program(const char *path, struct oko_program *prog)
{
    size_t size;
    char *data = read_file(path, &size);
    char error[OKO_ERROR_MAX];
    int err = size >= 4 && !memcmp(data, "\177ELF", 4)
              ? oko_program_load_elf(data, size, prog, error)
              : oko_asm(data, prog, error);
    free(data);
    if (err) {
        printf("%s: rejected: %s\n", path, error);
        exit(1);
    }
}

static void
print_maps(const struct oko_program *prog)
{
    for (size_t i = 0; i < prog->n_maps; i++) {
        const struct oko_map_decl *d = &prog->maps[i];
        printf("  map %zu '%s': %s, key %u bytes, value %u bytes, %u "
               "entries%s\n",
               i, d->name, d->type < 7 ? map_type_names[d->type] : "?",
               d->key_size, d->value_size, d->max_entries,
               d->flags ? " (flags set)" : "");
    }
}

static int
cmd_verify(int argc, char *argv[])
{
    struct oko_filter_options opts = { .interpret = true };
    bool show_cost = false;
    if (argc < 1) {
        usage();
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--min-len") && i + 1 < argc) {
            opts.verify.min_len = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--cost")) {
            show_cost = true;
        } else {
            usage();
        }
    }
    struct oko_program prog;
    load_program(argv[0], &prog);
    size_t n_insns = prog.n_insns, n_maps = prog.n_maps;
    struct oko_program copy = prog;         /* for the map listing */
    struct oko_map_decl maps[OKO_MAX_MAPS];
    memcpy(maps, prog.maps, sizeof maps);
    struct oko_filter *f;
    char error[OKO_ERROR_MAX];
    int err = oko_filter_from_program(&prog, &opts, &f, error);
    if (err) {
        printf("%s: rejected: %s\n", argv[0], error);
        return 1;
    }
    char inlined[64] = "";
    if (f->prog.n_insns != n_insns) {
        snprintf(inlined, sizeof inlined, " (%zu with its calls inlined)",
                 f->prog.n_insns);
    }
    printf("%s: accepted: %zu instructions%s, %zu maps (%zu bytes), %zu "
           "instructions explored, "
           "%zu paths pruned\n",
           argv[0], n_insns, inlined, n_maps, f->memory,
           f->verify_stats.explored, f->verify_stats.pruned);
    if (show_cost) {
        printf("  %zu states compared (%zu steps of the budget), %zu copies "
               "narrowed by "
               "comparisons (as many steps), %zu stored (%zu bytes), at most "
               "%zu branches "
               "pending\n",
               f->verify_stats.compared, f->verify_stats.compare_cost,
               f->verify_stats.narrowed, f->verify_stats.stored,
               f->verify_stats.stored_bytes, f->verify_stats.max_pending);
    }
    memcpy(copy.maps, maps, sizeof maps);
    print_maps(&copy);
    char fold[128];
    oko_fold_format(&f->fold, fold, sizeof fold);
    printf("  %s\n", fold);
    oko_filter_destroy(f);
    return 0;
}

static int
cmd_disasm(int argc, char *argv[])
{
    if (argc != 1) {
        usage();
    }
    struct oko_program prog;
    load_program(argv[0], &prog);
    for (size_t i = 0; i < prog.n_maps; i++) {
        const struct oko_map_decl *d = &prog.maps[i];
        printf(".map %s %s %u %u %u", d->name,
               d->type < 7 ? map_type_names[d->type] : "?", d->key_size,
               d->value_size, d->max_entries);
        printf(d->flags ? " %u\n" : "\n", d->flags);
    }
    for (size_t pc = 0; pc < prog.n_insns;) {
        char line[160];
        int n = oko_disasm_insn(&prog, pc, line, sizeof line);
        printf("%5zu:  %s\n", pc, line);
        pc += n;
    }
    oko_program_destroy(&prog);
    return 0;
}

static int
cmd_asm(int argc, char *argv[])
{
    if (argc != 3 || strcmp(argv[1], "-o")) {
        usage();
    }
    struct oko_program prog;
    load_program(argv[0], &prog);
    FILE *out = fopen(argv[2], "wb");
    if (!out
        || fwrite(prog.insns, sizeof *prog.insns, prog.n_insns, out)
               != prog.n_insns
        || fclose(out)) {
        fprintf(stderr, "oko-filter: %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    oko_program_destroy(&prog);
    return 0;
}

/* ---- Map dumps, with optional layouts ---- */

struct field {
    char name[32];
    char type[16];
    int size;
};

struct layout {
    char map[OKO_MAP_NAME_MAX];
    struct field key[16], value[16];
    int n_key, n_value;
};

static int
type_size(const char *type)
{
    if (!strcmp(type, "u8")) {
        return 1;
    }
    if (!strcmp(type, "u16") || !strcmp(type, "be16")) {
        return 2;
    }
    if (!strcmp(type, "u32") || !strcmp(type, "be32")
        || !strcmp(type, "ipv4")) {
        return 4;
    }
    if (!strcmp(type, "u64") || !strcmp(type, "be64")) {
        return 8;
    }
    if (!strcmp(type, "mac")) {
        return 6;
    }
    if (!strncmp(type, "hex", 3) && atoi(type + 3) > 0) {
        return atoi(type + 3);
    }
    return 0;
}

static int
parse_fields(char *spec, struct field *fields, int max)
{
    int n = 0;
    for (char *f = strtok(spec, ","); f && n < max; f = strtok(NULL, ",")) {
        char *colon = strchr(f, ':');
        if (!colon) {
            return -1;
        }
        *colon = '\0';
        snprintf(fields[n].name, sizeof fields[n].name, "%.31s", f);
        snprintf(fields[n].type, sizeof fields[n].type, "%.15s", colon + 1);
        fields[n].size = type_size(fields[n].type);
        if (!fields[n].size) {
            return -1;
        }
        n++;
    }
    return n;
}

static bool
parse_layout(const char *arg, struct layout *l)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", arg);
    char *eq = strchr(buf, '='), *slash = eq ? strchr(eq, '/') : NULL;
    if (!eq || !slash) {
        return false;
    }
    *eq = *slash = '\0';
    snprintf(l->map, sizeof l->map, "%.63s", buf);
    char key[256], value[256];
    snprintf(key, sizeof key, "%.255s", eq + 1);
    snprintf(value, sizeof value, "%.255s", slash + 1);
    l->n_key = parse_fields(key, l->key, 16);
    l->n_value = parse_fields(value, l->value, 16);
    return l->n_key > 0 && l->n_value > 0;
}

static void
print_hex(const uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        printf("%02x", p[i]);
    }
}

static void
print_decoded(const struct field *fields, int n, const uint8_t *p,
              uint32_t size)
{
    uint32_t off = 0;
    for (int i = 0; i < n && off + fields[i].size <= size; i++) {
        const struct field *f = &fields[i];
        const uint8_t *q = p + off;
        uint64_t v = 0;
        printf("%s%s=", i ? " " : "", f->name);
        if (!strcmp(f->type, "ipv4")) {
            printf("%u.%u.%u.%u", q[0], q[1], q[2], q[3]);
        } else if (!strcmp(f->type, "mac")) {
            printf("%02x:%02x:%02x:%02x:%02x:%02x", q[0], q[1], q[2], q[3],
                   q[4], q[5]);
        } else if (!strncmp(f->type, "hex", 3)) {
            print_hex(q, f->size);
        } else if (!strncmp(f->type, "be", 2)) {
            for (int b = 0; b < f->size; b++) {
                v = v << 8 | q[b];
            }
            printf("%" PRIu64, v);
        } else {
            memcpy(&v, q, f->size);
            printf("%" PRIu64, v);
        }
        off += f->size;
    }
}

struct dump_ctx {
    const struct layout *layout;
};

static int
print_entry(const void *key, uint32_t key_size, const void *value,
            uint32_t value_size, void *aux)
{
    const struct dump_ctx *ctx = aux;
    printf("    key ");
    print_hex(key, key_size);
    printf(" -> value ");
    print_hex(value, value_size);
    if (ctx->layout) {
        printf("   (");
        print_decoded(ctx->layout->key, ctx->layout->n_key, key, key_size);
        printf(" -> ");
        print_decoded(ctx->layout->value, ctx->layout->n_value, value,
                      value_size);
        printf(")");
    }
    printf("\n");
    return 0;
}

/* ---- Map presets (--map) ---- */

struct preset {
    char map[OKO_MAP_NAME_MAX];
    uint8_t key[512], value[4096];
    size_t key_size, value_size;
};

/* Parses HEX (an even number of hex digits, at most 'max' bytes). */
static bool
parse_hex(const char *hex, uint8_t *out, size_t max, size_t *n)
{
    size_t len = strlen(hex);
    if (len % 2 || len / 2 > max) {
        return false;
    }
    for (size_t i = 0; i < len / 2; i++) {
        unsigned int byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) {
            return false;
        }
        out[i] = byte;
    }
    *n = len / 2;
    return true;
}

static bool
parse_preset(const char *arg, struct preset *p)
{
    char buf[16384];
    snprintf(buf, sizeof buf, "%s", arg);
    char *colon = strchr(buf, ':'), *eq = colon ? strchr(colon, '=') : NULL;
    if (!colon || !eq || colon - buf >= OKO_MAP_NAME_MAX) {
        return false;
    }
    *colon = *eq = '\0';
    memcpy(p->map, buf, colon - buf + 1);          /* checked to fit above */
    return parse_hex(colon + 1, p->key, sizeof p->key, &p->key_size)
           && parse_hex(eq + 1, p->value, sizeof p->value, &p->value_size);
}

/* Writes 'p' into the filter's map of that name, with the sizes UPDATE_MAP
 * uses (docs/protocol.md 5.1).  Prints why and returns false on error. */
static bool
apply_preset(struct oko_filter *f, const struct preset *p)
{
    for (size_t i = 0; i < f->prog.n_maps; i++) {
        const struct oko_map_decl *d = &f->prog.maps[i];
        if (strcmp(d->name, p->map)) {
            continue;
        }
        bool sketch = d->type == OKO_MAP_TYPE_BLOOM
                      || d->type == OKO_MAP_TYPE_COUNT_MIN;
        uint32_t key_size = d->type == OKO_MAP_TYPE_ARRAY ? 4 : d->key_size;
        uint32_t value_size = d->type == OKO_MAP_TYPE_BLOOM ? 0
                              : d->type == OKO_MAP_TYPE_COUNT_MIN
                                  ? 4
                                  : d->value_size;
        if (p->key_size != key_size || p->value_size != value_size) {
            fprintf(stderr,
                    "oko-filter: --map %s: key %zu and value %zu bytes, the "
                    "map takes "
                    "key %u and value %u\n",
                    p->map, p->key_size, p->value_size, key_size, value_size);
            return false;
        }
        int err;
        if (sketch) {
            uint32_t increment = 1;
            if (d->type == OKO_MAP_TYPE_COUNT_MIN) {
                memcpy(&increment, p->value, sizeof increment);
            }
            oko_epoch_enter();
            int64_t r = oko_map_add(f->maps[i], p->key, increment);
            oko_epoch_exit();
            err = r < 0 ? (int) -r : 0;
        } else {
            err = -oko_map_update_ctl(f->maps[i], p->key, p->value,
                                      OKO_UPDATE_ANY);
        }
        if (err) {
            fprintf(stderr, "oko-filter: --map %s: %s\n", p->map,
                    strerror(err));
            return false;
        }
        return true;
    }
    fprintf(stderr, "oko-filter: --map %s: the program has no such map\n",
            p->map);
    return false;
}

/* ---- JSON output (--json) ---- */

static int
print_entry_json(const void *key, uint32_t key_size, const void *value,
                 uint32_t value_size, void *aux)
{
    bool *first = aux;
    printf("%s[\"", *first ? "" : ", ");
    print_hex(key, key_size);
    printf("\", \"");
    print_hex(value, value_size);
    printf("\"]");
    *first = false;
    return 0;
}

/* --clock pcap: the time of the packet being run. */
static uint64_t packet_time_ns;

static uint64_t
packet_clock(void)
{
    return packet_time_ns;
}

/* --repeat: runs the whole trace 'repeat' times from memory and returns the
 * time per packet (map state keeps evolving, as in a switch); -1 on error. */
static double
bench_trace(struct oko_filter *f, const char *path, long repeat)
{
    char errbuf[PCAP_ERRBUF_SIZE];
    pcap_t *pcap
        = pcap_open_offline_with_tstamp_precision(path,
                                                  PCAP_TSTAMP_PRECISION_NANO,
                                                  errbuf);
    if (!pcap) {
        fprintf(stderr, "oko-filter: %s\n", errbuf);
        return -1;
    }
    size_t n = 0, cap = 1024;
    struct {
        uint8_t *data;
        uint32_t len;
        uint64_t time_ns;
    } *pkts = malloc(cap * sizeof *pkts);
    struct pcap_pkthdr *hdr;
    const u_char *data;
    while (pkts && pcap_next_ex(pcap, &hdr, &data) == 1) {
        if (n == cap) {
            cap *= 2;
            pkts = realloc(pkts, cap * sizeof *pkts);
            if (!pkts) {
                break;
            }
        }
        pkts[n].data = malloc(hdr->caplen ? hdr->caplen : 1);
        memcpy(pkts[n].data, data, hdr->caplen);
        pkts[n].len = hdr->caplen;
        pkts[n].time_ns
            = (uint64_t) hdr->ts.tv_sec * 1000000000 + hdr->ts.tv_usec;
        n++;
    }
    pcap_close(pcap);
    if (!pkts || !n) {
        free(pkts);
        return pkts ? 0.0 : -1;
    }
    volatile uint64_t sink = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long r = 0; r < repeat; r++) {
        for (size_t i = 0; i < n; i++) {
            packet_time_ns = pkts[i].time_ns;
            sink += oko_filter_run(f, pkts[i].data, pkts[i].len);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    (void) sink;
    for (size_t i = 0; i < n; i++) {
        free(pkts[i].data);
    }
    free(pkts);
    double total = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    return total / ((double) n * repeat);
}

static int
cmd_run(int argc, char *argv[])
{
    struct oko_filter_options opts = { .interpret = false };
    struct layout layouts[OKO_MAX_MAPS];
    static struct preset presets[256];
    int n_layouts = 0, n_presets = 0;
    long repeat = 0;
    bool quiet = false, json = false;
    if (argc < 2) {
        usage();
    }
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--interpret")) {
            opts.interpret = true;
        } else if (!strcmp(argv[i], "--quiet")) {
            quiet = true;
        } else if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc
                   && atol(argv[i + 1]) > 0) {
            repeat = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--clock") && i + 1 < argc
                   && !strcmp(argv[i + 1], "pcap")) {
            oko_helpers_set_clock(packet_clock);
            i++;
        } else if (!strcmp(argv[i], "--map") && i + 1 < argc
                   && n_presets < 256) {
            if (!parse_preset(argv[++i], &presets[n_presets++])) {
                fprintf(stderr,
                        "oko-filter: bad --map '%s' (MAP:KEYHEX=VALUEHEX)\n",
                        argv[i]);
                usage();
            }
        } else if (!strcmp(argv[i], "--layout") && i + 1 < argc
                   && n_layouts < OKO_MAX_MAPS) {
            if (!parse_layout(argv[++i], &layouts[n_layouts++])) {
                fprintf(stderr, "oko-filter: bad layout '%s'\n", argv[i]);
                usage();
            }
        } else {
            usage();
        }
    }
    struct oko_program prog;
    load_program(argv[0], &prog);
    struct oko_filter *f;
    char error[OKO_ERROR_MAX];
    if (oko_filter_from_program(&prog, &opts, &f, error)) {
        printf("%s: rejected: %s\n", argv[0], error);
        return 1;
    }
    for (int i = 0; i < n_presets; i++) {
        if (!apply_preset(f, &presets[i])) {
            oko_filter_destroy(f);
            return 1;
        }
    }
    char errbuf[PCAP_ERRBUF_SIZE];
    pcap_t *pcap
        = pcap_open_offline_with_tstamp_precision(argv[1],
                                                  PCAP_TSTAMP_PRECISION_NANO,
                                                  errbuf);
    if (!pcap) {
        fprintf(stderr, "oko-filter: %s\n", errbuf);
        oko_filter_destroy(f);
        return 1;
    }
    struct pcap_pkthdr *hdr;
    const u_char *data;
    uint64_t n = 0, matches = 0, errors = 0, ns = 0;
    if (json) {
        printf("{\"program\": \"%s\", \"engine\": \"%s\", \"instructions\": "
               "%zu, \"verdicts\": [",
               argv[0], f->jit.fn ? "jit" : "interpreter", f->prog.n_insns);
    }
    while (pcap_next_ex(pcap, &hdr, &data) == 1) {
        struct timespec t0, t1;
        packet_time_ns
            = (uint64_t) hdr->ts.tv_sec * 1000000000 + hdr->ts.tv_usec;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        uint64_t r0 = oko_filter_run(f, data, hdr->caplen);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        ns += (t1.tv_sec - t0.tv_sec) * 1000000000 + (t1.tv_nsec - t0.tv_nsec);
        enum oko_verdict verdict = oko_verdict_of(r0);
        const char *text = verdict == OKO_VERDICT_MATCH      ? "match"
                           : verdict == OKO_VERDICT_NO_MATCH ? "no match"
                                                             : "error";
        n++;
        matches += verdict == OKO_VERDICT_MATCH;
        errors += verdict == OKO_VERDICT_ERROR;
        if (json) {
            printf("%s\"%s\"", n > 1 ? ", " : "", text);
        } else if (!quiet) {
            printf("packet %" PRIu64 ": %u bytes: %s", n, hdr->caplen, text);
            if (verdict == OKO_VERDICT_ERROR) {
                printf(" (r0 = %#" PRIx64 ", counted as no match)", r0);
            }
            printf("\n");
        }
    }
    pcap_close(pcap);
    double ns_per_packet = n ? (double) ns / n : 0.0;
    if (repeat) {
        ns_per_packet = bench_trace(f, argv[1], repeat);
        if (ns_per_packet < 0) {
            oko_filter_destroy(f);
            return 1;
        }
    }
    if (json) {
        printf("], \"ns_per_packet\": %.1f, \"maps\": [", ns_per_packet);
    } else {
        printf("%" PRIu64 " packets: %" PRIu64 " match, %" PRIu64
               " no match, %" PRIu64 " errors (%s, %.*f ns per packet%s)\n",
               n, matches, n - matches - errors, errors,
               f->jit.fn ? "jit" : "interpreter", repeat ? 1 : 0,
               ns_per_packet, repeat ? ", trace repeated in memory" : "");
    }
    for (size_t i = 0; i < f->prog.n_maps; i++) {
        const struct oko_map_decl *d = &f->prog.maps[i];
        const char *type = d->type < 7 ? map_type_names[d->type] : "?";
        uint32_t count = oko_map_count(f->maps[i]);
        oko_epoch_enter();
        if (json) {
            bool first = true;
            printf("%s{\"name\": \"%s\", \"type\": \"%s\", \"count\": %u, "
                   "\"entries\": [",
                   i ? ", " : "", d->name, type, count);
            oko_map_foreach(f->maps[i], print_entry_json, &first);
            printf("]}");
        } else {
            struct dump_ctx ctx = { NULL };
            for (int l = 0; l < n_layouts; l++) {
                if (!strcmp(layouts[l].map, d->name)) {
                    ctx.layout = &layouts[l];
                }
            }
            printf("map %zu '%s' (%s): %u %s\n", i, d->name, type, count,
                   d->type == OKO_MAP_TYPE_BLOOM
                           || d->type == OKO_MAP_TYPE_COUNT_MIN
                       ? "non-zero cells"
                       : "entries");
            oko_map_foreach(f->maps[i], print_entry, &ctx);
        }
        oko_epoch_exit();
    }
    if (json) {
        printf("]}\n");
    }
    oko_filter_destroy(f);
    return 0;
}

int
main(int argc, char *argv[])
{
    if (argc < 2) {
        usage();
    }
    if (!strcmp(argv[1], "verify")) {
        return cmd_verify(argc - 2, argv + 2);
    } else if (!strcmp(argv[1], "disasm")) {
        return cmd_disasm(argc - 2, argv + 2);
    } else if (!strcmp(argv[1], "run")) {
        return cmd_run(argc - 2, argv + 2);
    } else if (!strcmp(argv[1], "asm")) {
        return cmd_asm(argc - 2, argv + 2);
    }
    usage();
}
