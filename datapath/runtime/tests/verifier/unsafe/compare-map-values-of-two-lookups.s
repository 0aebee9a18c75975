# rule: a pointer difference is a number only within one object (rule 5)
# reject: comparing a map value pointer with a map value pointer is not allowed
# insn: 16
# Two map values of different lookups compared: the branch says which
# sits higher in memory (address information in r0).  Accepted before
# (found by an adversarial audit, 2026-11-25).
.map a array 4 8 4
.map b array 4 8 4
stw [%r10-4], 0
mov %r2, %r10
add %r2, -4
lddw %r1, map a
call 1
jeq %r0, 0, out
mov %r6, %r0
mov %r2, %r10
add %r2, -4
lddw %r1, map b
call 1
jeq %r0, 0, out
mov %r7, %r0
mov %r0, 0
jgt %r6, %r7, big
exit
big:
mov %r0, 1
exit
out:
mov %r0, 0
exit
