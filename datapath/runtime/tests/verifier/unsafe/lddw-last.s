# rule: malformed lddw
# reject: lddw is the last instruction
# insn: 1
mov %r0, 0
.insn 0x18 0 0 0 1
