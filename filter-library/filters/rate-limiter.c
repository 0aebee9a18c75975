/* rate-limiter: per-source-IPv4 token bucket; matches packets over the
 * limit (a rule drops them, a lower-priority rule forwards the rest).
 *
 * Maps:
 *   params  (array[1], value: struct params) - set by the controller
 *   buckets (lru_hash, key: IPv4 source in network order, value: struct
 *            bucket, 65536 sources; the least recently seen are evicted)
 * Parameters: rate (packets per second; 0 = 1000), burst (packets; 0 = rate).
 * Limits: IPv4 only; a bucket is updated without a lock, so packets of one
 * source handled by two threads at the same instant may both take the
 * last token (the limit is approximate by at most one packet per thread). */
#include <oko/net.h>

#define DEFAULT_RATE 1000
#define NS_PER_SEC 1000000000ULL
#define MAX_SOURCES 65536

struct params {
    uint64_t rate;                  /* packets per second */
    uint64_t burst;                 /* packets */
};

struct bucket {
    uint64_t tokens_ns;             /* tokens x 1e9 (so that refills stay integer) */
    uint64_t last_ns;
};

OKO_MAP(params, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct params), 1);
OKO_MAP(buckets, OKO_MAP_LRU_HASH, 4, sizeof(struct bucket), MAX_SOURCES);

OKO_FILTER uint64_t
rate_limiter(const void *pkt, uint64_t len)
{
    const uint8_t *eth = pkt;
    const uint8_t *ip = eth + ETH_HLEN;

    if (len < ETH_HLEN + IPV4_MIN_HLEN || read_be16(eth + ETH_TYPE_OFFSET) != ETH_P_IPV4) {
        return OKO_NO_MATCH;
    }
    uint32_t zero = 0;
    const struct params *p = oko_map_lookup(&params, &zero);
    uint64_t rate = p && p->rate ? p->rate : DEFAULT_RATE;
    uint64_t burst = p && p->burst ? p->burst : rate;
    uint64_t capacity = burst * NS_PER_SEC;

    uint8_t src[4] = { ip[IPV4_SRC], ip[IPV4_SRC + 1], ip[IPV4_SRC + 2], ip[IPV4_SRC + 3] };
    uint64_t now = oko_time_ns();
    struct bucket *b = oko_map_lookup(&buckets, src);
    if (!b) {
        /* A new source starts with a full bucket, minus this packet. */
        struct bucket fresh = { capacity - NS_PER_SEC, now };
        oko_map_update(&buckets, src, &fresh, OKO_UPDATE_ANY);
        return OKO_NO_MATCH;
    }
    uint64_t elapsed = now - b->last_ns;
    uint64_t tokens = b->tokens_ns;
    /* Refill, without overflowing: a full bucket needs capacity / rate ns. */
    if (elapsed >= capacity / rate) {
        tokens = capacity;
    } else {
        tokens += elapsed * rate;
        if (tokens > capacity) {
            tokens = capacity;
        }
    }
    b->last_ns = now;
    if (tokens < NS_PER_SEC) {
        b->tokens_ns = tokens;
        return OKO_MATCH;               /* over the limit */
    }
    b->tokens_ns = tokens - NS_PER_SEC;
    return OKO_NO_MATCH;
}
