# Once the packet is known to have 20 bytes, "end - 20" is at or above the packet's start
# and compares with packet pointers as offsets do: here it proves bytes 0..3 readable.
jlt %r2, 20, out
mov %r3, %r1
add %r3, %r2
add %r3, -20
mov %r4, %r1
add %r4, 4
jgt %r4, %r3, out
ldxw %r0, [%r1+0]
exit
out:
mov %r0, 0
exit
