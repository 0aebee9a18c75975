# rule: falls off the end
# reject: execution can run past the last instruction
# insn: 1
mov %r0, 0
add %r0, 1
