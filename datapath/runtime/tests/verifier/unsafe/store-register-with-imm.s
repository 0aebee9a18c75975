# rule: unused fields are 0 (encoding)
# reject: a store from a register does not use imm; it must be 0
# insn: 1
# stxdw [r10-16], r1 (0x7b) with imm 77 (second audit, finding 03).
mov %r0, 0
.insn 0x7b 10 1 -16 77
exit
