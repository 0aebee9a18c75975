# rule: map value NULL check
# reject: r0 may be NULL
# insn: 6
.map flows hash 4 8 16
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map flows
call 1
ldxdw %r0, [%r0+0]
exit
