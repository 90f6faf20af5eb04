#!/usr/bin/env bash
# One GPU.  run.sh OUTDIR STEP...  with the steps, in the order given:
#   petsc        a fresh machine (carry .petsc-sdist): the CUDA PETSc built, packed into OUTDIR/petsc (carry it back
#                as .petsc-cuda); without this step the carried .petsc-cuda is unpacked
#   floor        floor.cu: lap3d40's least product on this device (OUTDIR/f/floor*.txt)
#   spmv         bench_spmv on lap3d40 as bench times it, then held (the device alone), OUTDIR/f/spmv*.txt
#   anything else goes to bench/results/2026-11-25-h100-verify/run.sh OUTDIR/x (build, kernels, suite[=PAT], ...)
# Call 1: petsc floor build spmv floor kernels suite=ops (spmv failed there: this script did not yet export the PETSc
# environment).  Call 2: build suite spmv floor.  Calls 3 and 4: floor alone (3 with the held column, 4 with
# the large parameter block too), twice and three times:  nvcc ... && /tmp/floor
set -uo pipefail
O=${1:?usage: run.sh OUTDIR STEP...}; shift
D=bench/results/2026-11-27-small-floor
mkdir -p "$O/f"
if [ "${1:-}" = petsc ]; then
  shift; mkdir -p "$O/petsc"
  bash config/build-petsc-cuda.sh build > "$O/petsc/build.txt" 2>&1 || { tail -30 "$O/petsc/build.txt"; exit 1; }
  cp .petsc-cuda/install.tar.xz.* "$O/petsc/"
  grep -E "s$" "$O/petsc/build.txt"
fi
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
source bench/session.sh "$O/f"
n=1
for step in "$@"; do
  case "$step" in
  floor)
    [ -x /tmp/floor ] || nvcc -std=c++17 -arch=sm_90 -O3 -o /tmp/floor $D/floor.cu || exit 1
    /tmp/floor > "$out/floor$n.txt"; tail -9 "$out/floor$n.txt"; n=$((n + 1)) ;;
  spmv)
    for held in 0 1; do
      f=$out/spmv$([ $held = 1 ] && echo -held).txt
      timeout 60 build-cuda/bench/bench_spmv -reps 500 -warmup 20 -suite lap3d40 -setup_reps 0 -plan_reps 1 -held $held > "$f" 2>&1; echo "bench_spmv -held $held exit $?"
      grep -E "^\[lap3d40\] [a-z_0-9]+ +[0-9.]+ us|held:|copy of the same" "$f"
    done ;;
  *) bash bench/results/2026-11-25-h100-verify/run.sh "$O/x" "$step" ;;
  esac
done
