# A byte swap reads only its destination: r0 need not be set (the source
# field of END selects the byte order, it names no register).
mov %r3, 5
be16 %r3
mov %r0, %r3
exit
