#!/usr/bin/env bash
# One GPU (carry .petsc-cuda: the makefile reads its configuration).  run.sh OUTDIR ROUNDS: the column
# degree count with each block striding over the whole range (A: the tree with degree-contig.patch taken
# back) against each block counting one contiguous share (B: the tree); test_kernels on B, then ROUNDS of
# bench_plan_gpu A B, then the degree count's launches timed by ncu for each.  Lands in OUTDIR/dc.tar.gz.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR ROUNDS}; ROUNDS=${2:?}
D=bench/results/2026-11-25-degree-contig; R=$PWD
mkdir -p "$O/dc"; out=$(cd "$O/dc" && pwd); start=$(date +%s)
stamp() { echo "$(( $(date +%s) - start )) s: $*" | tee -a "$out/run.txt"; }
trap 'tar czf "$O/dc.tar.gz" -C "$O" dc' EXIT
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
export PETSC_DIR=/opt/petsc-cuda
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$out/run.txt"
rm -rf /tmp/dc-a; mkdir -p /tmp/dc-a
tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data -cf - . | tar -xf - -C /tmp/dc-a
(cd /tmp/dc-a && patch -s -R -p1 < "$R/$D/degree-contig.patch") || exit 1
dir_of() { case $1 in a) echo /tmp/dc-a ;; *) echo $R ;; esac; }
T="build-cuda/bench/bench_plan_gpu build-cuda/tests/kernels/test_kernels"
for v in a b; do (cd $(dir_of $v) && make BUILD=build-cuda -j8 $T > "$out/make-$v.log" 2>&1) & done
for job in $(jobs -p); do wait $job || { for f in "$out"/make-*.log; do tail -n 20 "$f"; done; exit 1; }; done
stamp built
(cd tests/planner && timeout 300 ../../build-cuda/tests/kernels/test_kernels > "$out/kernels-b.txt" 2>&1)
stamp "test_kernels b: $(tail -n 1 "$out/kernels-b.txt")"; grep -E "^FAIL" "$out/kernels-b.txt" | head; gzip -9 "$out/kernels-b.txt"
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
for round in $(seq 1 "$ROUNDS"); do
  for v in a b; do
    (cd $(dir_of $v) && timeout 100 build-cuda/bench/bench_plan_gpu -model "$R/$model" -reps 15 circuit rmat random lp elast) > "$out/plan_gpu-$v$round.txt" 2>&1
    stamp "round $round $v"
  done
done
for v in a b; do
  for m in circuit rmat random; do
    (cd $(dir_of $v) && timeout 60 ncu --clock-control none --kernel-name regex:degree_kernel --metrics gpu__time_duration.sum \
      build-cuda/bench/bench_plan_gpu -model "$R/$model" -reps 1 $m) > "$out/ncu-$v-$m.txt" 2>&1
    echo "== ncu $v $m: $(grep -E 'gpu__time_duration' "$out/ncu-$v-$m.txt" | awk '{print $NF}' | tr '\n' ' ')" | tee -a "$out/summary.txt"
  done
done
for f in "$out"/plan_gpu-*.txt; do echo "== $(basename $f)"; grep -v "^#" "$f" | awk '{print $1, $5, $6, $12}'; done | tee -a "$out/summary.txt"
