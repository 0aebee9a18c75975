# rule: helper argument types
# reject: argument r2 (key, 8 bytes)
# insn: 5
.map flows hash 8 8 16
stdw [%r10-8], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map flows
call 1
mov %r0, 0
exit
