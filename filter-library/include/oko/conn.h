/* A connection's key for filters that track TCP (or UDP) conversations:
 * both directions map to one key, the (address, port) pair that compares
 * lower first.  Addresses and ports are stored as on the wire, so that the
 * catalog describes them as ipv4 / be16. */
#ifndef OKO_CONN_H
#define OKO_CONN_H 1

#include <oko/net.h>

struct oko_conn_key {
    uint8_t addr_lo[4];             /* network order */
    uint8_t addr_hi[4];
    uint8_t port_lo[2];
    uint8_t port_hi[2];
    uint8_t protocol;
    uint8_t reserved[3];
};

/* Fills 'key' from the IPv4 header 'ip' and the transport header 'l4'
 * (ports first), whose bounds the caller has checked.  Returns the sender's
 * side: 0 if it is the lower pair, 1 if the higher. */
OKO_INLINE uint32_t
oko_conn_key_ipv4(const uint8_t *ip, const uint8_t *l4, uint8_t protocol, struct oko_conn_key *key)
{
    uint32_t src = read_be32(ip + IPV4_SRC), dst = read_be32(ip + IPV4_DST);
    uint16_t sport = read_be16(l4), dport = read_be16(l4 + 2);
    uint32_t side = !(src < dst || (src == dst && sport <= dport));
    const uint8_t *lo_addr = side ? ip + IPV4_DST : ip + IPV4_SRC;
    const uint8_t *hi_addr = side ? ip + IPV4_SRC : ip + IPV4_DST;
    const uint8_t *lo_port = side ? l4 + 2 : l4;
    const uint8_t *hi_port = side ? l4 : l4 + 2;
    *key = (struct oko_conn_key) {
        { lo_addr[0], lo_addr[1], lo_addr[2], lo_addr[3] },
        { hi_addr[0], hi_addr[1], hi_addr[2], hi_addr[3] },
        { lo_port[0], lo_port[1] },
        { hi_port[0], hi_port[1] },
        protocol, { 0, 0, 0 },
    };
    return side;
}

#endif /* oko/conn.h */
