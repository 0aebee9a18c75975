# rule: unused fields are 0 (encoding)
# reject: neg has one operand: src and imm must be 0
# insn: 1
# neg (0x87) with imm 5: the engines ignore the imm, so the program means
# something the verifier cannot know it means (the Linux verifier and
# PREVAIL refuse it too; found by the second opinion on generated programs).
mov %r0, 7
.insn 0x87 0 0 0 5
exit
