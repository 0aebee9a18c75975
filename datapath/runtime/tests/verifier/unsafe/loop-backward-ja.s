# rule: loops
# reject: makes a loop
# insn: 2
mov %r0, 0
top:
add %r0, 1
ja top
