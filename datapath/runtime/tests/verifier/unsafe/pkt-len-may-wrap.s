# rule: packet bounds
# reject: not proven within len
# insn: 4
mov %r0, 0
mov %r3, %r2
sub %r3, 14
jgt %r3, 20, +1
ldxb %r0, [%r1+30]
exit
