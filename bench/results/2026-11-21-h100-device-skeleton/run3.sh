#!/usr/bin/env bash
# The whole test suite again on the warm lease of run2.sh (its 200 s limit had cut it short), as the device
# tool ran it: raw3/.  usage: bash bench/results/2026-11-21-h100-device-skeleton/run3.sh OUTDIR
R=${1:?usage: run3.sh OUTDIR}
source bench/session.sh "$R" && export MAKEFLAGS=-j16 && (make BUILD=build-cuda all > "$R/make.log" 2>&1; tail -1 "$R/make.log") && timeout 400 python3 tests/run.py --build build-cuda --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$R/suite.txt" 2>&1; tail -1 "$R/suite.txt"; grep -A20 "^not ok" "$R/suite.txt" | head -60; tail -3 "$R/suite.txt" > "$R/tail.txt"; rm "$R/suite.txt"; stamp done
