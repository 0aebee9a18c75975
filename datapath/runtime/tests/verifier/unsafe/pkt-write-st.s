# rule: packet writes
# reject: writes to the packet are not allowed
# insn: 2
mov %r0, 0
jlt %r2, 14, +1
stb [%r1+0], 1
exit
