# rule: helper argument types
# reject: oko_map_lookup cannot be used on map 'seen' of type bloom
# insn: 5
.map seen bloom 4 0 1024
stw [%r10-4], 1
mov %r2, %r10
add %r2, -4
lddw %r1, map seen
call 1
mov %r0, 0
exit
