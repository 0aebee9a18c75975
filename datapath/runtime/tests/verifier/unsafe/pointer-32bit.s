# rule: pointer arithmetic
# reject: 32-bit arithmetic on a pointer is not allowed
# insn: 0
add32 %r1, 2
mov %r0, 0
exit
