# rule: helper argument types
# reject: argument r2 (key, 4 bytes): packet read of 4 bytes at offset 26 is not proven
# insn: 4
.map flows hash 4 8 16
mov %r2, %r1
add %r2, 26
lddw %r1, map flows
call 1
mov %r0, 0
exit
