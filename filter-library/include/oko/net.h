/* Protocol header layouts and constants for filters (network byte order
 * on the wire; helpers below read big-endian fields byte by byte, which
 * the verifier and every host agree on). */
#ifndef OKO_NET_H
#define OKO_NET_H 1

#include <oko/filter.h>

#ifndef NULL
#define NULL ((void *) 0)
#endif

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
#define IPV4_TOTAL_LEN  2
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

#define TCPOLEN_MSS     4       /* TCP option lengths (RFC 9293, 7323, 2018) */
#define TCPOLEN_WS      3
#define TCPOLEN_SACK_OK 2
#define TCPOLEN_TIMESTAMP 10

#define UDP_HLEN        8
#define UDP_SRC_PORT    0
#define UDP_DST_PORT    2

/* Fields read in one load.  clang splits a load it cannot prove aligned
 * into single bytes (a 16-bit field: two loads, a shift, an or and a mask);
 * packet and map reads need no alignment in Oko (the verifier has no
 * alignment rule for them, the interpreter reads with memcpy and x86 reads
 * unaligned), so these tell clang the field is aligned: one load and, for
 * host order, one byte swap.  may_alias: a packet is bytes. */
typedef uint16_t __attribute__((may_alias)) oko_wire16;
typedef uint32_t __attribute__((may_alias)) oko_wire32;

/* Two bytes as they are, in one load (network order kept). */
static inline uint16_t
read_raw16(const uint8_t *p)
{
    return *(const oko_wire16 *) p;
}

static inline uint16_t
read_be16(const uint8_t *p)
{
    return __builtin_bswap16(read_raw16(p));
}

/* Byte by byte on purpose: with one load here, dapper's code changes
 * enough that the verifier no longer prunes its paths and it runs over the
 * verifier's budget (states compare dead stack slots: see "What a
 * verification costs" in docs/filter-programs.md). */
static inline uint32_t
read_be32(const uint8_t *p)
{
    return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
}

/* Four bytes as they are, in one load: an IPv4 address for a map key
 * (network order kept, as the controller writes keys). */
static inline uint32_t
read_raw32(const uint8_t *p)
{
    return *(const oko_wire32 *) p;
}

/* The same into a key's byte array: one load, and one store where the
 * array's place is aligned (a member at a multiple of 4 in its struct). */
static inline void
copy4(uint8_t dst[4], const uint8_t *src)
{
    uint32_t v = read_raw32(src);
    __builtin_memcpy(dst, &v, sizeof v);
}

/* Parsing, one function a header (in the style of xdp-tutorial's
 * parsing_helpers.h): a cursor holds where the next header starts and where
 * the packet ends; each parse_*() checks that its header is whole in the
 * packet, moves the cursor past it and returns it, or returns NULL (the
 * packet ends first: the filter answers no match).  The bounds checks are
 * the ones the verifier needs, so a filter that reads no further than the
 * headers it parsed needs none of its own. */
struct oko_cursor {
    const uint8_t *pos;             /* the next header */
    const uint8_t *end;             /* one past the packet's last byte */
};

/* A cursor at the start of the packet a filter got. */
OKO_INLINE struct oko_cursor
oko_cursor(const void *pkt, uint64_t len)
{
    return (struct oko_cursor) { pkt, (const uint8_t *) pkt + len };
}

/* The next 'len' bytes, whole in the packet: returns them and moves the
 * cursor past them, or returns NULL.  The one bounds check the parsers of
 * fixed-size headers share. */
OKO_INLINE const uint8_t *
oko_cursor_take(struct oko_cursor *c, uint32_t len)
{
    const uint8_t *p = c->pos;
    if (p + len > c->end) {
        return NULL;
    }
    c->pos = p + len;
    return p;
}

/* The Ethernet header and at most one VLAN tag (802.1Q or 802.1ad), with
 * at least 'next_len' bytes after them (the next header's fixed part):
 * stores the EtherType that follows them in '*type'.  The next header is
 * checked with the Ethernet header's own bounds check, one check instead of
 * two on an untagged packet; its parser need not check it again. */
OKO_INLINE const uint8_t *
parse_ethhdr_and(struct oko_cursor *c, uint16_t *type, uint32_t next_len)
{
    const uint8_t *eth = c->pos;
    if (eth + ETH_HLEN + next_len > c->end) {
        return NULL;
    }
    uint32_t hlen = ETH_HLEN;
    /* Compared as on the wire, swapped once: the constants swap for free. */
    uint16_t wire = read_raw16(eth + ETH_TYPE_OFFSET);
    if (wire == __builtin_bswap16(ETH_P_8021Q) || wire == __builtin_bswap16(ETH_P_8021AD)) {
        if (eth + ETH_HLEN + VLAN_HLEN + next_len > c->end) {
            return NULL;
        }
        wire = read_raw16(eth + ETH_TYPE_OFFSET + VLAN_HLEN);
        hlen = ETH_HLEN + VLAN_HLEN;
    }
    uint16_t ethertype = __builtin_bswap16(wire);
    /* One addition after the join (not a pointer per branch): the paths
     * with and without a tag then differ in a number, not in where every
     * later pointer points, which keeps the verifier's pruning effective. */
    *type = ethertype;
    c->pos = eth + hlen;
    return eth;
}

/* The Ethernet header and at most one VLAN tag: stores the EtherType that
 * follows them in '*type'. */
OKO_INLINE const uint8_t *
parse_ethhdr(struct oko_cursor *c, uint16_t *type)
{
    return parse_ethhdr_and(c, type, 0);
}

/* What '*protocol' says when no transport header follows an IP header: a
 * later IPv4 fragment (its first bytes are payload, not ports) or an IPv4
 * header length below the minimum.  IPv6 names "no next header" so. */
