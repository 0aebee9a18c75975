# rule: map value NULL check
# reject: r6 may be NULL
# insn: 7
.map flows hash 4 8 16
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map flows
call 1
mov %r6, %r0
ldxdw %r0, [%r6+0]
exit
