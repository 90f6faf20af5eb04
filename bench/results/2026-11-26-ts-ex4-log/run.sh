#!/usr/bin/env bash
# One GPU (carry .petsc-cuda).  run.sh OUTDIR: where TS ex4's step goes with each type: -log_view (with
# -log_view_gpu_time, every event waited for and timed on the GPU) and -info's aijtuned lines, 20 steps at 4M points.
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
mkdir -p "$O"; O=$(cd "$O" && pwd)
cd "$(dirname "$0")/../../.." || exit 1
source bench/session.sh "$O"
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
make -j16 BUILD=build-cuda lib build-cuda/tutorials/ts/tutorials/ex4 > "$O/make.log" 2>&1 || { tail -30 "$O/make.log"; exit 1; }
stamp built
ex4="build-cuda/tutorials/ts/tutorials/ex4 -nox -m 4000000 -ts_type beuler -ts_max_steps 20 -ksp_type cg -pc_type jacobi -dm_vec_type cuda -dll_append $PWD/build-cuda/lib/libaijtuned.so"
for t in aijcusparse aijtuned; do
  timeout 100 $ex4 -mat_type $t -log_view > "$O/$t.txt" 2>&1; stamp "$t exit $?"
  timeout 100 $ex4 -mat_type $t -log_view -log_view_gpu_time > "$O/$t-gputime.txt" 2>&1; stamp "$t gputime exit $?"
done
timeout 100 $ex4 -mat_type aijtuned -info :mat 2>&1 | grep -E "aijtuned|MatShift|Mat[A-Za-z]+\(\)" | sed -E 's/[0-9.]+ (ms|us|MiB)/N \1/g' | sort | uniq -c | sort -rn | head -40 > "$O/info.txt"; stamp "info"
cat "$O/info.txt"
for f in aijcusparse-gputime aijtuned-gputime; do echo "== $f"; grep -E "^(TSStep|TSJacobianEval|TSFunctionEval|KSPSolve|SNESSolve|MatMult |MatScale|MatShift|MatAssemblyEnd|MatCUSPARSCopyTo|MatCUSPARSCopyFr|AIJTuned|MatAXPY|MatZeroEntries|MatCopy|VecAXPY|VecCopy)" "$O/$f.txt"; done
tar czf "$O/logs.tar.gz" -C "$O" aijcusparse.txt aijtuned.txt aijcusparse-gputime.txt aijtuned-gputime.txt && rm -f "$O"/aij*.txt "$O/make.log"
