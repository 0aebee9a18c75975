# rule: jump out of range
# reject: jump out of the program
# insn: 1
mov %r0, 0
ja +5
exit
