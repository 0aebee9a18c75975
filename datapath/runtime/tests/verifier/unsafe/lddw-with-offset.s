# rule: unused fields are 0 (encoding)
# reject: lddw does not use its offset; it must be 0
# insn: 0
# lddw r0, 1 (0x18) with off 5 in its first half (second audit, finding 03).
.insn 0x18 0 0 5 1
.insn 0x00 0 0 0 0
exit
