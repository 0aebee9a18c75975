/* Protocol header layouts and constants for filters (network byte order
 * on the wire; helpers below read big-endian fields byte by byte, which
 * the verifier and every host agree on). */
#ifndef OKO_NET_H
#define OKO_NET_H 1

#include <oko/filter.h>

#define ETH_HLEN        14      /* destination, source, EtherType */
#define ETH_TYPE_OFFSET 12
#define ETH_P_IPV4      0x0800
#define ETH_P_IPV6      0x86dd
#define ETH_P_ARP       0x0806

#define IPV4_MIN_HLEN   20
#define IPV4_MAX_HLEN   60
#define IPV4_TTL        8       /* offsets within the IPv4 header */
#define IPV4_PROTOCOL   9
#define IPV4_SRC        12
#define IPV4_DST        16
#define IPPROTO_ICMP    1
#define IPPROTO_TCP     6
#define IPPROTO_UDP     17

#define TCP_MIN_HLEN    20
#define TCP_SRC_PORT    0       /* offsets within the TCP header */
#define TCP_DST_PORT    2
#define TCP_DATA_OFFSET 12      /* high nibble: header length in 32-bit words */
#define TCP_FLAGS       13
#define TCP_WINDOW      14
#define TCP_FIN         0x01
#define TCP_SYN         0x02
#define TCP_RST         0x04
#define TCP_ACK         0x10
#define TCP_MAX_OPTIONS_LEN 40

#define UDP_HLEN        8

static inline uint16_t
read_be16(const uint8_t *p)
{
    return (uint16_t) (p[0] << 8 | p[1]);
}

static inline uint32_t
read_be32(const uint8_t *p)
{
    return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
}

#endif /* oko/net.h */
