# Division by zero is defined (RFC 9669): x / 0 = 0, x % 0 = x.
mov %r0, 7
mov %r3, 0
div %r0, %r3
mod %r0, %r3
exit
