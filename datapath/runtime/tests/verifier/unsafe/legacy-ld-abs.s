# rule: unknown opcode
# reject: legacy packet access (BPF_ABS/BPF_IND) is not supported
# insn: 0
.insn 0x30 0 0 0 12
exit
