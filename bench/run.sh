#!/bin/sh
# Benchmarks of libpft against OpenCSD, in the same run on the same input.
# usage: sh bench/run.sh
set -e
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DPFT_BENCH=ON >/dev/null
cmake --build build-bench -j2 --target bench_pkt bench_flow bench_etm3 bench_dfmt bench_enc >/dev/null
export PFT_SHARED="${PFT_SHARED:-$(pwd)/../shared}"
echo "== packet decoding (bench_pkt)"
./build-bench/bench_pkt
echo "== full decode: packets and program flow (bench_flow)"
./build-bench/bench_flow
echo "== ETMv3: packets and full decode (bench_etm3)"
./build-bench/bench_etm3
echo "== deformatter and encoder, libpft only (bench_dfmt, bench_enc)"
./build-bench/bench_dfmt
./build-bench/bench_enc
