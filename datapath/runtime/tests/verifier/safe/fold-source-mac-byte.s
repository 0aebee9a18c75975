# Foldable (oko-fold.h): the verdict depends on byte 11 only, for packets of
# 14 bytes or more.
mov %r0, 0
jlt %r2, 14, out
ldxb %r3, [%r1+11]
jne %r3, 5, out
mov %r0, 1
out:
exit
