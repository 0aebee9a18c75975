# rule: pointer arithmetic (class 1: a pointer with a variable offset minus its base)
# reject: outside the 512-byte stack
# insn: 12
# (pkt + byte * 4096) - pkt is the variable itself, up to 1,044,480; an older
# verifier called it [0, 65535], so after ">> 8" a stack offset it thought below
# 256 reached 4080 bytes above the frame.
mov %r0, 0
jlt %r2, 1, +11
ldxb %r4, [%r1+0]
lsh %r4, 12
mov %r5, %r1
add %r5, %r4
mov %r6, %r5
sub %r6, %r1
rsh %r6, 8
mov %r8, %r10
add %r8, -256
add %r8, %r6
stb [%r8+0], 1
mov %r0, 0
exit
