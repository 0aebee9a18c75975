# rule: unknown helper
# reject: call to unknown helper 99
# insn: 0
call 99
mov %r0, 0
exit
