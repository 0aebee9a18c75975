# rule: unknown opcode
# reject: unknown atomic operation
# insn: 2
mov %r0, 0
stxdw [%r10-8], %r0
.insn 0xdb 10 0 -8 0x10
exit
