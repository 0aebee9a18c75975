# rule: pointer comparisons stay at or above the object's start
# reject: comparing a packet pointer that may lie before its object's start (offset -268435456)
# insn: 3
# pkt - 2^28 wraps to near 2^64 if the packet sits below 2^28, so "pkt - 2^28 < pkt" is false
# exactly then: r0 would tell the controller where the packet buffer is in memory.
mov %r3, %r1
add %r3, -0x10000000
mov %r0, 1
jlt %r3, %r1, out
mov %r0, 0
out:
exit
