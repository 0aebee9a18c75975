/* syn-sampler: matches TCP SYNs (SYN set, ACK clear) at most 'rate' per
 * second, so that a rule with this filter sends a bounded sample of SYNs to
 * the controller (output:CONTROLLER) and goes on, while a lower-priority rule
 * only goes on; counts every SYN, and every sample, per destination address.
 * The controller's SYN guard (docs/syn-guard.md) fingerprints the samples and
 * reads the per-destination SYN rates from the counts.
 *
 * Maps:
 *   params        array[1] of struct params, set by the controller
 *   bucket        array[1] of struct bucket: the program's one token bucket
 *                 (the cap is on what the switch sends, not per destination)
 *   destinations  lru_hash: destination address (16 bytes; IPv4 as the
 *                 IPv4-mapped IPv6 address ::ffff:a.b.c.d) -> struct counts;
 *                 the least recently seen are evicted
 * Parameters: rate (samples per second; 0 = 100), burst (samples; 0 = rate;
 * at most 10^6).
 * Limits: one VLAN tag is skipped; IPv6 extension headers are not (such SYNs
 * are neither counted nor sampled); non-first IPv4 fragments never match.
 * The bucket is updated without a lock: two threads at the same instant may
 * both take the last token (the cap is approximate by one sample per
 * thread), and a count may miss an increment only when its entry is created
 * by two threads at once. */
#include <oko/net.h>

#define DEFAULT_RATE 100
#define MAX_BURST 1000000               /* keeps burst x 1e9 within 64 bits */
#define NS_PER_SEC 1000000000ULL
#define MAX_DESTINATIONS 4096
#define ADDRESS_LEN 16                  /* an IPv6 address */
#define IPV4_MAPPED_PREFIX_LEN 12       /* ::ffff: before the IPv4 address */
#define IPV4_ADDR_LEN 4

struct params {
    uint64_t rate;                      /* samples per second */
    uint64_t burst;                     /* samples */
};

struct bucket {
    uint64_t tokens_ns;                 /* tokens x 1e9 (refills stay integer) */
    uint64_t last_ns;                   /* 0: never used (starts full) */
};

struct counts {
    uint64_t syns;                      /* SYNs seen */
    uint64_t sampled;                   /* of them, matched (sent on as samples) */
};

OKO_MAP(params, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct params), 1);
OKO_MAP(bucket, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct bucket), 1);
OKO_MAP(destinations, OKO_MAP_LRU_HASH, ADDRESS_LEN, sizeof(struct counts), MAX_DESTINATIONS);

/* Takes one token from the bucket if it has one. */
OKO_INLINE int
take_token(void)
{
    uint32_t zero = 0;
    const struct params *p = oko_map_lookup(&params, &zero);
    struct bucket *b = oko_map_lookup(&bucket, &zero);
    if (!b) {
        return 0;
    }
    uint64_t rate = p && p->rate ? p->rate : DEFAULT_RATE;
    uint64_t burst = p && p->burst ? p->burst : rate;
    if (burst > MAX_BURST) {
        burst = MAX_BURST;
    }
    uint64_t capacity = burst * NS_PER_SEC;
    uint64_t now = oko_time_ns();
    uint64_t tokens = b->tokens_ns;

    /* Refill without overflowing: a full bucket needs capacity / rate ns. */
    uint64_t elapsed = now - b->last_ns;
    if (!b->last_ns || elapsed >= capacity / rate) {
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
        return 0;
    }
    b->tokens_ns = tokens - NS_PER_SEC;
    return 1;
}

/* Adds a SYN (and a sample) to the destination's counts. */
OKO_INLINE void
count(const uint8_t *address, int sampled)
{
    struct counts *c = oko_map_lookup(&destinations, address);
    if (!c) {
        struct counts fresh = { 1, sampled };
        oko_map_update(&destinations, address, &fresh, OKO_UPDATE_ANY);
        return;
    }
    __sync_fetch_and_add(&c->syns, 1);
    if (sampled) {
        __sync_fetch_and_add(&c->sampled, 1);
    }
}

OKO_FILTER uint64_t
syn_sampler(const void *pkt, uint64_t len)
{
    const uint8_t *eth = pkt;
    const uint8_t *end = eth + len;
    uint8_t address[ADDRESS_LEN] = { 0 };
    const uint8_t *tcp;
    uint16_t type;

    uint32_t l3 = parse_ethernet(eth, end, &type);
    if (!l3) {
        return OKO_NO_MATCH;
    }
    const uint8_t *ip = eth + l3;
    if (type == ETH_P_IPV4) {
        if (ip + IPV4_MIN_HLEN > end || ip[IPV4_PROTOCOL] != IPPROTO_TCP) {
            return OKO_NO_MATCH;
        }
        uint32_t ihl = (ip[0] & 0x0f) * 4;
        if (ihl < IPV4_MIN_HLEN || (read_be16(ip + IPV4_FRAG) & IPV4_FRAG_OFFSET_MASK)) {
            return OKO_NO_MATCH;
        }
        address[IPV4_MAPPED_PREFIX_LEN - 2] = 0xff;
        address[IPV4_MAPPED_PREFIX_LEN - 1] = 0xff;
        for (int i = 0; i < IPV4_ADDR_LEN; i++) {
            address[IPV4_MAPPED_PREFIX_LEN + i] = ip[IPV4_DST + i];
        }
        tcp = ip + ihl;
    } else if (type == ETH_P_IPV6) {
        if (ip + IPV6_HLEN > end || ip[IPV6_NEXT_HEADER] != IPPROTO_TCP) {
            return OKO_NO_MATCH;
        }
        for (int i = 0; i < ADDRESS_LEN; i++) {
            address[i] = ip[IPV6_DST + i];
        }
        tcp = ip + IPV6_HLEN;
    } else {
        return OKO_NO_MATCH;
    }
    if (tcp + TCP_MIN_HLEN > end || (tcp[TCP_FLAGS] & (TCP_SYN | TCP_ACK)) != TCP_SYN) {
        return OKO_NO_MATCH;
    }
    int sampled = take_token();
    count(address, sampled);
    return sampled ? OKO_MATCH : OKO_NO_MATCH;
}
