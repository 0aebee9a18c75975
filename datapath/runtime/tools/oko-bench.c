/* oko-bench: the runtime's micro-benchmarks (docs/performance.md).
 *
 *   oko-bench PROGS_DIR [ROUNDS] [--engines-only]
 *
 * --engines-only prints just the first table (interpreter vs JIT), for
 * tools/bench-processes.sh, which runs it in several fresh processes: a
 * short program's time depends on the process's code layout.
 *
 * Every figure is the median over ROUNDS (default 7) rounds; within a round
 * the engines being compared run one after the other, alternating, on the
 * same packet, so that drift hits them alike.  Prints a Markdown table. */
#define _GNU_SOURCE                     /* MAP_FIXED_NOREPLACE */
#include <inttypes.h>
#include <rte_bpf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "oko-asm.h"
#include "oko-filter.h"
#include "oko-jit.h"

#define CALLS 2000000
#define MAX_ROUNDS 31

static volatile uint64_t sink;

static double
now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

static struct oko_filter *
load(const char *dir, const char *name, bool interpret)
{
    char path[512], error[OKO_ERROR_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    static uint8_t elf[1 << 20];
    size_t size = fread(elf, 1, sizeof elf, f);
    fclose(f);
    struct oko_filter_options opts = { .interpret = interpret };
    struct oko_filter *filter;
    if (oko_filter_load(elf, size, &opts, &filter, error)) {
        fprintf(stderr, "%s: %s\n", name, error);
        exit(1);
    }
    return filter;
}

/* ns per call: with 'per_call_epoch', of oko_filter_run() (an epoch
 * section around every run); otherwise of the engine alone inside one
 * section, as a datapath that enters once per batch of packets runs it. */
static double
time_filter(const struct oko_filter *f, const uint8_t *pkt, size_t len,
            bool per_call_epoch)
{
    uint64_t acc = 0;
    double t0 = now_ns();
    if (per_call_epoch) {
        for (int i = 0; i < CALLS; i++) {
            acc += oko_filter_run(f, pkt, len);
        }
    } else {
        void *top = oko_stack_top();
        oko_epoch_enter();
        if (f->jit.fn) {
            for (int i = 0; i < CALLS; i++) {
                acc += f->jit.fn(pkt, len, top);
            }
        } else {
            for (int i = 0; i < CALLS; i++) {
                acc += oko_interp_run(f->code, pkt, len, top);
            }
        }
        oko_epoch_exit();
    }
    double ns = (now_ns() - t0) / CALLS;
    sink = acc;
    return ns;
}

static size_t
linux_syn(uint8_t *p)
{
    static const uint8_t options[20] = {
        2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 3, 7,
    };
    memset(p, 0, 128);
    p[12] = 0x08; p[14] = 0x45; p[22] = 64; p[23] = 6;
    p[26] = 10; p[29] = 1; p[30] = 192; p[31] = 168; p[32] = 1; p[33] = 80;
    uint8_t *tcp = p + 34;
    tcp[0] = 0x9c;
    tcp[1] = 0x40;
    tcp[3] = 80;
    tcp[12] = 10 << 4;
    tcp[13] = 0x02;
    /* window 64240 = 44 * 1460 */
    tcp[14] = 0xfa; tcp[15] = 0xf0;
    memcpy(tcp + 20, options, sizeof options);
    return 74;
}

static size_t
tcp_ack(uint8_t *p, uint32_t client)
{
    memset(p, 0, 128);
    p[12] = 0x08; p[14] = 0x45; p[22] = 64; p[23] = 6;
    p[26] = 10; p[27] = client >> 16; p[28] = client >> 8; p[29] = client;
    p[30] = 192; p[31] = 168; p[32] = 1; p[33] = 80;
    uint8_t *tcp = p + 34;
    tcp[0] = 0x9c;
    tcp[1] = 0x40;
    tcp[3] = 80;
    tcp[12] = 5 << 4;
    tcp[13] = 0x10;
    return 54;
}

static const char *const names[] = {
    "baseline.o", "p0f-linux-syn.o", "conntrack-established.o",
};

/* Brings the two copies 'a' and 'b' of program 'name' (one of names[])
 * into the state it is timed in, writes the packet it is timed on to 'pkt'
 * and returns its length; exits if the copies disagree on it. */
static size_t
prepare(const char *name, struct oko_filter *a, struct oko_filter *b,
        uint8_t *pkt)
{
    size_t len;
    if (!strcmp(name, "conntrack-established.o")) {
        /* 10,000 open connections in each copy; time an established one. */
        for (uint32_t c = 0; c < 10000; c++) {
            uint8_t syn[128];
            size_t n = tcp_ack(syn, c);
            syn[34 + 13] = 0x02;
            oko_filter_run(a, syn, n);
            oko_filter_run(b, syn, n);
        }
        len = tcp_ack(pkt, 4242);
    } else {
        len = linux_syn(pkt);
    }
    if (oko_filter_run(a, pkt, len) != oko_filter_run(b, pkt, len)) {
        fprintf(stderr, "%s: copies disagree\n", name);
        exit(1);
    }
    return len;
}

static void
bench_engines(const char *dir, int rounds)
{
    printf(
        "| program | interpreter ns/call | JIT ns/call | JIT speed-up "
        "| interpreter, epoch per call | JIT, epoch per call | speed-up |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        struct oko_filter *interp = load(dir, names[k], true);
        struct oko_filter *jit = load(dir, names[k], false);
        uint8_t pkt[128];
        size_t len = prepare(names[k], interp, jit, pkt);
        double t[4][MAX_ROUNDS], ratio[2][MAX_ROUNDS];
        for (int r = 0; r < rounds; r++) {
            for (int epoch = 0; epoch < 2; epoch++) {
                t[2 * epoch][r] = time_filter(interp, pkt, len, epoch);
                t[2 * epoch + 1][r] = time_filter(jit, pkt, len, epoch);
                ratio[epoch][r] = t[2 * epoch][r] / t[2 * epoch + 1][r];
            }
        }
        printf("| %s | %.1f | %.1f | %.1fx | %.1f | %.1f | %.1fx |\n",
               names[k], median(t[0], rounds), median(t[1], rounds),
               median(ratio[0], rounds), median(t[2], rounds),
               median(t[3], rounds), median(ratio[1], rounds));
        oko_filter_destroy(interp);
        oko_filter_destroy(jit);
    }
}

static void
bench_maps(int rounds)
{
    printf("\n| map | entries | key bytes | ns per lookup (hit) | ns per "
           "lookup (miss) |\n");
    printf("|---|---:|---:|---:|---:|\n");
    static const struct {
        const char *name;
        uint32_t type;
        uint32_t n;
    } types[] = {
        { "hash", 1, 1024 },
        { "lru_hash", 3, 1024 },
        { "hash", 1, 65536 },
        { "lru_hash", 3, 65536 },
    };
    enum { MAX_N = 65536, LOOKUPS = 4000000 };
    static uint32_t keys[MAX_N][3];
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        const uint32_t N = types[t].n;
        struct oko_map_decl decl = { "m", types[t].type, 12, 8, N, 0 };
        struct oko_map *m;
        char error[OKO_ERROR_MAX];
        if (oko_map_create(&decl, &m, error)) {
            fprintf(stderr, "%s\n", error);
            exit(1);
        }
        unsigned seed = 7;
        for (uint32_t i = 0; i < N; i++) {
            keys[i][0] = rand_r(&seed);
            keys[i][1] = rand_r(&seed);
            keys[i][2] = i;
            uint64_t v = i;
            oko_map_update_ctl(m, keys[i], &v, OKO_UPDATE_ANY);
        }
        double hit[MAX_ROUNDS], miss[MAX_ROUNDS];
        for (int r = 0; r < rounds; r++) {
            for (int kind = 0; kind < 2; kind++) {
                uint32_t probe[3];
                uint64_t acc = 0;
                oko_epoch_enter();
                double t0 = now_ns();
                for (int i = 0; i < LOOKUPS; i++) {
                    const uint32_t *k = keys[(i * 40503u) & (N - 1)];
                    probe[0] = k[0];
                    /* kind 1: absent keys */
                    probe[1] = k[1] ^ (uint32_t) kind;
                    probe[2] = k[2];
                    const void *value = oko_map_lookup(m, probe);
                    acc += (uintptr_t) value;
                }
                double ns = (now_ns() - t0) / LOOKUPS;
                oko_epoch_exit();
                sink = acc;
                (kind ? miss : hit)[r] = ns;
            }
        }
        printf("| %s | %u | 12 | %.1f | %.1f |\n", types[t].name, N,
               median(hit, rounds), median(miss, rounds));
        oko_map_destroy(m);
    }
}

