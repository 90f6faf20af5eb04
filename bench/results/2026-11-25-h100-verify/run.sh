#!/usr/bin/env bash
# One GPU (carry .petsc-cuda, .bench-data).  run.sh OUTDIR STEP...  with the steps, in the order given:
#   build         the library, tests and benchmarks against the CUDA PETSc (unpacked first if missing)
#   stream        this GPU's model gets STREAM kernels if it has none (aijt_calibrate -add-stream; the new
#                 model in OUTDIR and in models/ here)
#   suite[=PAT]   the whole test suite on the GPU (only the tests whose label holds PAT): suite.txt.gz (suite-PAT)
#   spmv          bench_spmv over the suite and the medium files (speedups, planning cost)
#   kernels       test_kernels (the kernels and the GPU planner against the host)
#   model[=FILE]  bench_model with FILE (default: this GPU's model)
#   smodel=FILE   the same on the matrices small enough for STREAM (lap3d40 and the medium files)
#   recal=FILE    aijt_calibrate -add-stream on this GPU's model without its STREAM kernels, into FILE
#   plangpu       bench_plan_gpu on the generated matrices (the GPU planner outside PETSc, against the host's)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
model=models/$(echo "$gpu" | sed 's/[^A-Za-z0-9]/-/g').model
{ commit_line; echo "$gpu"; } | tee -a "$out/run.txt"
for step in "$@"; do
  case "$step" in
  build)
    make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all bench > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
    rm -f "$out/make.log" ;;
  stream)
    if ! grep -q "^kernel stream" "$model"; then
      build-cuda/tools/aijt_calibrate -add-stream "$model" > "$out/calibrate.txt" 2>&1; echo "calibrate exit $?" | tee -a "$out/run.txt"
      tail -3 "$out/calibrate.txt"; cp "$model" "$out/"
    fi ;;
  recal=*)
    f=${step#recal=}
    awk '/^kernel stream /{skip=1} !skip{print} skip&&/^end$/{skip=0}' "$model" > "$f"
    build-cuda/tools/aijt_calibrate -add-stream "$f" > "$out/recal.txt" 2>&1; echo "recal exit $?" | tee -a "$out/run.txt"
    grep -E "fixed costs|calibrat" "$out/recal.txt" | tail -3; cp "$f" "$out/" ;;
  suite|suite=*)
    pat=${step#suite}; pat=${pat#=}; log=suite${pat:+-$(echo "$pat" | tr -c 'A-Za-z0-9_\n' -)} # a list per step
    timeout 320 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 $pat > "$out/$log.txt" 2>&1
    tail -1 "$out/$log.txt" | tee -a "$out/run.txt"; grep -A8 "^not ok" "$out/$log.txt" | head -40
    gzip -9f "$out/$log.txt" ;;
  spmv)
    timeout 240 build-cuda/bench/bench_spmv -reps 100 -warmup 5 -dir .bench-data -csv "$out/spmv.csv" > "$out/spmv.txt" 2>&1; echo "bench_spmv exit $?"
    grep "planning:" "$out/spmv.txt" | head -30
    sed -n '/^==== results/,$p' "$out/spmv.txt" | tail -34
    gzip -9f "$out/spmv.txt" ;;
  plangpu)
    timeout 120 build-cuda/bench/bench_plan_gpu -model "$model" -reps 9 lap2d lap3d box27 lp rmat > "$out/plan_gpu.txt" 2>&1; echo "bench_plan_gpu exit $?"
    cat "$out/plan_gpu.txt" ;;
  kernels)
    (cd tests/planner && timeout 330 ../../build-cuda/tests/kernels/test_kernels > "$out/kernels.txt" 2>&1); echo "test_kernels: $(tail -1 "$out/kernels.txt")" | tee -a "$out/run.txt"
    grep -E "^FAIL" "$out/kernels.txt" | head -20
    gzip -9f "$out/kernels.txt" ;;
  model|model=*|smodel=*)
    f=${step#*model}; f=${f#=}; f=${f:-$model}; tag=$(basename "$f" .model); small=
    [ "${step#smodel}" != "$step" ] && small="-suite lap3d40" tag=small-$tag
    timeout 170 build-cuda/bench/bench_model -model "$f" $small -dir .bench-data -csv "$out/model-$tag.csv" > "$out/model-$tag.txt" 2>&1; echo "bench_model ($f) exit $?"
    grep -E "PLUB|\] model " "$out/model-$tag.txt" | grep -v "^\[.*\] model  " | head -30
    sed -n "/^summary over/,\$p" "$out/model-$tag.txt"
    gzip -9f "$out/model-$tag.txt" ;;
  *) echo "run.sh: unknown step $step"; exit 2 ;;
  esac
  stamp "$step"
done
