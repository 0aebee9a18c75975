# rule: stack bounds (the frames of one call path share the 512 bytes)
# reject: outside the 512-byte stack
# insn: 3
stdw [%r10-480], 1
call local f
exit
f:
stdw [%r10-40], 2
mov %r0, 0
exit
