# rule: pointer leak (class 2: a partial overwrite of a spilled pointer)
# reject: overwrites part of the pointer spilled at fp-8
# insn: 1
# Overwriting one byte of a spilled packet pointer must not turn the other
# seven into a number that can be stored in a map the controller reads.
.map leak array 4 8 1
stxdw [%r10-8], %r1
stb [%r10-8], 0
ldxdw %r6, [%r10-8]
stw [%r10-12], 0
mov %r2, %r10
add %r2, -12
lddw %r1, map leak
call 1
jeq %r0, 0, +1
stxdw [%r0+0], %r6
mov %r0, 0
exit
