#!/usr/bin/env bash
# Run-time tuning and its cache on the GPU machine, in one lease:
#   1. the test suite on the GPU (tests.log; tests/mat/tune checks the cache);
#   2. bench_spmv three times on the same matrices: tuning off, on with a new cache (cold), on again with
#      that cache (warm).  Tuning's cost is the wall time of the 60 calls after the first, on minus off,
#      in MatMult-equivalents; warm must cost nothing.  (off.txt, cold.txt, warm.txt, tune-cache)
#   3. bench_model (model.txt, model.csv) on the same matrices.
#   carry: .petsc-cuda (install.tar.xz.*) and .bench-data.tar.xz (the medium Matrix Market files, packed by config/pack-bench-data.sh)
#   usage: bash bench/run_tuning.sh OUTDIR
# Environment: SUITE, FILES (bench_spmv's -suite and -f), REPS (100), SKIP_TESTS=1.
set -uo pipefail
out=${1:?usage: bash bench/run_tuning.sh OUTDIR}
source "$(dirname "$0")/session.sh" "$out"
commit_line > "$out/run.txt"

bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
make -j16 BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -40 "$out/make.log"; stamp "build FAILED"; exit 1; }
stamp "built"

if [ -z "${SKIP_TESTS:-}" ]; then
  timeout 300 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe" -j 8 > "$out/tests.log" 2>&1
  stamp "tests: $(tail -1 "$out/tests.log")"
  grep "^not ok" "$out/tests.log" | head -20
fi

suite=${SUITE:-rmat,circuit,lap3d40}
files=${FILES:-ckt11752_dc_1,soc-Slashdot0902,memplus,bcsstk16,actor_movie_incidence,cage11,ct2010,GT01R}
paths=""
for f in ${files//,/ }; do [ -f ".bench-data/$f.mtx.gz" ] && paths+="${paths:+,}.bench-data/$f.mtx.gz"; done
args=(-suite "$suite" -f "$paths" -reps "${REPS:-100}")
cache="$out/tune-cache"
rm -f "$cache"
timeout 200 build-cuda/bench/bench_spmv "${args[@]}" -mat_aijtuned_tune 0 > "$out/off.txt" 2>&1
stamp "bench_spmv tuning off: exit $?"
timeout 200 build-cuda/bench/bench_spmv "${args[@]}" -mat_aijtuned_tune 1 -mat_aijtuned_tune_cache "$cache" -info 2>&1 | awk '!/^\[[0-9]+\] </ || /aijtuned:/' > "$out/cold.txt"
stamp "bench_spmv tuning on, cold cache: exit ${PIPESTATUS[0]}"
timeout 200 build-cuda/bench/bench_spmv "${args[@]}" -mat_aijtuned_tune 1 -mat_aijtuned_tune_cache "$cache" -info 2>&1 | awk '!/^\[[0-9]+\] </ || /aijtuned:/' > "$out/warm.txt"
stamp "bench_spmv tuning on, warm cache: exit ${PIPESTATUS[0]}"

model="models/NVIDIA-H200.model"
nvidia-smi -L | grep -q H100 && model="models/NVIDIA-H100-80GB-HBM3.model"
timeout 200 build-cuda/bench/bench_model -model "$model" -suite "$suite" -f "$paths" -reps 50 -csv "$out/model.csv" > "$out/model.txt" 2>&1
stamp "bench_model: exit $?"
