# rule: pointer leak
# reject: r0 holds a stack pointer at exit
# insn: 1
mov %r0, %r10
exit
