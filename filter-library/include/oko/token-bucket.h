/* A token bucket kept in a map value, for filters that limit a rate: 'rate'
 * tokens a second, at most 'burst' stored.  Tokens are counted in
 * billionths (tokens x 1e9), so that a refill after any number of
 * nanoseconds stays an integer.
 *
 * The bucket is updated without a lock: two threads at the same instant may
 * both take the last token, so a limit is approximate by one token per
 * thread. */
#ifndef OKO_TOKEN_BUCKET_H
#define OKO_TOKEN_BUCKET_H 1

#include <oko/filter.h>

#define OKO_NS_PER_SEC 1000000000ULL
#define OKO_TOKEN_BUCKET_MAX_BURST 1000000  /* keeps burst x 1e9 within 64 bits */

struct oko_token_bucket {
    uint64_t tokens_ns;             /* tokens x 1e9 */
    uint64_t last_ns;               /* the last refill */
};

/* A bucket's size in billionths: 'burst' tokens, at most
 * OKO_TOKEN_BUCKET_MAX_BURST. */
OKO_INLINE uint64_t
oko_token_bucket_capacity(uint64_t burst)
{
    if (burst > OKO_TOKEN_BUCKET_MAX_BURST) {
        burst = OKO_TOKEN_BUCKET_MAX_BURST;
    }
    return burst * OKO_NS_PER_SEC;
}

/* The bucket a packet creates (a new key of a map of buckets): full, minus
 * that packet's token. */
OKO_INLINE struct oko_token_bucket
oko_token_bucket_first(uint64_t capacity, uint64_t now)
{
    return (struct oko_token_bucket) { capacity - OKO_NS_PER_SEC, now };
}

/* Refills 'b' for the time since its last refill ('rate' tokens a second,
 * up to 'capacity'), then takes one token: 1 if there was one, 0 if not
 * (over the limit).  'rate' is at least 1 and 'capacity' at least one token
 * (a burst of at least 1), so a bucket that had time to fill has one. */
OKO_INLINE int
oko_token_bucket_take(struct oko_token_bucket *b, uint64_t rate, uint64_t capacity, uint64_t now)
{
    uint64_t elapsed = now - b->last_ns;
    uint64_t tokens = b->tokens_ns;

    b->last_ns = now;
    /* Without overflowing: a full bucket needs capacity / rate ns, and below
     * that elapsed x rate < capacity. */
    if (elapsed >= capacity / rate) {
        b->tokens_ns = capacity - OKO_NS_PER_SEC;
        return 1;
    }
    tokens += elapsed * rate;
    if (tokens > capacity) {
        tokens = capacity;
    }
    if (tokens < OKO_NS_PER_SEC) {
        b->tokens_ns = tokens;
        return 0;
    }
    b->tokens_ns = tokens - OKO_NS_PER_SEC;
    return 1;
}

#endif /* oko/token-bucket.h */
