# rule: calls (a function may not call itself, directly or through others)
# reject: recursive call
# insn: 5
call local f
exit
f:
call local g
exit
g:
mov %r0, 0
call local f
exit
