# rule: helper argument types
# reject: oko_hash: size in r2 may be up to
# insn: 4
stdw [%r10-8], 0
mov %r1, %r10
add %r1, -8
mov %r3, 0
call 7
exit
