# rule: packet access with a variable offset
# reject: variable offset added to a packet pointer may be as large as
# insn: 6
# "x - 20" where x may be below 20 wraps for some values: unbounded.
jlt %r2, 74, out
ldxb %r4, [%r1+14]
and %r4, 15
lsh %r4, 2
add %r4, -20
mov %r6, %r1
add %r6, %r4
ldxb %r0, [%r6+34]
out:
mov %r0, 0
exit
