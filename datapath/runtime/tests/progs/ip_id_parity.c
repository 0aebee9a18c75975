/* Folding test: matches IPv4 packets whose identification field is odd.
 * No flow field holds that field (and the IPv4 header's place depends on
 * the framing), so it must never be folded: it runs on every packet. */
#include <oko/filter.h>

#define ETH_HLEN 14
#define IP_MIN_HLEN 20
#define IP_ID_OFFSET (ETH_HLEN + 4)

OKO_FILTER uint64_t
ip_id_parity(const void *pkt, uint64_t len)
{
    const uint8_t *id = (const uint8_t *) pkt + IP_ID_OFFSET;

    if (len < ETH_HLEN + IP_MIN_HLEN) {
        return OKO_NO_MATCH;
    }
    return id[1] & 1 ? OKO_MATCH : OKO_NO_MATCH;
}
