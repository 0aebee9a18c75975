# rule: packet bounds
# reject: is before the packet start
# insn: 3
mov %r0, 0
jlt %r2, 14, +2
mov %r3, %r1
ldxb %r0, [%r3-1]
exit
