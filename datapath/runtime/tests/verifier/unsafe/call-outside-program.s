# rule: calls (the target must be an instruction of the program)
# reject: outside the program
# insn: 0
call local +5
exit
