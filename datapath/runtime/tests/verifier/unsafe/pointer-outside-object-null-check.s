# rule: a branch is dropped only when no value can take it (rule 2)
# reject: comparing a packet pointer outside its object with 0 is not allowed
# insn: 3
# A packet pointer moved 2^28 bytes below the packet is compared with 0:
# it is 0 if the packet sits at address 0x10000000.  The verifier once
# decided any packet, stack or map value pointer != 0 whatever its offset,
# and never checked the "equal" branch, which here returns the packet's
# address (found by the second opinion: PREVAIL refused the comparison).
# Exploring both branches would still tell the program where its packet
# is; the comparison is refused.
mov %r0, 0
mov %r3, %r1
sub %r3, 0x10000000
jne %r3, 0, +2
mov %r0, %r1
exit
exit
