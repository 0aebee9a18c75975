# rule: map value NULL check (on the NULL branch r0 is the number 0)
# reject: r0 is a number, not a pointer
.map flows hash 4 8 16
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map flows
call 1
jne %r0, 0, +1
ldxdw %r0, [%r0+0]
mov %r0, 0
exit
