# rule: uninitialised register
# reject: r3 is used before it is set
# insn: 1
mov %r0, 0
add %r0, %r3
exit
