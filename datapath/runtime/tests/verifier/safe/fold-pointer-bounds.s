# Foldable (oko-fold.h): bounds checked as clang writes them (packet + 14
# against packet + len), the verdict from bytes 6-7 through the stack.
mov %r0, 0
mov %r3, %r1
add %r3, 14
mov %r4, %r1
add %r4, %r2
jgt %r3, %r4, out
ldxh %r5, [%r1+6]
stxdw [%r10-8], %r5
ldxdw %r0, [%r10-8]
and %r0, 1
out:
exit
