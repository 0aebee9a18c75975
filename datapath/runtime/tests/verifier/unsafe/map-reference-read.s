# rule: pointer types
# reject: r1 is a map reference, not a pointer to memory
# insn: 2
.map flows hash 4 8 16
lddw %r1, map flows
ldxw %r0, [%r1+0]
exit
