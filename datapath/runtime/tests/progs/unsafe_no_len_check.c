/* Verifier test: reads the EtherType without comparing len first. */
#include <oko/filter.h>

OKO_FILTER uint64_t
unsafe_no_len_check(const void *pkt, uint64_t len)
{
    const uint8_t *eth = pkt;
    (void) len;
    return eth[12] == 0x08 && eth[13] == 0x00;
}
