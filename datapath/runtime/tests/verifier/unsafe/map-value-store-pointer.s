# rule: map value leak
# reject: storing a pointer into a map value is not allowed
# insn: 7
.map flows hash 4 8 16
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map flows
call 1
jeq %r0, 0, +1
stxdw [%r0+0], %r10
mov %r0, 0
exit
