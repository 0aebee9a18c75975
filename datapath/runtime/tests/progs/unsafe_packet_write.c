/* Verifier test: writes the packet (it is read-only). */
#include <oko/filter.h>

OKO_FILTER uint64_t
unsafe_packet_write(const void *pkt, uint64_t len)
{
    uint8_t *eth = (uint8_t *) pkt;
    if (len < 14) {
        return OKO_NO_MATCH;
    }
    eth[0] = 0xff;
    return OKO_MATCH;
}
