#!/usr/bin/env bash
# The multi-GPU session: CUDA PETSc from the carried archive, aijtuned and bench_scaling built against it, then
# bench_scaling with one MPI rank per GPU on 1, 2 and 4 GPUs for each problem (Poisson weak scaling, 4.1M rows
# per GPU; Poisson strong scaling, 16.8M rows; R-MAT, 4.2M rows), and the plot.
#   carry: .petsc-cuda (install.tar.xz.*)
#   usage: bash bench/run_scaling.sh OUTDIR   -> run.txt (everything printed), scaling.csv, scaling.png
# Estimated on 4 H200s (not yet measured): build 1-2 min; a job (one problem on N ranks) 15-30 s for Poisson and
# 30-50 s for R-MAT (every rank generates it, ~10 s, and sellcuda's build takes longest), 9 jobs ~4-5 min: about
# 6-7 min in all.  Every job has a time limit and the runs a deadline (DEADLINE seconds after the start): a job
# that cannot start before it is skipped and said so, so the script ends within ~8 minutes whatever happens.
# Environment:
#   RANKS="1 2 4"                            rank counts; those above the number of GPUs are skipped
#   WEAK=160 STRONG=256 IRREGULAR=rmat:22    problem sizes (0 or none: leave the problem out)
#   REPS=100 WARMUP=10                       timed and untimed calls per measurement
#   OPTS="..."                               more bench_scaling options (-ksp 0, -types aijcusparse,aijtuned, ...)
#   TIME_JOB=120 DEADLINE=470                seconds
#   CONNECTIONS=1                            exported as CUDA_DEVICE_MAX_CONNECTIONS to every job (unset: CUDA's default)
set -uo pipefail
out=${1:?usage: bash bench/run_scaling.sh OUTDIR}
source "$(dirname "$0")/session.sh" "$out"
deadline=$(( start + ${DEADLINE:-470} ))
log="$out/run.txt"

{
  commit_line
  echo "date   $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "env    RANKS=${RANKS:-} WEAK=${WEAK:-} STRONG=${STRONG:-} IRREGULAR=${IRREGULAR:-} REPS=${REPS:-} OPTS=${OPTS:-} CONNECTIONS=${CONNECTIONS:-}"
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv 2>&1
  nvidia-smi topo -m 2>&1   # how the GPUs are linked (host-staged MPI goes through host memory whatever the links)
} > "$log"
rm -f "$out/scaling.csv"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
stamp "$ngpu GPUs"

bash config/build-petsc-cuda.sh unpack >> "$log" 2>&1 || { stamp "no CUDA PETSc"; exit 1; }
if ! make BUILD=build-cuda lib bench > "$out/make.tmp" 2>&1; then
  tail -40 "$out/make.tmp" | tee -a "$log"; rm -f "$out/make.tmp"; stamp "build FAILED"; exit 1
fi
cat "$out/make.tmp" >> "$log"; rm -f "$out/make.tmp"
stamp "built"

[ -n "${CONNECTIONS:-}" ] && export CUDA_DEVICE_MAX_CONNECTIONS=$CONNECTIONS
weak=${WEAK:-160} strong=${STRONG:-256} irregular=${IRREGULAR:-rmat:22}
for problem in weak strong irregular; do
  case $problem in
    weak) [ "$weak" = 0 ] && continue; popts=(-weak "$weak" -strong 0 -irregular none) ;;
    strong) [ "$strong" = 0 ] && continue; popts=(-weak 0 -strong "$strong" -irregular none) ;;
    irregular) [ "$irregular" = none ] && continue; popts=(-weak 0 -strong 0 -irregular "$irregular") ;;
  esac
  for n in ${RANKS:-1 2 4}; do
    if [ "$n" -gt "$ngpu" ]; then stamp "$problem on $n ranks skipped: $ngpu GPUs"; continue; fi
    left=$(( deadline - $(date +%s) ))
    if [ "$left" -lt 20 ]; then stamp "$problem on $n ranks skipped: the deadline is near"; continue; fi
    limit=$(( left < ${TIME_JOB:-120} ? left : ${TIME_JOB:-120} ))
    stamp "$problem on $n ranks (time limit $limit s)"
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" mpiexec --oversubscribe --bind-to none -n "$n" build-cuda/bench/bench_scaling "${popts[@]}" \
      -reps "${REPS:-100}" -warmup "${WARMUP:-10}" -csv "$out/scaling.csv" ${OPTS:-} 2>&1 | tee -a "$log"
    stamp "$problem on $n ranks: exit ${PIPESTATUS[0]} (124: time limit)"
  done
done

python3 bench/plot_scaling.py "$out/scaling.csv" "$out/scaling.png" 2>&1 | tee -a "$log"
stamp "done"
ls -la "$out"
