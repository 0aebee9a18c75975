# rule: unused fields are 0 (encoding)
# reject: a store of an immediate does not use src; it must be 0
# insn: 0
# stdw [r10-8], 5 (0x7a) with src r3 (second audit, finding 03).
.insn 0x7a 10 3 -8 5
mov %r0, 0
exit
