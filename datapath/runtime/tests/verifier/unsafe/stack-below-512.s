# rule: stack bounds
# reject: outside the 512-byte stack
# insn: 0
stdw [%r10-520], 1
mov %r0, 0
exit
