set -uo pipefail
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
export PETSC_DIR=/opt/petsc-cuda
make BUILD=build-cuda -j16 build-cuda/bench/bench_plan_gpu > /tmp/make.log 2>&1 || { tail -n 20 /tmp/make.log; exit 1; }
model=models/$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/[^A-Za-z0-9]/-/g').model
timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum --csv build-cuda/bench/bench_plan_gpu -model $model -reps 1 circuit > $OUT/ncu-circuit.csv 2>$OUT/ncu-circuit.err
echo rc $?
python3 - $OUT/ncu-circuit.csv <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; rows = rows[1:]
ki, vi = h.index("Kernel Name"), h.index("Metric Value")
for i, r in enumerate(rows):
    print(i, r[ki][:90], r[vi])
PY
