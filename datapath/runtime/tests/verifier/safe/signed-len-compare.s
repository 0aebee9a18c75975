# clang emits signed comparisons of len with constants.
mov %r0, 0
mov %r3, 34
jsgt %r3, %r2, +1
ldxb %r0, [%r1+33]
exit
