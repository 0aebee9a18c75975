/* rate-limiter: per-source-IPv4 token bucket; matches packets over the
 * limit (a rule drops them, a lower-priority rule forwards the rest).
 *
 * Maps:
 *   params  (array[1], value: struct params) - set by the controller
 *   buckets (lru_hash, key: IPv4 source in network order, value: struct
 *            bucket, 65536 sources; the least recently seen are evicted)
 * Parameters: rate (packets per second; 0 = 1000), burst (packets; 0 = rate;
 * at most 10^6).
 * Limits: IPv4 only (one VLAN tag skipped; every fragment counts); a
 * bucket is updated without a lock, so packets of one source handled by two
 * threads at the same instant may both take the last token (the limit is
 * approximate by at most one packet per thread). */
#include <oko/net.h>
#include <oko/token-bucket.h>

#define DEFAULT_RATE 1000
#define MAX_SOURCES 65536

struct params {
    uint64_t rate;                  /* packets per second */
    uint64_t burst;                 /* packets */
};

OKO_MAP(params, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct params), 1);
OKO_MAP(buckets, OKO_MAP_LRU_HASH, 4, sizeof(struct oko_token_bucket), MAX_SOURCES);

OKO_FILTER uint64_t
rate_limiter(const void *pkt, uint64_t len)
{
    struct oko_cursor cur = oko_cursor(pkt, len);
    uint8_t protocol;

    const uint8_t *ip = parse_to_ipv4(&cur, &protocol);
    if (!ip) {
        return OKO_NO_MATCH;
    }
    const struct params *p = oko_map_first(&params);
    if (!p) {
        return OKO_NO_MATCH;            /* an array's entry is always there */
    }
    uint64_t rate = p->rate ? p->rate : DEFAULT_RATE;
    uint64_t capacity = oko_token_bucket_capacity(p->burst ? p->burst : rate);

    uint32_t src = read_raw32(ip + IPV4_SRC);
    uint64_t now = oko_time_ns();
    struct oko_token_bucket *b = oko_map_lookup(&buckets, &src);
    if (!b) {
        struct oko_token_bucket fresh = oko_token_bucket_first(capacity, now);
        oko_map_update(&buckets, &src, &fresh, OKO_UPDATE_ANY);
        return OKO_NO_MATCH;
    }
    return oko_token_bucket_take(b, rate, capacity, now) ? OKO_NO_MATCH : OKO_MATCH;
}
