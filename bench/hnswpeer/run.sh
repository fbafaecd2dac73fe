#!/usr/bin/env bash
# run.sh compares fonte's HNSW with hnswlib on issue 4's data: 100,000 ×
# 384 clustered vectors (200 centres N(0,1)·0.5, unit noise, normalised),
# 1,000 queries, M=16, efConstruction=200, one thread each. fonte's
# benchmark generates the data and the ground truth (exact Flat search)
# and writes them to a file that peer.cpp reads, so both libraries see the
# same bytes.
#
# Two phases, fonte and hnswlib alternating in each so they share the
# machine's load: BUILDS builds of each (build time, memory; each saves
# its index), then SEARCHES search runs of each on the saved indexes
# (three passes of the queries at ef 32, 64 and 128 per run). Prints
# medians of wall-clock and of CPU time (CPU time ignores waiting for a
# core on a shared machine) and the fonte/hnswlib ratios: below 1 is
# better for build time and memory, above 1 for QPS.
#
# Needs g++ and Debian's libhnswlib-dev:
#   apt-get update && apt-get install -y g++ libhnswlib-dev
#
# Environment: BUILDS (default 3), SEARCHES (default 5), FONTE_HNSW_N
# (default 100000), WORK (a folder for the data, the indexes, the peer
# binary and the raw outputs; default a new temporary folder). About 10
# minutes at the defaults on two cores.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
builds=${BUILDS:-3}
searches=${SEARCHES:-5}
n=${FONTE_HNSW_N:-100000}
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"

if [ ! -f /usr/include/hnswlib/hnswalg.h ]; then
	echo "run.sh: hnswlib headers missing: apt-get update && apt-get install -y g++ libhnswlib-dev" >&2
	exit 1
fi
g++ -O3 -march=native -std=c++17 -o "$work/peer" "$here/peer.cpp"
(cd "$root" && go test -c -o "$work/vector.test" ./vector/)

# fonte runs the vector package's benchmarks (-benchtime 1x: one build, or
# one op of three query passes per ef) with the data and index files set.
fonte() {
	(cd "$root/vector" && FONTE_HNSW_N=$n FONTE_HNSWPEER_DATA="$work/data.bin" FONTE_HNSW_INDEX="$work/fonte.idx" \
		"$work/vector.test" -test.run '^$' -test.bench "$1" -test.benchtime 1x -test.timeout 0)
}
peer() { PEER_INDEX="$work/hnswlib.idx" "$work/peer" "$work/data.bin" 16 200 "$1" 32 64 128; }

: >"$work/fonte.txt"
: >"$work/peer.txt"
: >"$work/load.txt"
for i in $(seq "$builds"); do
	echo "build $i of $builds, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$work/load.txt"
	fonte 'HNSWBuild100k' | tee -a "$work/fonte.txt"
	rm -f "$work/hnswlib.idx"
	peer 0 | tee -a "$work/peer.txt"
done
for i in $(seq "$searches"); do
	echo "search $i of $searches, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$work/load.txt"
	fonte 'HNSWSearch100k' | tee -a "$work/fonte.txt"
	peer 3 | tee -a "$work/peer.txt"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$work/load.txt"

# median reads numbers, one a line, and prints their median.
median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2] + v[NR/2+1]) / 2}'; }
# fmetric prints the median of the value before unit $2 on the benchmark
# lines matching $1.
fmetric() { grep -E "$1" "$work/fonte.txt" | awk -v u="$2" '{for (i = 2; i <= NF; i++) if ($i == u) print $(i-1)}' | median; }
# pmetric prints the median of the value after key $1 on the peer's lines
# (for "ef" lines, $2 selects the ef).
pmetric() { awk -v k="$1" -v e="${2:-}" '$1 == "ef" && $2 == e {for (i = 3; i < NF; i++) if ($i == k) print $(i+1)} $1 == k && e == "" {print $2}' "$work/peer.txt" | median; }
row() { awk -v a="$2" -v b="$3" -v name="$1" 'BEGIN {r = (b > 0) ? sprintf("%.2f", a / b) : "-"; printf "%-24s %12s %12s %8s\n", name, a, b, r}'; }

echo
echo "n=$n; builds: medians of $builds, searches: medians of $searches runs of 3 passes"
printf "%-24s %12s %12s %8s\n" "" fonte hnswlib ratio
row "build s (wall)" "$(fmetric 'HNSWBuild100k' build-s)" "$(pmetric build_s)"
row "build s (CPU)" "$(fmetric 'HNSWBuild100k' build-cpu-s)" "$(pmetric build_cpu_s)"
for ef in 32 64 128; do
	row "ef=$ef recall@10" "$(fmetric "float32/ef=$ef-" recall@10)" "$(pmetric recall "$ef")"
	row "ef=$ef QPS (wall)" "$(fmetric "float32/ef=$ef-" qps)" "$(pmetric qps "$ef")"
	row "ef=$ef QPS (CPU)" "$(fmetric "float32/ef=$ef-" qps-cpu)" "$(pmetric qps_cpu "$ef")"
done
row "bytes/vector" "$(fmetric 'HNSWBuild100k' B/vector)" "$(pmetric index_bytes_per_vector)"
for ef in 32 64 128; do
	echo "fonte int8 ef=$ef: recall@10 $(fmetric "int8/ef=$ef-" recall@10), QPS $(fmetric "int8/ef=$ef-" qps) (CPU $(fmetric "int8/ef=$ef-" qps-cpu))"
done
echo "raw outputs in $work"
