# rule: helper argument types
# reject: oko_map_add cannot be used on map 'flows' of type hash
# insn: 6
.map flows hash 4 8 16
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
mov %r3, 1
lddw %r1, map flows
call 4
mov %r0, 0
exit
