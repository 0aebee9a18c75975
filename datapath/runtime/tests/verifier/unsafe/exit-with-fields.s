# rule: unused fields are 0 (encoding)
# reject: exit uses no field; dst, src, off and imm must be 0
# insn: 1
# exit (0x95) with dst 3, src 4, off 7, imm 9: fields exit does not read (second audit, finding 03).
mov %r0, 0
.insn 0x95 3 4 7 9
