# rule: loops
# reject: makes a loop
# insn: 2
mov %r0, 0
L1:
add32 %r0, 1
jlt32 %r0, %r2, L1
exit
