import sys
K = int(sys.argv[1]) if len(sys.argv) > 1 else 8
L = int(sys.argv[2]) if len(sys.argv) > 2 else 3800
out = []
o = out.append
o("call 6")
o("mov %r8, %r0")
o("call 6")
o("mov %r6, %r0")
o("and %r6, 255")
o("mov %r9, 0")
for i in range(K):
    o(f"jset %r8, {1<<i}, +1")
    o(f"add %r9, {1<<i}")
# chain start (join point)
for i in range(1, 65):
    o("mov %r3, %r6")
    o(f"add %r3, {i}")
    o(f"stxdw [%r10-{8*i}], %r3")
o("mov %r4, %r6")
o("mov %r5, %r6")
o("mov %r7, %r6")
for i in range(L):
    o(f"jgt %r6, {1000+i}, out")
o("mov %r0, %r9")
o("exit")
o("out:")
o("mov %r0, 0")
o("exit")
print("\n".join(out))
