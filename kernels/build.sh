#!/usr/bin/env bash
# Build the aijtuned CUDA kernels.
#
#   bash kernels/build.sh [OUT]                 static library OUT/libaijtkernels.a and the device test
#                                               OUT/test_kernels (default OUT: build/kernels)
#   bash kernels/build.sh --compile-only [OUT]  only compile every kernel file (CI: nvcc, no GPU)
#
# Options (before OUT):
#   --index64     64-bit aijt_int (-DAIJT_INDEX64), for PETSc built with 64-bit indices; kernels and
#                 planner must agree
#   --resources   print ptxas register / spill / shared-memory use of every kernel
# Environment: NVCC (default nvcc), CC (default gcc) for the planner's C sources, CUDA_ARCH (default sm_90).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NVCC="${NVCC:-nvcc}"
CC="${CC:-gcc}"
ARCH="${CUDA_ARCH:-sm_90}"
PLAN_DIR="$ROOT/src/mat/impls/tuned/plan"
KDIR="$ROOT/kernels"

compile_only=0
index_flags=()
ptxas_flags=()
out=""
for arg in "$@"; do
  case "$arg" in
    --compile-only) compile_only=1 ;;
    --index64) index_flags=(-DAIJT_INDEX64) ;;
    --resources) ptxas_flags=(-Xptxas -v) ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "build.sh: unknown option $arg" >&2; exit 2 ;;
    *) out="$arg" ;;
  esac
done
out="${out:-build/kernels}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
mkdir -p "$out/obj"

# -lineinfo costs nothing at run time and lets Nsight map stalls to source lines.
NVFLAGS=(-arch="$ARCH" -O3 -std=c++17 -lineinfo -Xcompiler -fPIC -Xcompiler -Wall,-Wextra
         "${index_flags[@]}" -I"$KDIR" -I"$PLAN_DIR")

kernel_srcs=("$KDIR"/*.cu)
objs=()
for src in "${kernel_srcs[@]}"; do
  obj="$out/obj/$(basename "${src%.cu}").o"
  echo "  NVCC $(basename "$src")"
  "$NVCC" "${NVFLAGS[@]}" "${ptxas_flags[@]}" -c "$src" -o "$obj"
  objs+=("$obj")
done
[ "$compile_only" = 1 ] && exit 0

lib="$out/libaijtkernels.a"
rm -f "$lib"
ar rcs "$lib" "${objs[@]}"
echo "  AR   $lib"

# The planner, unchanged, for the test: plain C as the rest of the project compiles it.
mkdir -p "$out/obj/plan"
plan_objs=()
for src in "$PLAN_DIR"/*.c; do
  obj="$out/obj/plan/$(basename "${src%.c}").o"
  "$CC" -std=c99 -O2 -fPIC -Wall -Wextra -Wno-unused-parameter "${index_flags[@]}" -I"$PLAN_DIR" -c "$src" -o "$obj"
  plan_objs+=("$obj")
done
echo "  CC   planner (${#plan_objs[@]} files)"

echo "  NVCC tests/test_kernels.cu"
"$NVCC" "${NVFLAGS[@]}" "$KDIR/tests/test_kernels.cu" "$lib" "${plan_objs[@]}" -lm -o "$out/test_kernels"
echo "  built $out/test_kernels"
