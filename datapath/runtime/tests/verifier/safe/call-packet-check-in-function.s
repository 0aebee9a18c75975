# The bounds check is in a function: its proof is used where it is made, and
# the caller's r6 (the packet) survives the call.
mov %r6, %r1
call local ethertype_is_ipv4
jne %r0, 1, +2
ldxb %r0, [%r6+0]
exit
mov %r0, 0
exit
ethertype_is_ipv4:
mov %r0, 0
jlt %r2, 14, +4
ldxh %r3, [%r1+12]
jne %r3, 8, +2
mov %r0, 1
exit
exit
