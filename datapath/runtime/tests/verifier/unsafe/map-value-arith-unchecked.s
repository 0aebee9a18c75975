# rule: map value NULL check
# reject: arithmetic on a map value pointer that may be NULL
# insn: 6
.map flows hash 4 8 16
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map flows
call 1
add %r0, 4
exit
