# rule: stack bounds
# reject: outside the 512-byte stack
# insn: 6
mov %r3, %r2
and %r3, 1023
mov %r4, %r10
add %r4, -512
add %r4, %r3
mov %r0, 0
stb [%r4+0], 1
exit
