#!/usr/bin/env bash
# Installs what aijtuned needs to build, demo and test, and nothing that is already there.
#   - with PETSC_DIR (and PETSC_ARCH) pointing at a PETSc of your own, only the tools are checked;
#   - otherwise Debian's PETSc (petsc-dev), its examples (PETSc's test language and tutorials) and OpenMPI.
# Safe to run any number of times.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

for tool in make python3 gzip; do
  command -v "$tool" >/dev/null || need+=("$tool")
done
if [ -n "${PETSC_DIR:-}" ] && [ -f "$PETSC_DIR/${PETSC_ARCH:-}/lib/petsc/conf/petscvariables" ]; then
  echo "config: using PETSc at PETSC_DIR=$PETSC_DIR PETSC_ARCH=${PETSC_ARCH:-}"
else
  for pkg in petsc-dev libpetsc3.18-dev-examples openmpi-bin libopenmpi-dev; do
    have_pkg "$pkg" || need+=("$pkg")
  done
fi
command -v mpiexec >/dev/null || need+=(openmpi-bin)

if [ ${#need[@]} -eq 0 ]; then
  echo "config: all dependencies present"
  exit 0
fi
echo "config: installing ${need[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "config: done"