#define OKO_IPPROTO_NONE 59

/* An IPv4 header's length with its options, from its IHL field. */
OKO_INLINE uint32_t
ipv4_hlen(const uint8_t *ip)
{
    return (ip[0] & 0x0f) * 4;
}

/* True for an IPv4 fragment after the first: its first bytes are payload,
 * not a transport header. */
OKO_INLINE int
ipv4_is_later_fragment(const uint8_t *ip)
{
    return (read_be16(ip + IPV4_FRAG) & IPV4_FRAG_OFFSET_MASK) != 0;
}

/* The IPv4 header at the cursor, whose fixed 20 bytes the caller found
 * whole (parse_ethhdr_and()): stores the transport protocol in '*protocol',
 * OKO_IPPROTO_NONE when no transport header follows, and moves the cursor
 * past the options (which are not checked: a filter that reads them checks
 * them).  Filters that look at addresses only take every packet whose fixed
 * header is there, fragments and all. */
OKO_INLINE const uint8_t *
ipv4hdr_at(struct oko_cursor *c, uint8_t *protocol)
{
    const uint8_t *ip = c->pos;
    uint32_t ihl = ipv4_hlen(ip);
    *protocol = ip[IPV4_PROTOCOL];
    if (ihl < IPV4_MIN_HLEN || ipv4_is_later_fragment(ip)) {
        *protocol = OKO_IPPROTO_NONE;
    }
    c->pos = ip + ihl;
    return ip;
}

/* An IPv4 header, whole up to its fixed 20 bytes, as ipv4hdr_at() reads
 * it. */
OKO_INLINE const uint8_t *
parse_ipv4hdr(struct oko_cursor *c, uint8_t *protocol)
{
    if (c->pos + IPV4_MIN_HLEN > c->end) {
        return NULL;
    }
    return ipv4hdr_at(c, protocol);
}

/* An IPv6 header: its next header in '*protocol' (extension headers are not
 * walked: a filter that wants TCP or UDP after one sees another number). */
OKO_INLINE const uint8_t *
parse_ipv6hdr(struct oko_cursor *c, uint8_t *protocol)
{
    const uint8_t *ip = oko_cursor_take(c, IPV6_HLEN);
    if (ip) {
        *protocol = ip[IPV6_NEXT_HEADER];
    }
    return ip;
}

/* The IP header the EtherType 'type' names (IPv4 or IPv6, as above); NULL
 * for any other EtherType. */
OKO_INLINE const uint8_t *
parse_iphdr(struct oko_cursor *c, uint16_t type, uint8_t *protocol)
{
    if (type == ETH_P_IPV4) {
        return parse_ipv4hdr(c, protocol);
    }
    if (type == ETH_P_IPV6) {
        return parse_ipv6hdr(c, protocol);
    }
    return NULL;
}

/* The fixed 20 bytes of a TCP header; the cursor moves to the options (the
 * data offset is not checked: a filter that reads options checks it with
 * tcp_hlen()). */
OKO_INLINE const uint8_t *
parse_tcphdr(struct oko_cursor *c)
{
    return oko_cursor_take(c, TCP_MIN_HLEN);
}

/* A TCP header's length with its options, from its data offset. */
OKO_INLINE uint32_t
tcp_hlen(const uint8_t *tcp)
{
    return (tcp[TCP_DATA_OFFSET] >> 4) * 4;
}

/* A UDP header. */
OKO_INLINE const uint8_t *
parse_udphdr(struct oko_cursor *c)
{
    return oko_cursor_take(c, UDP_HLEN);
}

/* The transport header 'wanted' (IPPROTO_TCP or IPPROTO_UDP) if 'protocol'
 * says it follows. */
OKO_INLINE const uint8_t *
parse_transport(struct oko_cursor *c, uint8_t protocol, uint8_t wanted)
{
    if (protocol != wanted) {
        return NULL;
    }
    return wanted == IPPROTO_TCP ? parse_tcphdr(c) : parse_udphdr(c);
}

/* The common walks.  Ethernet (one VLAN tag), IPv4 or IPv6, then the
 * transport header 'wanted' (IPPROTO_TCP or IPPROTO_UDP): returns it, with
 * the IP header in '*ip' and its EtherType in '*type'; NULL if the packet is
 * not that protocol over IP (a later IPv4 fragment is not) or ends first. */
OKO_INLINE const uint8_t *
parse_to_transport(struct oko_cursor *c, uint8_t wanted, uint16_t *type, const uint8_t **ip)
{
    uint8_t protocol;
    if (!parse_ethhdr(c, type)) {
        return NULL;
    }
    *ip = parse_iphdr(c, *type, &protocol);
    return *ip ? parse_transport(c, protocol, wanted) : NULL;
}

/* Ethernet (one VLAN tag) and IPv4: returns the IPv4 header, its protocol
 * in '*protocol' as parse_ipv4hdr() gives it. */
OKO_INLINE const uint8_t *
parse_to_ipv4(struct oko_cursor *c, uint8_t *protocol)
{
    uint16_t type;
    if (!parse_ethhdr_and(c, &type, IPV4_MIN_HLEN) || type != ETH_P_IPV4) {
        return NULL;
    }
    return ipv4hdr_at(c, protocol);
}

/* parse_to_transport() for IPv4 only. */
OKO_INLINE const uint8_t *
parse_ipv4_to_transport(struct oko_cursor *c, uint8_t wanted, const uint8_t **ip)
{
    uint8_t protocol;
    *ip = parse_to_ipv4(c, &protocol);
    return *ip ? parse_transport(c, protocol, wanted) : NULL;
}

#endif /* oko/net.h */
