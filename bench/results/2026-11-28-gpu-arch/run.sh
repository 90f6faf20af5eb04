#!/usr/bin/env bash
# After the change: the kernels built for PETSc's architectures by default, a clear error where they have no
# image for the GPU.  run: bash run.sh OUTDIR (carry .petsc-cuda), on one H200.
#   default       run.sh's build and the whole suite; the architectures the makefile took from PETSc
#   sm_100        a library for another GPU: the demo and a two-rank solve must stop with PETSC_ERR_SUP_SYS
#   sm_80,sm_90   two architectures (a -gencode each): both images in the library, the demo's solve
set -uo pipefail
O=${1:?usage: run.sh OUTDIR}
bash bench/results/2026-11-25-h100-verify/run.sh "$O" build suite
source bench/session.sh "$O"
CO=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null)
echo "default build: $(ls build-cuda/obj/cuda-arch-*)" | tee -a "$out/run.txt"
$CO --list-elf --list-ptx build-cuda/lib/libaijtuned.so | sed 's/.*\.\(sm_[0-9a-z]*\)\..*/ELF \1/;s/.*\.\(compute_[0-9a-z]*\)\..*/PTX \1/' | sort | uniq -c | tee -a "$out/run.txt"
ex1="-dim 3 -n 32 -mat_type aijtuned -ksp_type cg -pc_type jacobi -ksp_converged_reason"
for a in sm_100 sm_80,sm_90; do
  b=build-${a/,/-}
  make -j16 PETSC_DIR=/opt/petsc-cuda BUILD=$b CUDA_ARCH=$a lib examples > "$out/make-$b.log" 2>&1; stamp "make CUDA_ARCH=$a: exit $?"
  $CO --list-elf --list-ptx $b/lib/libaijtuned.so | sed 's/.*\.\(sm_[0-9a-z]*\)\..*/ELF \1/;s/.*\.\(compute_[0-9a-z]*\)\..*/PTX \1/' | sort | uniq -c | tee -a "$out/run.txt"
  timeout 120 $b/examples/tutorials/ex1 $ex1 > "$out/ex1-$b.txt" 2>&1; stamp "ex1 ($a): exit $?"
  head -4 "$out/ex1-$b.txt"; grep -h "converged\|norm of error" "$out/ex1-$b.txt"
done
timeout 120 mpiexec --oversubscribe -n 2 build-sm_100/examples/tutorials/ex1 $ex1 > "$out/ex1-sm_100-np2.txt" 2>&1; stamp "ex1 (sm_100, 2 ranks): exit $?"
grep -h "PETSC ERROR: aijtuned\|MPI_ABORT\|errorcode" "$out/ex1-sm_100-np2.txt" | head -6
timeout 120 build-cuda/examples/tutorials/ex1 ${ex1/aijtuned/aijcusparse} > "$out/ex1-aijcusparse.txt" 2>&1; stamp "ex1 (aijcusparse): exit $?"
grep -h "converged\|norm of error" "$out/ex1-aijcusparse.txt"
gzip -9f "$out"/*.log
