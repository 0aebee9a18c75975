# rule: pointer arithmetic (class 1: packet pointer minus the packet end)
# reject: subtracting the packet end pointer from a packet pointer is not allowed
# insn: 4
# pkt - (pkt + len) is -len, a huge unsigned number; an older verifier called
# it [0, 65535], so "pkt + it" read len bytes before the packet.
mov %r0, 0
mov %r3, %r1
add %r3, %r2
mov %r4, %r1
sub %r4, %r3
mov %r5, %r1
add %r5, %r4
mov %r6, %r5
add %r6, 1
jgt %r6, %r3, +1
ldxb %r0, [%r5+0]
exit
