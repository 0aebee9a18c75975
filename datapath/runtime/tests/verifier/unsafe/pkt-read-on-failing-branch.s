# rule: packet bounds
# reject: not proven within len
# insn: 1
jge %r2, 14, +2
ldxh %r0, [%r1+12]
exit
mov %r0, 0
exit