/* A copy of program 'name' compiled while the JIT's near window is taken,
 * so placed where the JIT puts code when nothing near is free. */
static struct oko_filter *
load_anywhere(const char *dir, const char *name)
{
    uintptr_t start;
    size_t size;
    if (oko_jit_near_window(&start, &size)
        || mmap((void *) start, size, PROT_NONE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
                    | MAP_FIXED_NOREPLACE,
                -1, 0)
               != (void *) start) {
        fprintf(stderr,
                "cannot take the JIT's near window (none, or in use)\n");
        exit(1);
    }
    struct oko_filter *f = load(dir, name, false);
    munmap((void *) start, size);
    return f;
}

/* JIT code near the image (the default) against the fallback placement. */
static void
bench_jit_placement(const char *dir, int rounds)
{
    printf("\n| program | JIT near ns/call | JIT anywhere ns/call | anywhere "
           "/ near |\n");
    printf("|---|---:|---:|---:|\n");
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        struct oko_filter *anywhere = load_anywhere(dir, names[k]);
        struct oko_filter *near = load(dir, names[k], false);
        uint8_t pkt[128];
        size_t len = prepare(names[k], near, anywhere, pkt);
        double t[2][MAX_ROUNDS], ratio[MAX_ROUNDS];
        for (int r = 0; r < rounds; r++) {
            t[0][r] = time_filter(near, pkt, len, false);
            t[1][r] = time_filter(anywhere, pkt, len, false);
            ratio[r] = t[1][r] / t[0][r];
        }
        printf("| %s | %.1f | %.1f | %.2f |\n", names[k], median(t[0], rounds),
               median(t[1], rounds), median(ratio, rounds));
        oko_filter_destroy(near);
        oko_filter_destroy(anywhere);
    }
}

