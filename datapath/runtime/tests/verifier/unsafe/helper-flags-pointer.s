# rule: helper argument types
# reject: argument r4 must be a number; it holds a stack pointer
# insn: 9
.map flows hash 4 8 16
stw [%r10-4], 1
stdw [%r10-16], 1
mov %r2, %r10
add %r2, -4
mov %r3, %r10
add %r3, -16
mov %r4, %r10
lddw %r1, map flows
call 2
mov %r0, 0
exit
