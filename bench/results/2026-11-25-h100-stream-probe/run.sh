#!/usr/bin/env bash
# On the GPU machine, from the repository root (carry .bench-data): build the probe, run it on the medium
# files and the generated suite.  Output: OUTDIR/probe.txt
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv | tee "$O/probe.txt"
bash bench/results/2026-11-25-h100-stream-probe/build.sh /tmp/probe-build > "$O/build.log" 2>&1 || { tail -30 "$O/build.log"; exit 1; }
timeout 240 /tmp/probe-build/probe .bench-data/actor_movie_incidence.mtx.gz $(ls .bench-data/*.mtx.gz | grep -v actor) \
  gen:lap3d gen:box27 gen:elast gen:random gen:circuit gen:rmat gen:lp 2>&1 | tee -a "$O/probe.txt"
