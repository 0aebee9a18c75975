# rule: r10 is read-only
# reject: r10 (the frame pointer) is read-only
# insn: 1
mov %r0, 0
add %r10, -8
exit
