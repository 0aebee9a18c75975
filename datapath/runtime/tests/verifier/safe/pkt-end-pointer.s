# XDP-style bounds: compare pointers with packet + len; variable IHL.
mov %r0, 0
mov %r3, %r1
add %r3, %r2            # r3 = packet end
mov %r4, %r1
add %r4, 15
jgt %r4, %r3, out       # need 15 bytes
ldxb %r5, [%r1+14]
and %r5, 15
lsh %r5, 2              # IHL * 4 in [0, 60]
mov %r6, %r1
add %r6, 14
add %r6, %r5            # transport header
mov %r7, %r6
add %r7, 4
jgt %r7, %r3, out       # need 4 bytes there
ldxh %r0, [%r6+2]       # destination port
out:
exit
