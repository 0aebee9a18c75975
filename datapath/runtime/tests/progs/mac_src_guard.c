/* Folding test: matches frames from one Ethernet source address.  It
 * reads only bytes 6-11 and compares the length with the Ethernet header's,
 * so a switch may decide it once per cached flow (oko-fold.h). */
#include <oko/filter.h>

#define ETH_ALEN 6
#define ETH_HLEN 14
#define ETH_SOURCE_OFFSET 6

static const uint8_t guarded_source[ETH_ALEN] = {
    0x50, 0x54, 0x00, 0x00, 0x00, 0x05
};

OKO_FILTER uint64_t
mac_src_guard(const void *pkt, uint64_t len)
{
    const uint8_t *source = (const uint8_t *) pkt + ETH_SOURCE_OFFSET;

    if (len < ETH_HLEN) {
        return OKO_NO_MATCH;
    }
    for (int i = 0; i < ETH_ALEN; i++) {
        if (source[i] != guarded_source[i]) {
            return OKO_NO_MATCH;
        }
    }
    return OKO_MATCH;
}
