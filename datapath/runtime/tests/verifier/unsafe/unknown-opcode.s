# rule: unknown opcode
# reject: unknown opcode 0xff
# insn: 1
mov %r0, 0
.insn 0xff 0 0 0 0
exit
