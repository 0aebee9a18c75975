/* Calls test: functions clang keeps as functions (noinline), one of them
 * with a map lookup through a key on its caller's stack.  Counts IPv4
 * packets per IP protocol and matches protocols seen at least twice. */
#include <oko/filter.h>

#define ETH_HLEN 14
#define ETH_P_IP 0x0800
#define IP_PROTO_OFFSET (ETH_HLEN + 9)

OKO_MAP(packets_per_proto, OKO_MAP_HASH, sizeof(uint32_t), sizeof(uint64_t), 256);

static __attribute__((noinline)) int
is_ipv4(const uint8_t *p, uint64_t len)
{
    return len >= IP_PROTO_OFFSET + 1 && p[12] == (ETH_P_IP >> 8) && p[13] == (ETH_P_IP & 0xff);
}

/* Adds one to the count of '*proto'; returns the new count. */
static __attribute__((noinline)) uint64_t
count(const uint32_t *proto)
{
    uint64_t *n = oko_map_lookup(&packets_per_proto, proto);
    if (n) {
        return __sync_add_and_fetch(n, 1);
    }
    uint64_t one = 1;
    oko_map_update(&packets_per_proto, proto, &one, OKO_UPDATE_NOEXIST);
    return 1;
}

OKO_FILTER uint64_t
functions(const void *pkt, uint64_t len)
{
    const uint8_t *p = pkt;
    if (!is_ipv4(p, len)) {
        return OKO_NO_MATCH;
    }
    uint32_t proto = p[IP_PROTO_OFFSET];
    return count(&proto) >= 2 ? OKO_MATCH : OKO_NO_MATCH;
}
