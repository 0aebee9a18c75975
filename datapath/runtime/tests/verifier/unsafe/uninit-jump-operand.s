# rule: uninitialised register
# reject: r5 is used before it is set
# insn: 1
mov %r0, 0
jeq %r5, 1, +0
exit
