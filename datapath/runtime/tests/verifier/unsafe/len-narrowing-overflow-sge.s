# rule: packet bounds (class 4: no overflow in the length narrowing)
# reject: not proven within len
# insn: 7
# "len + 1 s>= INT64_MIN" always holds; computing its bound in int64
# overflowed and called the branch impossible.
mov %r0, 0
mov %r3, %r2
add %r3, 1
lddw %r4, 0x8000000000000000
jsge %r3, %r4, +1
exit
ldxb %r0, [%r1+100]
exit
