#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): why actor_movie_incidence's product takes ~1 us more inside
# PETSc (bench_spmv -held) than through the kernels directly (bench_model, held) with the same plan.  A probe:
# a copy of the tree whose bench_model takes x and y from the stream-ordered pool (cudaMallocAsync, as
# PETSc's vectors are), against the tree as it is, two rounds interleaved; bench_spmv -held in the same lease.
# OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-pool-probe/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
rm -rf /tmp/pool && mkdir -p /tmp/pool && tar cf - --exclude=./build --exclude=./build-cuda --exclude=./.bench-data --exclude=./.petsc-cuda --exclude=./.git . | (cd /tmp/pool && tar xf -)
sed -i -e 's|PetscCallCUDA(cudaMalloc((void \*\*)&d\([xy]\), \(.*\)));|PetscCallCUDA(cudaMallocAsync((void **)\&d\1, \2, 0)); PetscCallCUDA(cudaDeviceSynchronize()); /* probe */|' \
       -e 's|PetscCallCUDA(cudaFree(d\([xy]\)));|PetscCallCUDA(cudaFreeAsync(d\1, 0)); /* probe */|' /tmp/pool/bench/bench_model.c
grep -c "probe" /tmp/pool/bench/bench_model.c | tee -a "$R/run.txt"
make BUILD=build-cuda lib bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
(cd /tmp/pool && make BUILD=build-cuda lib bench) > "$R/make-pool.log" 2>&1 || { tail -30 "$R/make-pool.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
A=.bench-data/actor_movie_incidence.mtx.gz
for round in 1 2; do
  for b in base pool; do
    d=$PWD; [ $b = pool ] && d=/tmp/pool
    timeout 60 $d/build-cuda/bench/bench_model -model models/NVIDIA-H100-80GB-HBM3.model -suite none -f $A -reps 200 > "$R/model-$b-$round.txt" 2>&1
    grep -E "^\[actor_movie_incidence\] (model|rules) " "$R/model-$b-$round.txt" | sed "s/^/$b $round /" | tee -a "$R/probe.txt"
  done
  timeout 60 build-cuda/bench/bench_spmv -held -reps 200 -warmup 10 -plan_reps 1 -suite none -f $A > "$R/spmv-$round.txt" 2>&1
  grep -E "held:" "$R/spmv-$round.txt" | grep actor | sed "s/^/spmv $round /" | tee -a "$R/probe.txt"
done
gzip -9 "$R"/model-*.txt "$R"/spmv-*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
