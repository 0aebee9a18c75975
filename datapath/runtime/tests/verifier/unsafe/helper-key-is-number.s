# rule: helper argument types
# reject: argument r2 (key) must point to 4 readable bytes
# insn: 3
.map flows hash 4 8 16
mov %r2, 1000
lddw %r1, map flows
call 1
mov %r0, 0
exit
