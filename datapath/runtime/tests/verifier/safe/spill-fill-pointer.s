# Pointers and the length survive a trip through the stack.
stxdw [%r10-8], %r1
stxdw [%r10-16], %r2
mov %r1, 0
mov %r2, 0
ldxdw %r3, [%r10-16]
ldxdw %r4, [%r10-8]
mov %r0, 0
jlt %r3, 14, +1
ldxh %r0, [%r4+12]
exit
