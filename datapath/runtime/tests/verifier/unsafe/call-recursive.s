# rule: calls
# reject: calls to other functions in the program are not supported
# insn: 0
call local f
exit
f:
mov %r0, 0
exit
