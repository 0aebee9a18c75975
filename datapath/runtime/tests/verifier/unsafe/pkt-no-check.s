# rule: packet bounds
# reject: packet read of 2 bytes at offset 12 is not proven within len
# insn: 0
ldxh %r0, [%r1+12]
exit
