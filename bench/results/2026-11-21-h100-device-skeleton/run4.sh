#!/usr/bin/env bash
# After test_kernels waited for the hot columns before reading them back (the race run3's suite showed):
# the whole suite with test_kernels run beside it, under the same load: raw4/.
#   usage: bash bench/results/2026-11-21-h100-device-skeleton/run4.sh OUTDIR
R=${1:?usage: run4.sh OUTDIR}
source bench/session.sh "$R" && export MAKEFLAGS=-j16 && (make BUILD=build-cuda all > "$R/make.log" 2>&1; tail -1 "$R/make.log") && ( (cd tests/planner && ../../build-cuda/tests/kernels/test_kernels > "$R/kernels-loaded.txt" 2>&1) & timeout 400 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; wait ); tail -1 "$R/suite.txt"; grep -A4 "^not ok" "$R/suite.txt" | head -20; echo "standalone under load: $(tail -1 "$R/kernels-loaded.txt")"; grep -B4 "^FAIL" "$R/kernels-loaded.txt" | head -40; tail -3 "$R/suite.txt" > "$R/tail.txt"; rm "$R/suite.txt"; stamp done
