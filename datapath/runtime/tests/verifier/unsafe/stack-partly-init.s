# rule: uninitialised stack
# reject: reads uninitialised stack at fp-4
# insn: 1
stw [%r10-8], 0
ldxdw %r0, [%r10-8]
exit
