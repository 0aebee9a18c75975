# rule: unused fields are 0 (encoding)
# reject: the offset field must be 0
# insn: 1
# be16 (0xdc) with offset 4: the byte swap has no offset.
mov %r0, 0x1234
.insn 0xdc 0 0 4 16
exit
