# rule: map value bounds
# reject: outside its 64 bytes
# insn: 11
.map table array 4 64 4
stw [%r10-4], 0
mov %r2, %r10
add %r2, -4
lddw %r1, map table
call 1
jeq %r0, 0, +6
ldxb %r3, [%r0+0]
and %r3, 63
mov %r4, %r0
add %r4, %r3
ldxw %r5, [%r4+0]
mov %r0, 0
exit
