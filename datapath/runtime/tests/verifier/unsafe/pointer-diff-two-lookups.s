# rule: pointer arithmetic (class 1: two map values of one map)
# reject: pointers into two different objects
# insn: 17
# Two lookups return two values; their difference is an address difference,
# not a constant 0 (an older verifier's belief), so "value1 + it" wrote far
# outside value 1.
.map table array 4 8 2
stw [%r10-4], 0
stw [%r10-8], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map table
call 1
jeq %r0, 0, +13
mov %r6, %r0
mov %r2, %r10
add %r2, -8
lddw %r1, map table
call 1
jeq %r0, 0, +6
mov %r7, %r0
mov %r8, %r6
sub %r8, %r7
mov %r9, %r6
add %r9, %r8
stdw [%r9+0], 1
mov %r0, 0
exit
