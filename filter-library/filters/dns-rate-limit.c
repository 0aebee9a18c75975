/* dns-rate-limit: a token bucket per queried name; matches DNS queries
 * (UDP to port 53) for a name asked more often than 'rate' per second
 * (burst 'burst'), e.g. a random-subdomain or reflection flood aimed at one
 * name (thesis ch. 4).  A rule drops matching packets; queries for other
 * names are untouched.
 *
 * The name is the query's QNAME in wire form (length-prefixed labels),
 * compared case-insensitively (ASCII), hashed over its first NAME_MAX
 * bytes.
 *
 * Maps:
 *   params   array[1] of struct params (catalog parameters)
 *   names    lru_hash: u64 name hash -> struct bucket (with the name's
 *            first NAME_SHOWN bytes, so that a dump says which name it is);
 *            the least recently queried names are evicted when it is full
 * Parameters: rate (queries per second per name; 0 = 100), burst (queries;
 * 0 = rate; at most 10^6).
 * Limits: IPv4 and IPv6 without extension headers, at most one VLAN tag;
 * names longer than NAME_MAX bytes are told apart by their first NAME_MAX
 * bytes only; packets that are not well-formed queries never match; the
 * bucket is updated without a lock (approximate by one query per thread). */
#include <oko/net.h>
#include <oko/token-bucket.h>

#define DNS_PORT 53
#define DNS_HLEN 12
#define DNS_FLAGS 2             /* offset of the flags in the DNS header */
#define DNS_FLAG_QR 0x80        /* in the first flags byte: 1 = response */
#define DNS_QDCOUNT 4
#define NAME_MAX 64
#define NAME_SHOWN 32
#define MAX_NAMES 65536
#define DEFAULT_RATE 100
#define HASH_SEED 0x6f6b6f646e73ULL /* "okodns" */

struct params {
    uint64_t rate;              /* queries per second per name */
    uint64_t burst;             /* queries */
};

struct bucket {
    struct oko_token_bucket tokens;
    uint64_t queries;           /* all queries for the name */
    uint64_t limited;           /* queries over the limit (matched) */
    uint8_t name[NAME_SHOWN];   /* wire form, lower case, zero padded */
};

OKO_MAP(params, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct params), 1);
OKO_MAP(names, OKO_MAP_LRU_HASH, sizeof(uint64_t), sizeof(struct bucket), MAX_NAMES);

OKO_FILTER uint64_t
dns_rate_limit(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    const uint8_t *end = cur.end;
    const uint8_t *ip;
    uint16_t type;

    const uint8_t *udp = parse_to_transport(&cur, IPPROTO_UDP, &type, &ip);
    const uint8_t *dns = cur.pos;
    if (!udp || dns + DNS_HLEN > end || read_be16(udp + UDP_DST_PORT) != DNS_PORT
        || (dns[DNS_FLAGS] & DNS_FLAG_QR) || !read_be16(dns + DNS_QDCOUNT)) {
        return OKO_NO_MATCH;
    }

    /* The name, lower-cased, up to its terminating zero (or NAME_MAX). */
    const uint8_t *qname = dns + DNS_HLEN;
    uint8_t name[NAME_MAX] = { 0 };
    int done = 0;
#pragma clang loop unroll(full)
    for (int i = 0; i < NAME_MAX; i++) {
        if (!done) {
            if (qname + i + 1 > end || !qname[i]) {
                done = 1;
            } else {
                uint8_t c = qname[i];
                name[i] = c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
            }
        }
    }
    if (!name[0]) {
        return OKO_NO_MATCH;                /* the root, or cut short */
    }
    uint64_t key = oko_hash(name, NAME_MAX, HASH_SEED);

    const struct params *p = oko_map_first(&params);
    uint64_t rate = p && p->rate ? p->rate : DEFAULT_RATE;
    uint64_t capacity = oko_token_bucket_capacity(p && p->burst ? p->burst : rate);
    uint64_t now = oko_time_ns();

    struct bucket *b = oko_map_lookup(&names, &key);
    if (!b) {
        struct bucket fresh = { oko_token_bucket_first(capacity, now), 1, 0, { 0 } };
        __builtin_memcpy(fresh.name, name, NAME_SHOWN);
        oko_map_update(&names, &key, &fresh, OKO_UPDATE_ANY);
        return OKO_NO_MATCH;
    }
    b->queries++;
    if (!oko_token_bucket_take(&b->tokens, rate, capacity, now)) {
        b->limited++;
        return OKO_MATCH;                   /* over the limit */
    }
    return OKO_NO_MATCH;
}
