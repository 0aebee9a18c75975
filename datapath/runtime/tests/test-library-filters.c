/* The filter library's stateful filters on crafted packets, in every
 * engine (CUnit).  Each engine gets its own freshly loaded filter, so map
 * state evolves the same way in each. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "oko-filter.h"
#include "util.h"

struct tcp_packet {
    uint8_t bytes[128];
    size_t len;
};

/* Ethernet + IPv4 (no options) + TCP with 'options' after the header. */
static struct tcp_packet
tcp_packet(const uint8_t src[4], uint16_t sport, const uint8_t dst[4],
           uint16_t dport, uint8_t flags, uint8_t ttl, uint16_t window,
           const uint8_t *options, size_t options_len)
{
    struct tcp_packet p;
    memset(&p, 0, sizeof p);
    uint8_t *eth = p.bytes, *ip = eth + 14, *tcp = ip + 20;
    eth[12] = 0x08;
    ip[0] = 0x45;
    ip[8] = ttl;
    ip[9] = 6;
    memcpy(ip + 12, src, 4);
    memcpy(ip + 16, dst, 4);
    tcp[0] = sport >> 8; tcp[1] = sport;
    tcp[2] = dport >> 8; tcp[3] = dport;
    tcp[12] = (uint8_t) ((20 + options_len) / 4) << 4;
    tcp[13] = flags;
    tcp[14] = window >> 8; tcp[15] = window;
    if (options_len) {
        memcpy(tcp + 20, options, options_len);
    }
    p.len = 14 + 20 + 20 + options_len;
    return p;
}

static struct oko_filter *
load(const char *name)
{
    size_t size;
    void *elf = read_prog_file(name, &size);
    char error[OKO_ERROR_MAX];
    struct oko_filter *f;
    int err = oko_filter_load(elf, size, NULL, &f, error);
    free(elf);
    if (err) {
        printf("\n%s: %s\n", name, error);
    }
    CU_ASSERT_EQUAL_FATAL(err, 0);
    return f;
}

static const uint8_t client[4] = { 10, 0, 0, 1 },
                     server[4] = { 192, 168, 1, 80 };

/* mss 1460, sok, ts, nop, ws 7: Linux's SYN options. */
static const uint8_t linux_options[20] = {
    2, 4, 0x05, 0xb4, 4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 3, 7,
};
/* mss 1460, nop, ws 8, nop, nop, sok: Windows's. */
static const uint8_t windows_options[12] = {
    2, 4, 0x05, 0xb4, 1, 3, 3, 8, 1, 1, 4, 2,
};

static void
test_p0f_linux_syn(void)
{
    for (const struct engine *e = engines; e->name; e++) {
        struct oko_filter *f = load("p0f-linux-syn.o");
        struct tcp_packet p
            = tcp_packet(client, 40000, server, 80, 0x02, 64, 64240,
                         linux_options, sizeof linux_options);
        CU_ASSERT_EQUAL(e->run(f, p.bytes, p.len), 1);
        /* options cut short */
        CU_ASSERT_EQUAL(e->run(f, p.bytes, p.len - 1), 0);
        p = tcp_packet(client, 40000, server, 80, 0x02, 128, 64240,
                       linux_options, sizeof linux_options);
        /* TTL 128 */
        CU_ASSERT_EQUAL(e->run(f, p.bytes, p.len), 0);
        p = tcp_packet(client, 40000, server, 80, 0x02, 64, 64000,
                       linux_options, sizeof linux_options);
        /* window not k * MSS */
        CU_ASSERT_EQUAL(e->run(f, p.bytes, p.len), 0);
        p = tcp_packet(client, 40000, server, 80, 0x12, 64, 64240,
                       linux_options, sizeof linux_options);
        /* SYN-ACK */
        CU_ASSERT_EQUAL(e->run(f, p.bytes, p.len), 0);
        p = tcp_packet(client, 40000, server, 80, 0x02, 128, 64240,
                       windows_options, sizeof windows_options);
        /* Windows */
        CU_ASSERT_EQUAL(e->run(f, p.bytes, p.len), 0);
        p = tcp_packet(client, 40000, server, 80, 0x02, 64, 64240,
                       windows_options, sizeof windows_options);
        /* Windows options */
        CU_ASSERT_EQUAL(e->run(f, p.bytes, p.len), 0);
        CU_ASSERT_EQUAL(e->run(f, p.bytes, 20), 0);                 /* runt */
        /* Linux's options but ws with length 4 (the packet has the byte):
         * not the signature, whose options have their standard lengths. */
        uint8_t long_ws[sizeof linux_options];
        memcpy(long_ws, linux_options, sizeof long_ws);
        long_ws[sizeof long_ws - 2] = 4;
        p = tcp_packet(client, 40000, server, 80, 0x02, 64, 64240,
                       long_ws, sizeof long_ws);
        CU_ASSERT_EQUAL(e->run(f, p.bytes, p.len + 1), 0);
        /* 7 SYNs seen, 1 Linux-like. */
        oko_epoch_enter();
        uint32_t index = 0;
        const uint64_t *all = oko_map_lookup(f->maps[0], &index);
        index = 1;
        const uint64_t *linux_like = oko_map_lookup(f->maps[0], &index);
        CU_ASSERT(all && *all == 7);
        CU_ASSERT(linux_like && *linux_like == 1);
        oko_epoch_exit();
        oko_filter_destroy(f);
    }
}

