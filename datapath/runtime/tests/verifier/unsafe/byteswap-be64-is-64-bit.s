# rule: numbers (class 3: a 64-bit byte swap produces 64 bits)
# reject: variable offset added to a stack pointer may be as large as
# insn: 7
# be64 of a byte puts it in bits 56-63; an older verifier bounded the result to
# 32 bits, so "x >> 23" looked below 512 but is up to 2^41.
mov %r0, 0
jlt %r2, 1, +7
ldxb %r4, [%r1+0]
be64 %r4
rsh %r4, 23
mov %r6, %r10
add %r6, -512
add %r6, %r4
stb [%r6+0], 1
mov %r0, 0
exit
