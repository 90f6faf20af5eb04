#!/usr/bin/env bash
# The whole suite against a debug PETSc 3.24.6 (--with-debugging=1: argument, state and collective checks,
# PETSc's checking malloc), each test with -malloc_dump (memory left unfreed at PetscFinalize is printed, so
# the test's output differs) and -malloc_debug (the heap checked at each free).
#   run.sh OUTDIR gpu     the GPU machine: builds a CUDA PETSc so (carry .petsc-sdist; or .petsc-cuda-dbg, the install
#                         it packs into OUTDIR/petsc-cuda-dbg), then the suite
#   (SUITE_PATTERN=coo: only the tests whose label holds it)
#   run.sh OUTDIR host    here: a debug PETSc without CUDA built beforehand at $PETSC_DBG (default /opt/petsc-dbg):
#                         ./configure --prefix=/opt/petsc-dbg --with-debugging=1 --with-fc=0 --with-x=0 \
#                                     --with-shared-libraries=1 --with-cc=mpicc --with-cxx=mpicxx; make; make install
set -uo pipefail
O=${1:?usage: run.sh OUTDIR gpu|host}; where=${2:?usage: run.sh OUTDIR gpu|host}
cd "$(dirname "$0")/../../.." || exit 1
mkdir -p "$O"; out=$(cd "$O" && pwd)
if [ "$where" = gpu ]; then
  export MAKEFLAGS=-j16 PETSC_CUDA_PREFIX=/opt/petsc-cuda-dbg PETSC_CUDA_STORE=.petsc-cuda-dbg PETSC_CONFIGURE_EXTRA=--with-debugging=1
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tee -a "$out/run.txt"
  if ls .petsc-cuda-dbg/install.tar.xz.* > /dev/null 2>&1; then bash config/build-petsc-cuda.sh unpack > /dev/null || exit 1
  else
    bash config/build-petsc-cuda.sh build > "$out/petsc-build.txt" 2>&1 || { tail -20 "$out/petsc-build.txt"; exit 1; }
    grep -E " s$" "$out/petsc-build.txt" | tee -a "$out/run.txt"; mkdir -p "$out/petsc-cuda-dbg"; cp .petsc-cuda-dbg/install.tar.xz.* "$out/petsc-cuda-dbg/"
  fi
  export PETSC_DIR=/opt/petsc-cuda-dbg PETSC_OPTIONS="-use_gpu_aware_mpi 0 -malloc_dump -malloc_debug" build=build-cuda-dbg jobs=14
  mpi="mpiexec --oversubscribe --bind-to none"
else
  export PETSC_DIR=${PETSC_DBG:-/opt/petsc-dbg} PETSC_OPTIONS="-malloc_dump -malloc_debug" build=/tmp/aijtuned-build-dbg jobs=2
  mpi="mpiexec --oversubscribe"
fi
echo "debug PETSc: $(grep -c 'define PETSC_USE_DEBUG 1' $PETSC_DIR/include/petscconf.h) (1: yes), PETSC_OPTIONS=$PETSC_OPTIONS" | tee -a "$out/run.txt"
make PETSC_DIR=$PETSC_DIR BUILD=$build all > "$out/make.log" 2>&1 || { tail -30 "$out/make.log"; exit 1; }
grep -i warning "$out/make.log"; gzip -9f "$out/make.log"
PYTHONUNBUFFERED=1 timeout ${SUITE_TIMEOUT:-420} python3 tests/run.py --build $build --mpiexec "$mpi" -j $jobs ${SUITE_PATTERN:-} > "$out/suite.txt" 2>&1
tail -1 "$out/suite.txt" | tee -a "$out/run.txt"; grep "^not ok" "$out/suite.txt" | tee -a "$out/run.txt"
gzip -9f "$out/suite.txt"
