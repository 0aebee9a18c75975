# rule: pointer leak
# reject: comparing a packet pointer with a number is not allowed
# insn: 1
mov %r0, 0
jgt %r1, 4096, +0
exit
