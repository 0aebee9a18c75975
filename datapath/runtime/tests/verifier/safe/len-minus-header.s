# "len - 14 >= 20" after "len >= 14" proves 34 bytes.
mov %r0, 0
jlt %r2, 14, out
mov %r3, %r2
sub %r3, 14
jlt %r3, 20, out
ldxw %r0, [%r1+30]
out:
exit
