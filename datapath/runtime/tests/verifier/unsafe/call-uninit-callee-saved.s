# rule: uninitialised registers (r6-r9 the callee overwrites are saved for
# the caller only if the caller still needs them; here it needs r6, which it
# never set)
# reject: r6
# insn: 0
call local f
mov %r0, %r6
exit
f:
mov %r6, 1
mov %r0, 0
exit
