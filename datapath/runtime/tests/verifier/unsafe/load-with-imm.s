# rule: unused fields are 0 (encoding)
# reject: a load does not use imm; it must be 0
# insn: 2
# ldxdw r0, [r10-8] (0x79) with imm 99 (second audit, finding 03).
mov %r0, 0
stxdw [%r10-8], %r0
.insn 0x79 0 10 -8 99
exit
