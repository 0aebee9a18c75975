# rule: uninitialised register
# reject: r1 is used before it is set
# insn: 2
call 6
mov %r0, 0
add %r0, %r1
exit
