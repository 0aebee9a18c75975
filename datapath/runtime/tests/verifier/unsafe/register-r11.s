# rule: invalid register
# reject: invalid register r11
# insn: 0
.insn 0xb7 11 0 0 0
exit
