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
#define ETH_P_8021Q     0x8100  /* VLAN tag (customer) */
#define ETH_P_8021AD    0x88a8  /* VLAN tag (service, "QinQ" outer) */
#define VLAN_HLEN       4       /* TCI, then the inner EtherType */

#define IPV4_MIN_HLEN   20
#define IPV4_MAX_HLEN   60
#define IPV4_TOS        1       /* offsets within the IPv4 header */
#define IPV4_ID         4
#define IPV4_FRAG       6       /* flags (3 bits) and fragment offset (13) */
#define IPV4_TTL        8
#define IPV4_PROTOCOL   9
#define IPV4_SRC        12
#define IPV4_DST        16
#define IPV4_FLAG_RESERVED 0x8000 /* "must be zero" */
#define IPV4_FLAG_DF    0x4000
#define IPV4_FLAG_MF    0x2000
#define IPV4_FRAG_OFFSET_MASK 0x1fff
#define IP_ECN_MASK     0x03    /* low bits of the TOS / traffic class */

#define IPV6_HLEN       40
#define IPV6_NEXT_HEADER 6      /* offsets within the IPv6 header */
#define IPV6_HOP_LIMIT  7
#define IPV6_SRC        8
#define IPV6_DST        24

#define IPPROTO_ICMP    1
#define IPPROTO_TCP     6
#define IPPROTO_UDP     17

#define TCP_MIN_HLEN    20
#define TCP_SRC_PORT    0       /* offsets within the TCP header */
#define TCP_DST_PORT    2
#define TCP_SEQ         4
#define TCP_ACK_SEQ     8
#define TCP_DATA_OFFSET 12      /* high nibble: header length in 32-bit words */
#define TCP_FLAGS       13
#define TCP_WINDOW      14
#define TCP_URGENT_PTR  18
#define TCP_FIN         0x01
#define TCP_SYN         0x02
#define TCP_RST         0x04
#define TCP_PSH         0x08
#define TCP_ACK         0x10
#define TCP_URG         0x20
#define TCP_ECE         0x40
#define TCP_CWR         0x80
#define TCP_MAX_OPTIONS_LEN 40

#define TCPOPT_EOL      0       /* TCP option kinds */
#define TCPOPT_NOP      1
#define TCPOPT_MSS      2
#define TCPOPT_WS       3
#define TCPOPT_SACK_OK  4
#define TCPOPT_TIMESTAMP 8

#define UDP_HLEN        8
#define UDP_SRC_PORT    0
#define UDP_DST_PORT    2

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

/* Skips the Ethernet header and at most one VLAN tag (802.1Q or 802.1ad).
 * Returns the offset of the layer-3 header and stores its EtherType in
 * '*type', or returns 0 if the frame ends first. */
static inline uint32_t
parse_ethernet(const uint8_t *eth, const uint8_t *end, uint16_t *type)
{
    if (eth + ETH_HLEN > end) {
        return 0;
    }
    uint16_t outer = read_be16(eth + ETH_TYPE_OFFSET);
    if (outer != ETH_P_8021Q && outer != ETH_P_8021AD) {
        *type = outer;
        return ETH_HLEN;
    }
    if (eth + ETH_HLEN + VLAN_HLEN > end) {
        return 0;
    }
    *type = read_be16(eth + ETH_TYPE_OFFSET + VLAN_HLEN);
    return ETH_HLEN + VLAN_HLEN;
}

#endif /* oko/net.h */
