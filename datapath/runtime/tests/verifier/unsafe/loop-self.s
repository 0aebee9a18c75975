# rule: loops
# reject: makes a loop
# insn: 1
mov %r0, 0
ja -1
exit
