# rule: packet bounds (class 4: no overflow in the length narrowing)
# reject: not proven within len
# insn: 7
# "len - 1 <= INT64_MAX" holds for every len >= 1; computing its bound in int64
# overflowed and called the branch impossible, so its read was never checked.
mov %r0, 0
mov %r3, %r2
add %r3, -1
lddw %r4, 0x7fffffffffffffff
jle %r3, %r4, +1
exit
ldxb %r0, [%r1+100]
exit
