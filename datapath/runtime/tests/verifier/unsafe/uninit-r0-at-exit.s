# rule: uninitialised register
# reject: r0 (the verdict) is not set at exit
# insn: 0
exit
