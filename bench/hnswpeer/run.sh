#!/usr/bin/env bash
# run.sh is the HNSW part of the benchmark command (bench/, go run .):
# fonte's HNSW against hnswlib native (peer.cpp, g++ -O3 -march=native on
# Debian's libhnswlib-dev headers), hnswlib's Python binding and
# coder/hnsw, on issue 4's 100,000 × 384 clustered vectors, M=16,
# efConstruction=200, one thread. See BENCHMARKS.md.
#
# Environment, as before: BUILDS (default 5), SEARCHES (search runs,
# default 5), FONTE_HNSW_N (default 100000), WORK (the work folder).
#   apt-get update && apt-get install -y g++ libhnswlib-dev python3-hnswlib
#   bench/hnswpeer/run.sh
#   FONTE_HNSW_N=10000 BUILDS=1 SEARCHES=1 bench/hnswpeer/run.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
args=(-only hnsw -builds "${BUILDS:-5}" -runs "${SEARCHES:-5}" -n "${FONTE_HNSW_N:-100000}")
if [ -n "${WORK:-}" ]; then args+=(-work "$WORK"); fi
exec go run . "${args[@]}"
