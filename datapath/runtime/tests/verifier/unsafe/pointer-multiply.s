# rule: pointer arithmetic
# reject: only adding or subtracting a number is allowed on a pointer
# insn: 0
mul %r1, 2
mov %r0, 0
exit
