# rule: packet bounds
# reject: variable offset added to a packet pointer may be as large as
# insn: 4
mov %r0, 0
jlt %r2, 18, +4
ldxw %r3, [%r1+14]
mov %r4, %r1
add %r4, %r3
add %r4, %r3
exit
