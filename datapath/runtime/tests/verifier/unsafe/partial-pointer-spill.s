# rule: pointer leak
# reject: a pointer can only be spilled whole
# insn: 0
stxw [%r10-8], %r1
mov %r0, 0
exit
