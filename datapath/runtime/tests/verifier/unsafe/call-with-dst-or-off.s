# rule: unused fields are 0 (encoding)
# reject: a call uses only imm (the helper); dst and off must be 0
# insn: 0
# call 6 (0x85) with dst 5 and off 3 (second audit, finding 03).
.insn 0x85 5 0 3 6
mov %r0, 0
exit
