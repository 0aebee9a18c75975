# rule: numbers (class 3: le64 keeps all 64 bits)
# reject: variable offset added to a stack pointer may be as large as
# insn: 7
# le64 is the identity on this host; an older verifier bounded its result to
# 32 bits, so "x >> 23" of 8 packet bytes looked below 512 but is up to 2^41.
mov %r0, 0
jlt %r2, 8, +7
ldxdw %r4, [%r1+0]
le64 %r4
rsh %r4, 23
mov %r6, %r10
add %r6, -512
add %r6, %r4
stb [%r6+0], 1
mov %r0, 0
exit
