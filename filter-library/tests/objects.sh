#!/bin/sh
# Every filter object is a stripped ELF64 BPF relocatable with an entry point
# in the "oko/filter" section; baseline's code is exactly "return 1".
set -eu
OUT=${OUT:-build}
fail=0; n=0
for src in filters/*.c; do
    name=$(basename "$src" .c); obj=$OUT/$name.o; n=$((n + 1))
    hdr=$(llvm-readelf -h "$obj")
    echo "$hdr" | grep -q 'Class: *ELF64' || { echo "FAIL $name: not ELF64"; fail=1; }
    echo "$hdr" | grep -q 'Type: *REL' || { echo "FAIL $name: not relocatable"; fail=1; }
    echo "$hdr" | grep -q 'Machine: *EM_BPF\|Machine: *Linux BPF' || { echo "FAIL $name: not BPF"; fail=1; }
    secs=$(llvm-readelf -S "$obj")
    echo "$secs" | grep -q ' oko/filter ' || { echo "FAIL $name: no oko/filter section"; fail=1; }
    if echo "$secs" | grep -q '\.debug_'; then echo "FAIL $name: debug sections left"; fail=1; fi
done
# baseline: two instructions, r0 = 1; exit.
code=$(llvm-objdump -d --no-show-raw-insn "$OUT/baseline.o" | sed -n 's/^ *[0-9a-f]*: *//p' | tr -s ' \t' ' ')
expect='r0 = 1 exit'
[ "$(echo $code)" = "$expect" ] || { echo "FAIL baseline: code is '$(echo $code)', expected '$expect'"; fail=1; }
[ $fail = 0 ] && echo "filter-library objects: $n filters OK" || exit 1
