# Every helper with well-typed arguments.
.map flows lru_hash 8 16 1024
.map seen bloom 4 0 4096
.map heavy count_min 4 4 1024
.map routes lpm 8 4 64
mov %r6, %r1
mov %r7, %r2
stdw [%r10-8], 42           # key
stdw [%r10-24], 0           # value
stdw [%r10-16], 0
lddw %r1, map flows
mov %r2, %r10
add %r2, -8
mov %r3, %r10
add %r3, -24
mov %r4, 0
call 2                      # oko_map_update
lddw %r1, map flows
mov %r2, %r10
add %r2, -8
call 3                      # oko_map_delete
stw [%r10-32], 7
lddw %r1, map seen
mov %r2, %r10
add %r2, -32
mov %r3, 1
call 4                      # oko_map_add
lddw %r1, map heavy
mov %r2, %r10
add %r2, -32
call 5                      # oko_map_query
stw [%r10-40], 32           # LPM key: prefix length, then the address
stw [%r10-36], 0x0100000a
lddw %r1, map routes
mov %r2, %r10
add %r2, -40
call 1                      # oko_map_lookup
call 6                      # oko_time_ns
mov %r1, %r10
add %r1, -8
mov %r2, 8
mov %r3, 0
call 7                      # oko_hash
mov %r0, 0
exit
