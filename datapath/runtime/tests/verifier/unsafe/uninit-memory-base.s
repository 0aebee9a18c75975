# rule: uninitialised register
# reject: r4 is used before it is set
# insn: 0
ldxb %r0, [%r4+0]
exit
