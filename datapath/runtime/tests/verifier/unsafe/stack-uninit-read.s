# rule: uninitialised stack
# reject: reads uninitialised stack at fp-8
# insn: 0
ldxdw %r0, [%r10-8]
exit
