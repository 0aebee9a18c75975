# Paths that differ only in registers nobody reads afterwards join into
# one: 24 diamonds, each setting one of r3..r9 to one of two constants,
# leave 128 different register files at each join; without liveness that
# is more states than the verifier keeps, and far over its budget.
mov %r0, 0
jlt %r2, 1, out
jset %r2, 1, a0
mov %r3, 0
ja b0
a0:
mov %r3, 100
b0:
jset %r2, 2, a1
mov %r4, 1
ja b1
a1:
mov %r4, 101
b1:
jset %r2, 4, a2
mov %r5, 2
ja b2
a2:
mov %r5, 102
b2:
jset %r2, 8, a3
mov %r6, 3
ja b3
a3:
mov %r6, 103
b3:
jset %r2, 16, a4
mov %r7, 4
ja b4
a4:
mov %r7, 104
b4:
jset %r2, 32, a5
mov %r8, 5
ja b5
a5:
mov %r8, 105
b5:
jset %r2, 64, a6
mov %r9, 6
ja b6
a6:
mov %r9, 106
b6:
jset %r2, 128, a7
mov %r3, 7
ja b7
a7:
mov %r3, 107
b7:
jset %r2, 256, a8
mov %r4, 8
ja b8
a8:
mov %r4, 108
b8:
jset %r2, 512, a9
mov %r5, 9
ja b9
a9:
mov %r5, 109
b9:
jset %r2, 1024, a10
mov %r6, 10
ja b10
a10:
mov %r6, 110
b10:
jset %r2, 2048, a11
mov %r7, 11
ja b11
a11:
mov %r7, 111
b11:
jset %r2, 4096, a12
mov %r8, 12
ja b12
a12:
mov %r8, 112
b12:
jset %r2, 8192, a13
mov %r9, 13
ja b13
a13:
mov %r9, 113
b13:
jset %r2, 16384, a14
mov %r3, 14
ja b14
a14:
mov %r3, 114
b14:
jset %r2, 32768, a15
mov %r4, 15
ja b15
a15:
mov %r4, 115
b15:
jset %r2, 65536, a16
mov %r5, 16
ja b16
a16:
mov %r5, 116
b16:
jset %r2, 131072, a17
mov %r6, 17
ja b17
a17:
mov %r6, 117
b17:
jset %r2, 262144, a18
mov %r7, 18
ja b18
a18:
mov %r7, 118
b18:
jset %r2, 524288, a19
mov %r8, 19
ja b19
a19:
mov %r8, 119
b19:
jset %r2, 1048576, a20
mov %r9, 20
ja b20
a20:
mov %r9, 120
b20:
jset %r2, 2097152, a21
mov %r3, 21
ja b21
a21:
mov %r3, 121
b21:
jset %r2, 4194304, a22
mov %r4, 22
ja b22
a22:
mov %r4, 122
b22:
jset %r2, 8388608, a23
mov %r5, 23
ja b23
a23:
mov %r5, 123
b23:
out:
exit
