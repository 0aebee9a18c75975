# Differences of pointers into one object are numbers the verifier knows
# exactly: (pkt + ihl) - pkt is ihl (0..60), a value pointer minus itself
# plus 4 is 4, and the packet end minus a pointer is the bytes left.
.map table array 4 8 2
mov %r0, 0
jlt %r2, 15, +22
ldxb %r4, [%r1+14]
and %r4, 15
lsh %r4, 2
mov %r5, %r1
add %r5, %r4
sub %r5, %r1
mov %r6, %r10
add %r6, -64
add %r6, %r5
stb [%r6+0], 1
stw [%r10-68], 0
mov %r2, %r10
add %r2, -68
lddw %r1, map table
call 1
jeq %r0, 0, +4
mov %r7, %r0
add %r7, 4
sub %r7, %r0
stxw [%r0+4], %r7
mov %r0, 1
exit
