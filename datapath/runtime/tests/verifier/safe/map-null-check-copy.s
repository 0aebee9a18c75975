# The NULL check on one copy of a lookup's result covers the others.
.map flows hash 4 8 16
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map flows
call 1
mov %r6, %r0
mov %r0, 0
jeq %r6, 0, out
mov %r1, 1
lock add [%r6+0], %r1
ldxdw %r0, [%r6+0]
out:
exit
