# A stack pointer inside the frame compared with 0 (clang does this when a
# callee's NULL check is inlined on a stack buffer): it is mapped memory,
# never address 0, so the comparison is decided and the "equal" branch,
# which would return the pointer, is never taken.
mov %r0, 0
stdw [%r10-8], 1
mov %r3, %r10
add %r3, -8
jne %r3, 0, +2
mov %r0, %r3
exit
ldxdw %r0, [%r3+0]
exit
