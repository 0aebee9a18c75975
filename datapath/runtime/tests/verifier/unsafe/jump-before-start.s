# rule: jump out of range
# reject: jump out of the program
# insn: 1
mov %r0, 0
jeq %r0, 0, -3
exit
