# rule: uninitialised stack
# reject: reads uninitialised stack at fp-16
# insn: 3
jgt %r2, 100, +1
stdw [%r10-16], 7
mov %r0, 0
ldxdw %r0, [%r10-16]
exit
