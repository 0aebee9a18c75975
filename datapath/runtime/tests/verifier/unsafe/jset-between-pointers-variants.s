# rule: pointer comparisons stay at or above the object's start
# reject: testing bits of a packet pointer (jset) is not allowed
# insn: 7
# variant of 02: jset pkt vs pkt_end (r1 & (r1+len)) and stack vs stack; accepted (17 explored)
# jset between the packet end and a packet pointer, and between two stack pointers: also accepted
mov %r3, %r1
add %r3, %r2
mov %r4, %r10
add %r4, -8
mov %r5, %r10
add %r5, 0x10000000
mov %r0, 0
jset %r1, %r3, +1
add %r0, 1
jset %r4, %r5, +1
add %r0, 2
exit
