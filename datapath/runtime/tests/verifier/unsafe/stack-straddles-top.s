# rule: stack bounds
# reject: outside the 512-byte stack
# insn: 1
mov %r0, 0
stxdw [%r10-4], %r0
exit
