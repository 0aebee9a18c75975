# rule: loops
# reject: makes a loop
# insn: 3
mov %r0, 0
again:
add %r0, 1
mov %r3, %r0
jlt %r3, 10, again
exit
