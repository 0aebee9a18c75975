# rule: pointer comparisons stay at or above the object's start
# reject: comparing the packet end moved down by 536870896 bytes is not allowed
# insn: 4
# what: learn_pkt_range() decides "pkt + o <= end + e" impossible when o - e > len_max, treating
#   pointer comparisons as comparisons of mathematical integers. end + e may be moved down by up
#   to 2^29-1 (alu_pointer allows |off| < 2^29 on T_PKT_END); if the packet buffer sits below
#   2^29 (512 MiB: brk heap of a non-PIE ovs-vswitchd, a low mmap), end + e wraps to ~2^64 and
#   the "impossible" branch is taken at run time, running code the verifier never explored
#   (here an 8-byte read before the packet; anything goes there). Same class as the fixed
#   "pointer outside its object compared with 0" (doc: "pkt - 0x10000000 is 0 if the packet
#   sits at that address").
# evidence: drv.c (checked execution) with the packet mmapped at 0x10000000:
#   "CHECKED TRAP: insn 6: runs an instruction the verifier never explored" (heap packet: r0=0).
mov %r3, %r1
add %r3, %r2
add %r3, -0x1ffffff0
mov %r0, 0
jle %r1, %r3, bad
exit
bad:
ldxdw %r0, [%r1-8]
exit
