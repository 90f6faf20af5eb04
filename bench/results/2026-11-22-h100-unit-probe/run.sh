#!/usr/bin/env bash
# One H100 (carry .petsc-cuda, .bench-data): what the products of the pattern matrices would take if their
# values (all 1) were not loaded.  A probe, not a product: build-unit's gather_dot takes every value as 1
# (the sed line below), right only for pattern matrices, whose diff column shows it.  Both builds, two rounds
# interleaved, each matrix its own bench_spmv process.  OUTDIR/r.tgz.
#   usage: bash bench/results/2026-11-22-h100-unit-probe/run.sh OUTDIR
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
R=$O/r
mkdir -p "$R"
export MAKEFLAGS=-j16
[ -d /opt/petsc-cuda ] || SKIP_SPMV=1 SKIP_KSP=1 bash bench/run_bench.sh "$R/setup" > /dev/null 2>&1
source bench/session.sh "$R"
rm -rf /tmp/unit && mkdir -p /tmp/unit && tar cf - --exclude=./build --exclude=./build-cuda --exclude=./.bench-data --exclude=./.petsc-cuda --exclude=./.git . | (cd /tmp/unit && tar xf -)
sed -i 's|      v\[u\]          = in ? __ldcs(val + k + u \* stride) : 0.0;|      v[u]          = in ? 1.0 : 0.0; /* probe */|' /tmp/unit/kernels/internal.cuh
grep -c "probe" /tmp/unit/kernels/internal.cuh | tee -a "$R/run.txt"
make BUILD=build-cuda all bench > "$R/make.log" 2>&1 || { tail -30 "$R/make.log"; exit 1; }
(cd /tmp/unit && make BUILD=build-cuda all bench) > "$R/make-unit.log" 2>&1 || { tail -30 "$R/make-unit.log"; exit 1; }
rm -f "$R"/make*.log; stamp "built"
for round in 1 2; do
  for m in actor_movie_incidence soc-Slashdot0902 sat14_atco_enc1_opt2_10_16_primal ckt11752_dc_1 wing luxembourg_osm; do
    for b in base unit; do
      d=$PWD; [ $b = unit ] && d=/tmp/unit
      timeout 60 $d/build-cuda/bench/bench_spmv -reps 200 -warmup 10 -plan_reps 1 -suite none -f .bench-data/$m.mtx.gz > "$R/$b-$m-$round.txt" 2>&1
      printf '%-6s %-36s %s\n' $b $m "$(grep -E "^\[$m\] (aijcusparse|aijtuned|csr_alg1) " "$R/$b-$m-$round.txt" | awk '{printf "%s %s diff %s  ", $2, $3, $NF}')" | tee -a "$R/probe.txt"
    done
  done
done
gzip -9 "$R"/base-*.txt "$R"/unit-*.txt
rm -rf "$R/setup"; stamp "done"
(cd "$O" && tar czf r.tgz r && rm -rf r)