/* One program both runtimes accept: IPv4 TCP to 192.168.1.0/24 port 80,
 * reading a 64-byte block (librte_bpf gets no length: r2 is unused). */
static const char equivalent_program[] =
    "mov %r0, 0\n"
    "ldxh %r3, [%r1+12]\n"
    "jne %r3, 0x8, out\n"
    "ldxb %r3, [%r1+23]\n"
    "jne %r3, 6, out\n"
    "ldxw %r3, [%r1+30]\n"
    "and %r3, 0xffffff\n"
    "jne %r3, 0x01a8c0, out\n"
    "ldxh %r3, [%r1+36]\n"
    "be16 %r3\n"
    "jne %r3, 80, out\n"
    "mov %r0, 1\n"
    "out:\n"
    "exit\n";

static void
bench_vs_librte_bpf(int rounds)
{
    struct oko_program prog;
    char error[OKO_ERROR_MAX];
    if (oko_asm(equivalent_program, &prog, error)) {
        fprintf(stderr, "%s\n", error);
        exit(1);
    }
    struct rte_bpf_prm prm = {
        .ins = (const struct ebpf_insn *) prog.insns, .nb_ins = prog.n_insns,
        .prog_arg = { .type = RTE_BPF_ARG_PTR, .size = 64 },
    };
    struct rte_bpf *rte = rte_bpf_load(&prm);
    struct rte_bpf_jit rte_jit = { NULL, 0 };
    if (!rte || rte_bpf_get_jit(rte, &rte_jit) || !rte_jit.func) {
        fprintf(stderr, "librte_bpf refused the program or has no JIT\n");
        exit(1);
    }
    struct oko_filter_options opts = { .verify = { .min_len = 64 } };
    struct oko_filter *f;
    size_t n_insns = prog.n_insns;
    if (oko_filter_from_program(&prog, &opts, &f, error)) {
        fprintf(stderr, "%s\n", error);
        exit(1);
    }
    uint8_t pkt[128];
    tcp_ack(pkt, 1);
    if (f->jit.fn(pkt, 64, oko_stack_top()) != 1 || rte_jit.func(pkt) != 1
        || rte_bpf_exec(rte, pkt) != 1) {
        fprintf(stderr, "equivalent program: engines disagree\n");
        exit(1);
    }
    double t[4][MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        for (int e = 0; e < 4; e++) {
            uint64_t acc = 0;
            double t0 = now_ns();
            for (int i = 0; i < CALLS; i++) {
                switch (e) {
                case 0: acc += f->jit.fn(pkt, 64, oko_stack_top()); break;
                case 1: acc += rte_jit.func(pkt); break;
                case 2:
                    acc += oko_interp_run(f->code, pkt, 64, oko_stack_top());
                    break;
                default: acc += rte_bpf_exec(rte, pkt); break;
                }
            }
            t[e][r] = (now_ns() - t0) / CALLS;
            sink = acc;
        }
    }
    double ours = median(t[0], rounds), theirs = median(t[1], rounds);
    double ours_i = median(t[2], rounds), theirs_i = median(t[3], rounds);
    printf("\n| engine (same %zu-instruction program, raw call) | ns/call |\n",
           n_insns);
    printf("|---|---:|\n");
    printf("| Oko JIT | %.2f |\n| librte_bpf JIT | %.2f |\n", ours, theirs);
    printf("| Oko interpreter | %.2f |\n| librte_bpf interpreter | %.2f |\n",
           ours_i, theirs_i);
    printf("\nOko JIT / librte_bpf JIT time: %.2f; Oko interpreter / "
           "librte_bpf interpreter: %.2f\n",
           ours / theirs, ours_i / theirs_i);
    rte_bpf_destroy(rte);
    oko_filter_destroy(f);
}

int
main(int argc, char *argv[])
{
    bool engines_only = argc > 1 && !strcmp(argv[argc - 1], "--engines-only");
    if (engines_only) {
        argc--;
    }
    if (argc < 2) {
        fprintf(stderr,
                "usage: oko-bench PROGS_DIR [ROUNDS] [--engines-only]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 7;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        rounds = 7;
    }
    printf("Runtime benchmarks: median of %d rounds, %d calls each.\n\n",
           rounds, CALLS);
    bench_engines(argv[1], rounds);
    if (!engines_only) {
        bench_jit_placement(argv[1], rounds);
        bench_maps(rounds);
        bench_vs_librte_bpf(rounds);
    }
    return 0;
}
