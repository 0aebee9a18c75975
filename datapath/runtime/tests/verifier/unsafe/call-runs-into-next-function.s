# rule: calls (a function ends with exit or a jump)
# reject: runs on into the function at insn 3
# insn: 2
call local f
exit
f:
mov %r0, 1
g:
mov %r0, 2
exit
h:
call local g
exit
