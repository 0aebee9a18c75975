# rule: packet bounds
# reject: packet read of 4 bytes at offset 12 is not proven within len (only 14 bytes are
# insn: 2
mov %r0, 0
jlt %r2, 14, +1
ldxw %r0, [%r1+12]
exit
