/* Interpreter test: matches TCP packets to 10.0.0.1:80 (Ethernet + IPv4). */
#include <oko/filter.h>

#define ETH_HLEN 14
#define ETH_P_IP 0x0800
#define IPPROTO_TCP 6
#define IP_MIN_HLEN 20
#define TCP_MIN_HLEN 20

static inline uint16_t
be16(const uint8_t *p)
{
    return (uint16_t) (p[0] << 8 | p[1]);
}

OKO_FILTER uint64_t
http_to_10_0_0_1(const void *pkt, uint64_t len)
{
    const uint8_t *eth = pkt;

    if (len < ETH_HLEN + IP_MIN_HLEN) {
        return OKO_NO_MATCH;
    }
    if (be16(eth + 12) != ETH_P_IP) {
        return OKO_NO_MATCH;
    }
    const uint8_t *ip = eth + ETH_HLEN;
    uint64_t ihl = (ip[0] & 0x0f) * 4;
    if (ihl < IP_MIN_HLEN || ip[9] != IPPROTO_TCP) {
        return OKO_NO_MATCH;
    }
    if (ip[16] != 10 || ip[17] != 0 || ip[18] != 0 || ip[19] != 1) {
        return OKO_NO_MATCH;
    }
    if (len < ETH_HLEN + ihl + TCP_MIN_HLEN) {
        return OKO_NO_MATCH;
    }
    const uint8_t *tcp = ip + ihl;
    return be16(tcp + 2) == 80 ? OKO_MATCH : OKO_NO_MATCH;
}
