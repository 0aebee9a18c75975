/* Oko filter-program ABI for filter authors.
 *
 * A filter is C compiled with `clang -O2 -target bpf -c`.  Its entry point
 * is a function in the "oko/filter" section:
 *
 *     OKO_FILTER uint64_t my_filter(const void *pkt, uint64_t len)
 *
 * r1 = pkt points at the Ethernet header (read only), r2 = len is the
 * packet length in bytes.  Return OKO_MATCH or OKO_NO_MATCH.
 *
 * This header stands alone on purpose: clang's BPF target cannot include
 * the host's <stdint.h> on Debian 12. */
#ifndef OKO_FILTER_H
#define OKO_FILTER_H 1

typedef unsigned char      uint8_t;
typedef unsigned short     uint16_t;
typedef unsigned int       uint32_t;
typedef unsigned long long uint64_t;
typedef signed char        int8_t;
typedef short              int16_t;
typedef int                int32_t;
typedef long long          int64_t;

/* Verdicts. */
#define OKO_NO_MATCH 0
#define OKO_MATCH    1

/* Section of the entry point, which the loader looks for. */
#define OKO_FILTER_SECTION "oko/filter"
#define OKO_FILTER __attribute__((section(OKO_FILTER_SECTION), used))

#endif /* oko/filter.h */
