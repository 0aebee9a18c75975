# rule: packet bounds
# reject: is the packet end pointer
# insn: 2
mov %r3, %r1
add %r3, %r2
ldxb %r0, [%r3-1]
exit
