# rule: unused fields are 0 (encoding)
# reject: the imm field must be 0 when the source is a register
# insn: 1
# jeq r0, r0 (0x1d) with imm 3: an operand the comparison does not read.
mov %r0, 0
.insn 0x1d 0 0 1 3
mov %r0, 1
exit
