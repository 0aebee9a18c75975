# rule: r10 is read-only
# reject: r10 (the frame pointer) is read-only
# insn: 1
stdw [%r10-8], 0
ldxdw %r10, [%r10-8]
mov %r0, 0
exit
