# rule: r10 is read-only
# reject: r10 (the frame pointer) is read-only
# insn: 0
mov %r10, 0
mov %r0, 0
exit
