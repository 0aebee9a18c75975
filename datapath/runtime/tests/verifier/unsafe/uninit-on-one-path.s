# rule: uninitialised register
# reject: r0 (the verdict) is not set at exit
# insn: 2
jeq %r2, 60, L1
mov %r0, 1
L1:
exit
