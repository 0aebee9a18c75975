# rule: unknown opcode
# reject: unknown opcode 0xe7
# insn: 0
.insn 0xe7 0 0 0 1
exit
