# A map value already proven not NULL, compared with 0 again (clang repeats
# NULL checks on merged paths): the comparison is decided, not refused.
.map params array 4 8 1
stw [%r10-4], 0
mov %r2, %r10
add %r2, -4
lddw %r1, map params
call 1
jne %r0, 0, known
exit
known:
jeq %r0, 0, out
ldxdw %r0, [%r0+0]
and %r0, 1
exit
out:
mov %r0, 0
exit
