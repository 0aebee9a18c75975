# rule: verification work is bounded
# reject: the program is too complex: more than 1000000 steps
# insn: 147
# what: verification time DoS via pruning cost. Every explored instruction at a join point is
#   compared (state_covers) with up to 32 stored states, each comparison walking all 512 stack
#   bytes before reaching the slot that differs (fp-8). 2^11 paths that differ only in a spilled
#   constant at fp-8 walk a chain of 256 join points ("jeq r8,1,+0" with r8 = 0: decided, so no
#   pending states, but in-degree 2), each holding 32 stored states that never cover them:
#   ~2^11*256*32 full state comparisons within the 1,000,000-instruction budget.
#   The budget counted instructions, not comparison work.
# before the fix: accepted after 9.2 s (536,577 instructions explored, 0 pruned); now refused in 0.45 s.
call 6
mov %r7, %r0
mov %r6, 0
jset %r7, 1, +1
add %r6, 1
jset %r7, 2, +1
add %r6, 2
jset %r7, 4, +1
add %r6, 4
jset %r7, 8, +1
add %r6, 8
jset %r7, 16, +1
add %r6, 16
jset %r7, 32, +1
add %r6, 32
jset %r7, 64, +1
add %r6, 64
jset %r7, 128, +1
add %r6, 128
jset %r7, 256, +1
add %r6, 256
jset %r7, 512, +1
add %r6, 512
jset %r7, 1024, +1
add %r6, 1024
stxdw [%r10-8], %r6
mov %r8, 0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
jeq %r8, 1, +0
mov %r0, 0
exit
