#!/bin/sh
# Runs oko-bench's interpreter-vs-JIT table in PROCESSES fresh processes
# and prints, per program, the JIT speed-up of each process and the lowest,
# median and highest of them (docs/performance.md).  Each process's figure
# is itself the median of ROUNDS alternating rounds.
#
#   tools/bench-processes.sh BUILD_DIR [PROCESSES (11)] [ROUNDS (5)]
set -e
build=$1
processes=${2:-11}
rounds=${3:-5}
out=$build/bench-processes.txt
: >"$out"
i=1
while [ "$i" -le "$processes" ]; do
    "$build/oko-bench" "$build/progs" "$rounds" --engines-only | grep '^| [a-z_0-9]*\.o ' >>"$out"
    i=$((i + 1))
done
echo "JIT speed-up over the interpreter (ns/call ratio, one epoch section per batch),"
echo "$processes processes of $rounds rounds each; every row of every process: $out"
echo
echo "| program | per process | lowest | median | highest |"
echo "|---|---|---:|---:|---:|"
awk -F'|' '{ gsub(/ /, "", $2); gsub(/[ x]/, "", $5); r[$2] = r[$2] " " $5; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
    END {
        for (k = 1; k <= n; k++) {
            p = order[k]; m = split(r[p], v, " ");
            for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
            list = ""; split(r[p], raw, " ");
            for (i = 1; i <= m; i++) list = list (i > 1 ? " " : "") raw[i] "x";
            printf "| %s | %s | %sx | %sx | %sx |\n", p, list, v[1], v[int((m + 1) / 2)], v[m]
        }
    }' "$out"
