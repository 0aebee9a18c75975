# rule: uninitialised stack
# reject: oko_map_lookup: argument r2 (key, 8 bytes): reads uninitialised stack at fp-4
# insn: 5
.map flows hash 8 8 16
stw [%r10-8], 1
mov %r2, %r10
add %r2, -8
lddw %r1, map flows
call 1
mov %r0, 0
exit
