/* port-scan: matches TCP SYNs and UDP packets of IPv4 sources that touched
 * more than 'threshold' distinct destination ports within one window.
 *
 * Maps:
 *   params  (array[1], value: struct params) - set by the controller
 *   sources (lru_hash, key: IPv4 source in network order, value: struct
 *            source_state, 65536 sources)
 *   seen    (bloom, key: source, destination port, window number; 2^20 bits,
 *            4 hashes): which (source, port) pairs a window has counted
 * Parameters: threshold (distinct ports; 0 = 100), window_ns (0 = 10 s).
 * Limits: IPv4 only (one VLAN tag skipped); distinctness comes from a bloom filter, so a false
 * positive can miss a new port (counts err low, never high); the
 * controller should clear 'seen' now and then (DELETE_MAP_ENTRIES all) to
 * keep its false-positive rate low. */
#include <oko/net.h>

#define DEFAULT_THRESHOLD 100
#define DEFAULT_WINDOW_NS 10000000000ULL
#define MAX_SOURCES 65536
#define SEEN_BITS (1 << 20)

struct params {
    uint64_t threshold;
    uint64_t window_ns;
};

struct source_state {
    uint64_t window;                /* window number: time / window_ns */
    uint64_t distinct_ports;        /* in that window */
};

struct seen_key {
    uint8_t source[4];
    uint16_t port;
    uint16_t pad;
    uint64_t window;
};

OKO_MAP(params, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct params), 1);
OKO_MAP(sources, OKO_MAP_LRU_HASH, 4, sizeof(struct source_state), MAX_SOURCES);
OKO_MAP(seen, OKO_MAP_BLOOM, sizeof(struct seen_key), 0, SEEN_BITS);

OKO_FILTER uint64_t
port_scan(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    uint8_t protocol;

    const uint8_t *ip = parse_to_ipv4(&cur, &protocol);
    const uint8_t *l4;                  /* TCP and UDP headers start with the ports */
    if (!ip) {
        return OKO_NO_MATCH;
    } else if (protocol == IPPROTO_TCP) {
        l4 = parse_tcphdr(&cur);
        if (!l4 || (l4[TCP_FLAGS] & (TCP_SYN | TCP_ACK)) != TCP_SYN) {
            return OKO_NO_MATCH;        /* only connection attempts count */
        }
    } else if (protocol == IPPROTO_UDP) {
        l4 = parse_udphdr(&cur);
        if (!l4) {
            return OKO_NO_MATCH;
        }
    } else {
        return OKO_NO_MATCH;
    }

    const struct params *p = oko_map_first(&params);
    uint64_t threshold = p && p->threshold ? p->threshold : DEFAULT_THRESHOLD;
    uint64_t window_ns = p && p->window_ns ? p->window_ns : DEFAULT_WINDOW_NS;
    uint64_t window = oko_time_ns() / window_ns;

    struct seen_key key = { .port = read_be16(l4 + TCP_DST_PORT), .window = window };
    copy4(key.source, ip + IPV4_SRC);
    struct source_state *s = oko_map_lookup(&sources, key.source);
    if (!s) {
        struct source_state fresh = { window, 1 };
        oko_map_add(&seen, &key, 1);
        oko_map_update(&sources, key.source, &fresh, OKO_UPDATE_ANY);
        return OKO_NO_MATCH;
    }
    if (s->window != window) {
        s->window = window;             /* a new window starts from zero */
        s->distinct_ports = 0;
    }
    if (!oko_map_query(&seen, &key)) {
        oko_map_add(&seen, &key, 1);
        __sync_fetch_and_add(&s->distinct_ports, 1);
    }
    return s->distinct_ports > threshold ? OKO_MATCH : OKO_NO_MATCH;
}
