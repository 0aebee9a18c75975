# rule: pointer comparisons stay at or above the object's start
# reject: testing bits of a packet pointer (jset) is not allowed
# insn: 3
# FINDING 02: jset between two pointers into one object tests address bits (address info reaches r0)
# rule: 5 (two pointers compare as their offsets do) / promise: no information about where
#   objects are in memory reaches r0
# what: narrow_pointers() lets any relation between two pointers of one object through
#   ("return 1": both branches feasible), including R_SET/R_NSET. jset computes
#   (a & b) != 0 on the ADDRESSES, which is not a function of the offsets: with
#   r3 = pkt + 0x10000000, "jset r1, r3" is false exactly when pkt and pkt + 2^28 share no set
#   bit, e.g. a packet at 0x10000000 (the same low-mapping placement the fixed
#   pkt-below-start-compared / pkt-end-moved-down-wraps cases rely on), true for a heap packet.
#   The same works for pkt vs pkt_end, stack vs stack, map value vs same map value.
#   Memory safety holds (both branches explored); the leak is the branch outcome.
# evidence: oko-filter verify: "jset.s: accepted: 6 instructions ... 7 instructions explored"
#   drv (checked execution), same 4-byte packet:
#     heap packet  (pkt at 0x6020000000f0): r0 = 1
#     LOWPKT=0x10000000 (pkt at 0x10000000): r0 = 0
# fix idea: refuse jset/jnset (and anything but eq/ne/ordered relations) between pointers.
mov %r3, %r1
add %r3, 0x10000000
mov %r0, 1
jset %r1, %r3, +1
mov %r0, 0
exit
