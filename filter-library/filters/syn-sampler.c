/* syn-sampler: matches TCP SYNs (SYN set, ACK clear) at most 'rate' per
 * second, so that a rule with this filter sends a bounded sample of SYNs to
 * the controller (output:CONTROLLER) and goes on, while a lower-priority rule
 * only goes on; counts every SYN, and every sample, per destination address.
 * The controller's SYN guard (docs/syn-guard.md) fingerprints the samples and
 * reads the per-destination SYN rates from the counts.
 *
 * Maps:
 *   params        array[1] of struct params, set by the controller
 *   bucket        array[1] of struct oko_token_bucket (oko/token-bucket.h):
 *                 the program's one token bucket
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
#include <oko/token-bucket.h>

#define DEFAULT_RATE 100
#define MAX_DESTINATIONS 4096
#define ADDRESS_LEN 16                  /* an IPv6 address */
#define IPV4_MAPPED_PREFIX_LEN 12       /* ::ffff: before the IPv4 address */
#define IPV4_ADDR_LEN 4

struct params {
    uint64_t rate;                      /* samples per second */
    uint64_t burst;                     /* samples */
};

struct counts {
    uint64_t syns;                      /* SYNs seen */
    uint64_t sampled;                   /* of them, matched (sent on as samples) */
};

OKO_MAP(params, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct params), 1);
OKO_MAP(bucket, OKO_MAP_ARRAY, sizeof(uint32_t), sizeof(struct oko_token_bucket), 1);
OKO_MAP(destinations, OKO_MAP_LRU_HASH, ADDRESS_LEN, sizeof(struct counts), MAX_DESTINATIONS);

/* Takes one token from the program's bucket if it has one (an array's
 * value starts zeroed: a bucket never used is full). */
OKO_INLINE int
take_token(void)
{
    uint32_t zero = 0;
    const struct params *p = oko_map_lookup(&params, &zero);
    struct oko_token_bucket *b = oko_map_lookup(&bucket, &zero);
    if (!b) {
        return 0;
    }
    uint64_t rate = p && p->rate ? p->rate : DEFAULT_RATE;
    uint64_t capacity = oko_token_bucket_capacity(p && p->burst ? p->burst : rate);
    uint64_t now = oko_time_ns();
    if (!b->last_ns) {
        b->tokens_ns = capacity;        /* never used */
    }
    return oko_token_bucket_take(b, rate, capacity, now);
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
    struct oko_cursor cur = oko_cursor(pkt, len);
    uint8_t address[ADDRESS_LEN] = { 0 };
    const uint8_t *ip;
    uint16_t type;
    uint8_t protocol;

    if (!parse_ethhdr(&cur, &type)) {
        return OKO_NO_MATCH;
    }
    /* The destination, read where each header is known to be whole. */
    if (type == ETH_P_IPV4 && (ip = parse_ipv4hdr(&cur, &protocol))) {
        address[IPV4_MAPPED_PREFIX_LEN - 2] = 0xff;
        address[IPV4_MAPPED_PREFIX_LEN - 1] = 0xff;
        for (int i = 0; i < IPV4_ADDR_LEN; i++) {
            address[IPV4_MAPPED_PREFIX_LEN + i] = ip[IPV4_DST + i];
        }
    } else if (type == ETH_P_IPV6 && (ip = parse_ipv6hdr(&cur, &protocol))) {
        for (int i = 0; i < ADDRESS_LEN; i++) {
            address[i] = ip[IPV6_DST + i];
        }
    } else {
        return OKO_NO_MATCH;
    }
    const uint8_t *tcp = parse_transport(&cur, protocol, IPPROTO_TCP);
    if (!tcp || (tcp[TCP_FLAGS] & (TCP_SYN | TCP_ACK)) != TCP_SYN) {
        return OKO_NO_MATCH;
    }
    int sampled = take_token();
    count(address, sampled);
    return sampled ? OKO_MATCH : OKO_NO_MATCH;
}
