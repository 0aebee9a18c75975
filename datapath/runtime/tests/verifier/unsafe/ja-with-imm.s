# rule: unused fields are 0 (encoding)
# reject: ja uses only its offset; the other fields must be 0
# insn: 1
# ja +0 (0x05) with imm 5: the jump ignores it.
mov %r0, 0
.insn 0x05 0 0 0 5
exit
