# rule: packet writes
# reject: writes to the packet are not allowed
# insn: 3
mov %r0, 0
jlt %r2, 14, +2
mov %r3, %r1
stxw [%r3+4], %r0
exit
