set -uo pipefail
bash bench/results/2026-11-25-h100-verify/run.sh $1/v build
source bench/session.sh $1
timeout 60 build-cuda/bench/bench_coo -suite lap2d:200 -f tests/data/west0479.mtx.gz,tests/data/1138_bus.mtx.gz -reps 1 2>&1 | grep -vE "^\s*$" | tail -8
timeout 60 build-cuda/bench/bench_convert -suite lap2d:200 -f tests/data/west0479.mtx.gz,tests/data/1138_bus.mtx.gz -reps 1 2>&1 | grep -E "^\[|summary" | grep -v "lap3d:10"
