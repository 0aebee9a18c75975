# rule: packet bounds
# reject: not proven within len
# insn: 6
mov %r0, 0
mov %r3, %r1
add %r3, %r2
mov %r4, %r1
add %r4, 14
jle %r4, %r3, +1
ldxh %r0, [%r1+12]
exit
