# rule: jump into lddw
# reject: jump into the middle of the lddw at insn 2
# insn: 1
mov %r0, 0
jeq %r2, 0, +1
lddw %r0, 0x100000001
exit