static void
test_conntrack_established(void)
{
    static const uint8_t other[4] = { 10, 0, 0, 7 };
    for (const struct engine *e = engines; e->name; e++) {
        struct oko_filter *f = load("conntrack-established.o");
        struct tcp_packet syn
            = tcp_packet(client, 40000, server, 443, 0x02, 64, 1000, NULL, 0);
        struct tcp_packet ack
            = tcp_packet(client, 40000, server, 443, 0x10, 64, 1000, NULL, 0);
        struct tcp_packet reply
            = tcp_packet(server, 443, client, 40000, 0x10, 64, 1000, NULL, 0);
        struct tcp_packet fin
            = tcp_packet(server, 443, client, 40000, 0x11, 64, 1000, NULL, 0);
        struct tcp_packet stranger
            = tcp_packet(other, 40000, server, 443, 0x10, 64, 1000, NULL, 0);
        /* nothing opened yet */
        CU_ASSERT_EQUAL(e->run(f, ack.bytes, ack.len), 0);
        /* opens, no match */
        CU_ASSERT_EQUAL(e->run(f, syn.bytes, syn.len), 0);
        CU_ASSERT_EQUAL(e->run(f, ack.bytes, ack.len), 1);
        /* other direction */
        CU_ASSERT_EQUAL(e->run(f, reply.bytes, reply.len), 1);
        CU_ASSERT_EQUAL(e->run(f, stranger.bytes, stranger.len), 0);
        CU_ASSERT_EQUAL(oko_map_count(f->maps[0]), 1);
        oko_epoch_enter();
        /* oko/conn.h's key: the lower (address, port) first, in network
         * order, then the protocol. */
        static const uint8_t key[16]
            = { 10,   0,    0,    1,    192, 168, 1, 80,
                0x9c, 0x40, 0x01, 0xbb, 6,   0,   0, 0 };
        const uint64_t *state = oko_map_lookup(f->maps[0], key);
        /* SYN + 2 packets */
        CU_ASSERT(state && state[2] == 3);
        /* last seen >= opened */
        CU_ASSERT(state && state[1] >= state[0]);
        oko_epoch_exit();
        /* matches, closes */
        CU_ASSERT_EQUAL(e->run(f, fin.bytes, fin.len), 1);
        CU_ASSERT_EQUAL(oko_map_count(f->maps[0]), 0);
        CU_ASSERT_EQUAL(e->run(f, ack.bytes, ack.len), 0);
        /* truncated TCP */
        CU_ASSERT_EQUAL(e->run(f, ack.bytes, 40), 0);
        oko_filter_destroy(f);
    }
}

/* Ethernet + IPv4 (+ 8 bytes of UDP) from 'src'. */
static size_t
udp_from(uint8_t *p, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
    memset(p, 0, 64);
    p[12] = 0x08;
    p[14] = 0x45;
    p[23] = 17;
    p[26] = a; p[27] = b; p[28] = c; p[29] = d;
    p[30] = 192; p[31] = 168; p[33] = 1;
    return 42;
}

static void
test_blocklist(void)
{
    for (const struct engine *e = engines; e->name; e++) {
        struct oko_filter *f = load("blocklist.o");
        uint8_t pkt[64];
        size_t len = udp_from(pkt, 10, 1, 2, 3);
        /* empty list */
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        struct {
            uint32_t plen;
            uint8_t addr[4];
        } ten = { 8, { 10, 0, 0, 0 } };
        uint64_t zero = 0;
        CU_ASSERT_EQUAL(oko_map_update_ctl(f->maps[0], &ten, &zero, 0), 0);
        /* 10.1.2.3 in 10/8 */
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 1);
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 1);
        udp_from(pkt, 11, 0, 0, 1);
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        /* truncated */
        CU_ASSERT_EQUAL(e->run(f, pkt, 20), 0);
        udp_from(pkt, 10, 9, 9, 9);
        /* IPv6: not handled */
        pkt[12] = 0x86; pkt[13] = 0xdd;
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        oko_epoch_enter();
        const uint64_t *count = oko_map_lookup(f->maps[0], &ten);
        CU_ASSERT(count && *count == 2);
        oko_epoch_exit();
        oko_filter_destroy(f);
    }
}

