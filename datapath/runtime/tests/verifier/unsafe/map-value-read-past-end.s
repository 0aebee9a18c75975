# rule: map value bounds
# reject: outside its 8 bytes
# insn: 8
.map flows hash 4 8 16
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map flows
call 1
jeq %r0, 0, +2
ldxw %r3, [%r0+4]
ldxdw %r3, [%r0+4]
mov %r0, 0
exit
