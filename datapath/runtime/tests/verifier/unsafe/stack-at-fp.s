# rule: stack bounds
# reject: outside the 512-byte stack
# insn: 0
stw [%r10+0], 1
mov %r0, 0
exit