static void
test_heavy_hitter(void)
{
    for (const struct engine *e = engines; e->name; e++) {
        struct oko_filter *f = load("heavy-hitter.o");
        uint32_t zero = 0;
        uint64_t threshold = 5;
        CU_ASSERT_EQUAL(oko_map_update_ctl(f->maps[0], &zero, &threshold, 0),
                        0);
        uint8_t pkt[64];
        size_t len = udp_from(pkt, 10, 0, 0, 1);
        for (int i = 1; i <= 5; i++) {
            /* up to the threshold */
            CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        }
        /* the 6th is over */
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 1);
        udp_from(pkt, 10, 0, 0, 2);
        /* another source */
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        uint8_t src[4] = { 10, 0, 0, 1 };
        CU_ASSERT(oko_map_query(f->maps[1], src) >= 6);
        /* a new interval */
        oko_map_clear(f->maps[1]);
        udp_from(pkt, 10, 0, 0, 1);
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        oko_filter_destroy(f);
    }
}

static void
test_rate_limiter(void)
{
    for (const struct engine *e = engines; e->name; e++) {
        struct oko_filter *f = load("rate-limiter.o");
        uint32_t zero = 0;
        /* 1 packet/s, burst 3 */
        uint64_t params[2] = { 1, 3 };
        CU_ASSERT_EQUAL(oko_map_update_ctl(f->maps[0], &zero, params, 0), 0);
        uint8_t pkt[64];
        size_t len = udp_from(pkt, 10, 0, 0, 1);
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        /* the burst */
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        /* over the limit */
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 1);
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 1);
        udp_from(pkt, 10, 0, 0, 2);
        /* its own bucket */
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 0);
        CU_ASSERT_EQUAL(oko_map_count(f->maps[1]), 2);
        oko_filter_destroy(f);
    }
}

static void
test_port_scan(void)
{
    for (const struct engine *e = engines; e->name; e++) {
        struct oko_filter *f = load("port-scan.o");
        uint32_t zero = 0;
        /* 3 ports, 1 h window */
        uint64_t params[2] = { 3, UINT64_C(3600000000000) };
        CU_ASSERT_EQUAL(oko_map_update_ctl(f->maps[0], &zero, params, 0), 0);
        for (uint16_t port = 1; port <= 3; port++) {
            struct tcp_packet syn = tcp_packet(client, 40000, server, port,
                                               0x02, 64, 1000, NULL, 0);
            /* up to 3 ports */
            CU_ASSERT_EQUAL(e->run(f, syn.bytes, syn.len), 0);
        }
        struct tcp_packet syn2
            = tcp_packet(client, 40001, server, 2, 0x02, 64, 1000, NULL, 0);
        /* port 2 again: still 3 */
        CU_ASSERT_EQUAL(e->run(f, syn2.bytes, syn2.len), 0);
        uint8_t pkt[64];
        /* client, UDP port 0 */
        size_t len = udp_from(pkt, 10, 0, 0, 1);
        /* a 4th port: scanner */
        CU_ASSERT_EQUAL(e->run(f, pkt, len), 1);
        CU_ASSERT_EQUAL(e->run(f, syn2.bytes, syn2.len), 1);
        /* UDP header cut */
        CU_ASSERT_EQUAL(e->run(f, pkt, 40), 0);
        struct tcp_packet ack
            = tcp_packet(client, 40000, server, 9, 0x10, 64, 1000, NULL, 0);
        /* not an attempt */
        CU_ASSERT_EQUAL(e->run(f, ack.bytes, ack.len), 0);
        static const uint8_t other[4] = { 10, 0, 0, 7 };
        struct tcp_packet syn3
            = tcp_packet(other, 40000, server, 5, 0x02, 64, 1000, NULL, 0);
        /* another source */
        CU_ASSERT_EQUAL(e->run(f, syn3.bytes, syn3.len), 0);
        /* truncated */
        CU_ASSERT_EQUAL(e->run(f, syn3.bytes, 40), 0);
        CU_ASSERT_EQUAL(oko_map_count(f->maps[1]), 2);
        oko_filter_destroy(f);
    }
}

int
main(int argc, char *argv[])
{
    static const struct test_case cases[] = {
        { "p0f-linux-syn", test_p0f_linux_syn },
        { "conntrack-established", test_conntrack_established },
        { "blocklist", test_blocklist },
        { "heavy-hitter", test_heavy_hitter },
        { "rate-limiter", test_rate_limiter },
        { "port-scan", test_port_scan },
        { NULL, NULL },
    };
    return run_suite(argc, argv, "library filters", cases);
}
