# rule: pointers carry their object (a number is not a base)
# reject: r3 is a number, not a pointer
# insn: 7
# A number used as a load's base is refused; for one whose unsigned range
# is [1, 2^63] the verifier once computed that range's width in signed
# 64-bit arithmetic (2^63 - 1 as int64_t: INT64_MIN - 1) before looking at
# the register's type: undefined behaviour, found by fuzz-generate under
# UBSan.
jlt %r2, 8, +8
ldxdw %r3, [%r1+0]
lddw %r4, 0x8000000000000000
jgt %r3, %r4, +4
jeq %r3, 0, +3
mov %r0, 0
ldxb %r0, [%r3+0]
exit
mov %r0, 0
exit
