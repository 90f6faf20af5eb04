#!/usr/bin/env bash
# The performance model on the GPU machine: calibrate (tools/calibrate.cu), then measure the model's plans
# (bench_model: error per strip and plan, PLUB, model vs rules and one-format plans).
#   carry: .petsc-cuda (install.tar.xz.*) and .bench-data.tar.xz (the medium Matrix Market files, packed by config/pack-bench-data.sh)
#   usage: bash bench/run_model.sh OUTDIR
# Environment:
#   QUICK=1            aijt_calibrate -quick and two small matrices: a smoke test of the whole path (~2 min)
#   MODEL=file         skip calibration and use this model
#   SUITE=... FILES=...   as in run_bench.sh (default: the whole generated suite and every file in .bench-data)
#   REPS=50            timed calls per plan
#   TESTS=1            also build everything and run the test suite on the GPU (tests.log)
# Writes OUTDIR/<device>.model (and copies it to models/ for the runs that follow), calibrate.txt, model.txt,
# model.csv, run.txt.  Full run: build 1-2 min, calibration ~1-2 min, bench_model ~3-4 min (estimated).
set -uo pipefail
out=${1:?usage: bash bench/run_model.sh OUTDIR}
source "$(dirname "$0")/session.sh" "$out"
commit_line > "$out/run.txt"

bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
targets="lib tools bench"
[ -n "${TESTS:-}" ] && targets="all bench"
# shellcheck disable=SC2086
make -j8 BUILD=build-cuda $targets > "$out/make.log" 2>&1 || { tail -40 "$out/make.log"; stamp "build FAILED"; exit 1; }
stamp "built ($targets)"

model=${MODEL:-}
if [ -z "$model" ]; then
  # shellcheck disable=SC2046
  timeout 300 build-cuda/tools/aijt_calibrate $([ -n "${QUICK:-}" ] && echo -quick) 2>&1 | tee "$out/calibrate.txt"
  model=$(sed -n 's/^aijt_calibrate: wrote \(.*\);.*/\1/p' "$out/calibrate.txt")
  [ -f "$model" ] || { stamp "calibration FAILED"; exit 1; }
  cp "$model" "$out/"
  stamp "calibrated: $model"
fi

args=(-model "$model" -reps "${REPS:-50}" -csv "$out/model.csv")
if [ -n "${QUICK:-}" ]; then args+=(-suite "${SUITE:-lap3d40,rmat:14}" -f "${FILES:-tests/data/west0479.mtx.gz}")
else
  [ -n "${SUITE:-}" ] && args+=(-suite "$SUITE")
  case "${FILES:-}" in
    none) ;;
    "") [ -d .bench-data ] && args+=(-dir .bench-data) ;;
    *) args+=(-f "$FILES") ;;
  esac
fi
timeout "${TIME_MODEL:-400}" build-cuda/bench/bench_model "${args[@]}" 2>&1 | tee "$out/model.txt"
stamp "bench_model exit ${PIPESTATUS[0]} (124: time limit)"

if [ -n "${TESTS:-}" ]; then
  timeout 240 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe" -j 8 > "$out/tests.log" 2>&1
  stamp "tests: $(tail -1 "$out/tests.log")"
  grep "^not ok" "$out/tests.log" | head -20
fi
