#!/usr/bin/env bash
# The whole suite against a CUDA PETSc with 64-bit indices (PetscInt = int64, AIJT_INDEX64).
#   run.sh OUTDIR    carry .petsc-sdist (first time: builds the install, packs it into OUTDIR/petsc-cuda64)
#                    or .petsc-cuda64 (later: unpacks it)
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
export MAKEFLAGS=-j16 PETSC_CUDA_PREFIX=/opt/petsc-cuda64 PETSC_CUDA_STORE=.petsc-cuda64 PETSC_CONFIGURE_EXTRA=--with-64-bit-indices
source bench/session.sh "$O"
export PETSC_DIR=/opt/petsc-cuda64
{ commit_line; nvidia-smi --query-gpu=name --format=csv,noheader | head -1; } | tee -a "$out/run.txt"
if ls .petsc-cuda64/install.tar.xz.* > /dev/null 2>&1; then
  bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
else
  bash config/build-petsc-cuda.sh build > "$out/petsc-build.txt" 2>&1 || { tail -20 "$out/petsc-build.txt"; exit 1; }
  grep -E " s$" "$out/petsc-build.txt"; mkdir -p "$out/petsc-cuda64"; cp .petsc-cuda64/install.tar.xz.* "$out/petsc-cuda64/"
fi
stamp "PETSc with 64-bit indices at $PETSC_DIR: $(grep -c 'define PETSC_USE_64BIT_INDICES 1' $PETSC_DIR/include/petscconf.h) (1: yes)"
make PETSC_DIR=$PETSC_DIR BUILD=build-cuda64 all > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
gzip -9f "$out/make.log"; stamp build
timeout 300 python3 tests/run.py --build build-cuda64 --mpiexec "mpiexec --oversubscribe --bind-to none" -j 14 > "$out/suite.txt" 2>&1
tail -1 "$out/suite.txt" | tee -a "$out/run.txt"; grep -A8 "^not ok" "$out/suite.txt" | head -60
gzip -9f "$out/suite.txt"
stamp suite
