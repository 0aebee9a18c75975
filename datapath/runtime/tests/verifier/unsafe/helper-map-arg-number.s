# rule: helper argument types
# reject: oko_map_lookup: argument r1 must be a map reference
# insn: 3
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
call 1
mov %r0, 0
exit
