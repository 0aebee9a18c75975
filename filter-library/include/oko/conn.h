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
} __attribute__((aligned(4)));

/* Fills 'key' from the IPv4 header 'ip' and the transport header 'l4'
 * (ports first), whose bounds the caller has checked.  Returns the sender's
 * side: 0 if it is the lower pair, 1 if the higher. */
OKO_INLINE uint32_t
oko_conn_key_ipv4(const uint8_t *ip, const uint8_t *l4, uint8_t protocol, struct oko_conn_key *key)
{
    /* Loaded as on the wire (one load each), compared in host order. */
    uint32_t src_raw = read_raw32(ip + IPV4_SRC), dst_raw = read_raw32(ip + IPV4_DST);
    uint16_t sport_raw = read_raw16(l4), dport_raw = read_raw16(l4 + 2);
    uint32_t src = __builtin_bswap32(src_raw), dst = __builtin_bswap32(dst_raw);
    uint16_t sport = __builtin_bswap16(sport_raw), dport = __builtin_bswap16(dport_raw);
    uint32_t side = !(src < dst || (src == dst && sport <= dport));
    /* The key is aligned: one store a field. */
    uint32_t addr_lo = side ? dst_raw : src_raw, addr_hi = side ? src_raw : dst_raw;
    uint16_t port_lo = side ? dport_raw : sport_raw, port_hi = side ? sport_raw : dport_raw;
    __builtin_memcpy(key->addr_lo, &addr_lo, sizeof addr_lo);
    __builtin_memcpy(key->addr_hi, &addr_hi, sizeof addr_hi);
    __builtin_memcpy(key->port_lo, &port_lo, sizeof port_lo);
    __builtin_memcpy(key->port_hi, &port_hi, sizeof port_hi);
    key->protocol = protocol;
    key->reserved[0] = key->reserved[1] = key->reserved[2] = 0;
    return side;
}

#endif /* oko/conn.h */
