# rule: pointer leak
# reject: reads part of a pointer spilled at fp-8 as a number
# insn: 1
stxdw [%r10-8], %r1
ldxw %r0, [%r10-8]
exit
