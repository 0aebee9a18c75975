#!/bin/sh
# Tests of the oko-filter command (what a filter author sees).
#   tests/test-tool.sh BUILD_DIR
set -u
B=${1:-build}
TOOL=$B/oko-filter
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0
checks=0

check() {       # check DESCRIPTION EXPECTED-EXIT-STATUS EXPECTED-TEXT COMMAND...
    desc=$1 status=$2 text=$3
    shift 3
    checks=$((checks + 1))
    "$@" >"$T/out" 2>&1
    got=$?
    if [ "$got" -ne "$status" ] || { [ -n "$text" ] && ! grep -qF -- "$text" "$T/out"; }; then
        echo "FAIL: $desc: exit $got (expected $status), output:"
        sed 's/^/    /' "$T/out"
        echo "    (expected to contain: $text)"
        failures=$((failures + 1))
    fi
}

python3 tests/make-pcap.py "$T/trace.pcap"

check "verify accepts" 0 "accepted: 67 instructions, 3 maps" \
    "$TOOL" verify "$B/progs/count_by_proto.o"
check "verify lists maps" 0 "map 1 'seen_protos': lru_hash, key 4 bytes, value 8 bytes, 4 entries" \
    "$TOOL" verify "$B/progs/count_by_proto.o"
check "verify rejects with the reason" 1 "rejected: insn 0: packet read of 2 bytes at offset 12 is not proven within len" \
    "$TOOL" verify tests/verifier/unsafe/pkt-no-check.s
check "verify says whether a program folds" 0 "folds: on bytes 6-11, for packets of 14 bytes or more" \
    "$TOOL" verify "$B/progs/mac_src_guard.o"
check "verify says why a program does not fold" 0 "does not fold: insn 4: it uses a map" \
    "$TOOL" verify "$B/progs/verdict_map.o"
check "no fold for a program verified with a minimum length" 0 "does not fold: insn 0: verified for a minimum packet length" \
    "$TOOL" verify tests/verifier/unsafe/pkt-no-check.s --min-len 14
check "verify rejects a loop from C" 1 "makes a loop" \
    "$TOOL" verify "$B/progs/unsafe_loop.o"
check "verify refuses a non-object" 1 "rejected: line 2: unknown instruction" \
    "$TOOL" verify tests/make-pcap.py
check "verify --min-len" 0 "accepted" \
    "$TOOL" verify tests/verifier/unsafe/pkt-no-check.s --min-len 14
check "usage" 2 "usage: oko-filter verify" "$TOOL" frobnicate

# disasm -> asm reproduces the loaded program exactly.
"$TOOL" disasm "$B/progs/count_by_proto.o" >"$T/prog.s"
check "disasm shows maps" 0 ".map seen_protos lru_hash 4 8 4" cat "$T/prog.s"
check "disasm shows helper calls" 0 "call 1" cat "$T/prog.s"
"$TOOL" asm "$B/progs/count_by_proto.o" -o "$T/from-elf.bin"
"$TOOL" asm "$T/prog.s" -o "$T/from-asm.bin"
check "disasm/asm round trip" 0 "" cmp "$T/from-elf.bin" "$T/from-asm.bin"

# run: verdicts, totals, map contents (raw and decoded).
LAYOUT="--layout packets_per_proto=proto:u32/packets:u64 --layout seen_protos=proto:u32/last_ns:u64"
check "run: first TCP packet does not match" 0 "packet 1: 54 bytes: no match" \
    "$TOOL" run "$B/progs/count_by_proto.o" "$T/trace.pcap"
check "run: second TCP packet matches" 0 "packet 2: 54 bytes: match" \
    "$TOOL" run "$B/progs/count_by_proto.o" "$T/trace.pcap"
check "run: totals" 0 "7 packets: 3 match, 4 no match, 0 errors (jit" \
    "$TOOL" run "$B/progs/count_by_proto.o" "$T/trace.pcap"
check "run: interpreter gives the same totals" 0 "7 packets: 3 match, 4 no match, 0 errors (interpreter" \
    "$TOOL" run "$B/progs/count_by_proto.o" "$T/trace.pcap" --interpret
check "run: map in hex" 0 "key 06000000 -> value 0300000000000000" \
    "$TOOL" run "$B/progs/count_by_proto.o" "$T/trace.pcap" --quiet
check "run: map decoded with a layout" 0 "(proto=17 -> packets=2)" \
    "$TOOL" run "$B/progs/count_by_proto.o" "$T/trace.pcap" --quiet $LAYOUT
check "run: sketch cells" 0 "map 2 'sources' (bloom):" \
    "$TOOL" run "$B/progs/count_by_proto.o" "$T/trace.pcap" --quiet
check "run: bad layout" 2 "bad layout" \
    "$TOOL" run "$B/progs/count_by_proto.o" "$T/trace.pcap" --layout nonsense
check "run: missing trace" 1 "No such file" \
    "$TOOL" run "$B/progs/count_by_proto.o" "$T/none.pcap"

echo "oko-filter: $((checks - failures)) of $checks checks passed"
[ "$failures" -eq 0 ]
