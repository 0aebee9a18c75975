# rule: helper argument types
# reject: argument r3 (value, 8 bytes): reads uninitialised stack at fp-16
# insn: 8
.map flows hash 4 8 16
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
mov %r3, %r10
add %r3, -16
mov %r4, 0
lddw %r1, map flows
call 2
mov %r0, 0
exit
