# "x + (-20)" on a number known to be at least 20 stays bounded (the range
# wraps at both ends alike), so it can index the packet.
jlt %r2, 80, out
mov %r3, %r1
add %r3, 14
ldxb %r4, [%r3+0]
and %r4, 15
lsh %r4, 2
jlt %r4, 20, out
add %r4, -20
mov %r5, %r4
lsh %r5, 32
rsh %r5, 32
mov %r6, %r1
add %r6, %r5
ldxb %r0, [%r6+34]
out:
mov %r0, 0
exit
