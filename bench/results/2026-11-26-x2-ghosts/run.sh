#!/usr/bin/env bash
# Two GPUs (carry .petsc-cuda): tests/mat/spmv on bcsstk21 (spmv_real-n2 failed once on 2 H100s) repeated under
# several settings, to see how often it differs and where.  run.sh OUTDIR [ROUNDS]
set -uo pipefail
O=${1:?usage: run.sh OUTDIR [ROUNDS]}; R=${2:-8}
mkdir -p "$O"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
[ -x build-cuda/tests/mat/spmv ] || make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda all > "$O/make.log" 2>&1 || { tail -30 "$O/make.log"; exit 1; }
nvidia-smi -L | tee "$O/run.txt"
export PETSC_OPTIONS="-use_gpu_aware_mpi 0"
f=$PWD/tests/data/bcsstk21.mtx.gz
mpi="mpiexec --allow-run-as-root --oversubscribe --bind-to none -n 2"
one() { # tag, then env and options
  local tag=$1; shift
  local fails=0
  for i in $(seq "$R"); do
    timeout 60 env $ENVS $mpi build-cuda/tests/mat/spmv -f "$f" $OPTS > "$O/$tag.$i.txt" 2>&1
    grep -q "^0 failures" "$O/$tag.$i.txt" || fails=$((fails+1))
  done
  echo "$tag: $fails of $R runs differ; $(cat "$O"/$tag.*.txt | grep -c '^FAIL') FAIL lines" | tee -a "$O/run.txt"
  cat "$O"/$tag.*.txt | grep "^FAIL" | sort | uniq -c | head -8 | tee -a "$O/run.txt"
}
ENVS= OPTS= one default true
ENVS=CUDA_VISIBLE_DEVICES=0 OPTS= one onegpu true
ENVS= OPTS="-mat_aijtuned_ghost_peer 0" one nopeer true
ENVS= OPTS="-mat_aijtuned_ghost_exchange 0" one noexchange true
ENVS=CUDA_LAUNCH_BLOCKING=1 OPTS= one blocking true
ENVS= OPTS="-mat_aijtuned_gpu_plan 0" one hostplan true
ENVS= OPTS="-mat_aijtuned_gpu_build 0" one hostbuild true
tar czf "$O/outputs.tar.gz" -C "$O" $(cd "$O" && ls *.txt | grep -v run.txt) && rm -f "$O"/*.[0-9]*.txt
