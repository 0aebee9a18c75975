# rule: packet bounds
# reject: packet read of 1 bytes at offset 34 is not proven within len (only 34 bytes are
# insn: 2
mov %r0, 0
jle %r2, 33, +1
ldxb %r0, [%r1+34]
exit
