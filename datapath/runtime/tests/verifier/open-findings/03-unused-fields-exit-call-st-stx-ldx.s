# FINDING 03 (low): unused fields are still not required to be 0 for exit, call, st, stx, ldx, lddw
# rule: "fields an operation does not use must be 0 (as the Linux verifier and PREVAIL require)"
#   (docs/filter-programs.md, the recently fixed "unused instruction fields must be zero")
# what: check_encoding() checks unused fields only for ALU and conditional/ja jumps.
#   exit with dst/src/off/imm set, call with dst/off set, st (imm store) with src set,
#   stx/ldx (MODE_MEM) with imm set and lddw with off set in its first half are all accepted.
#   Linux rejects each ("BPF_EXIT uses reserved fields", "BPF_CALL uses reserved fields",
#   "BPF_ST uses reserved fields", "BPF_STX uses reserved fields", "BPF_LDX uses reserved
#   fields"). Engines ignore the fields today, so no memory-safety consequence found; the same
#   rationale as the fix applies (a later ISA revision / another engine may give them meaning).
# evidence (build/oko-filter verify):
#   u1.s  mov r0,0 ; .insn 0x95 3 4 7 9                        -> accepted
#   u2.s  .insn 0x85 5 0 3 6 (call 6, dst 5, off 3)             -> accepted
#   u3.s  .insn 0x7a 10 3 -8 5 (stdw with src 3); .insn 0x7b 10 1 -16 77 (stxdw imm 77);
#         .insn 0x79 0 10 -8 99 (ldxdw imm 99); exit             -> accepted
#   u4.s  .insn 0x18 0 0 5 1 (lddw, off 5)                      -> accepted
# program u3.s:
.insn 0x7a 10 3 -8 5
.insn 0x7b 10 1 -16 77
.insn 0x79 0 10 -8 99
exit
