# rule: unused fields are 0 (encoding)
# reject: the src field must be 0 when the source is an immediate
# insn: 1
# add r0, 1 (0x07) with src = r1: an operand the operation does not read.
mov %r0, 7
.insn 0x07 0 1 0 1
exit
