# rule: unknown helper
# reject: call to unknown helper 0
# insn: 0
call 0
mov %r0, 0
exit
