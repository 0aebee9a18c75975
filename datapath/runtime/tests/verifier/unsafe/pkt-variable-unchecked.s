# rule: packet bounds
# reject: at a variable offset
# insn: 7
mov %r0, 0
jlt %r2, 15, +6
ldxb %r3, [%r1+14]
and %r3, 15
lsh %r3, 2
mov %r4, %r1
add %r4, %r3
ldxb %r0, [%r4+14]
exit
