/*
   Whether this GPU runs the library's kernels.  They are built for the architectures of the makefile's CUDA_ARCH
   (by default those PETSc was configured for); a GPU of another architecture, older, or newer where no PTX came with
   them, has no image of them, and each launch fails with cudaErrorNoKernelImageForDevice.  That came at the first
   launch, the GPU planner's at the first assembly, as PETSc's "GPU error ... 209", which names neither aijtuned's
   build nor the fix (bench/results/2026-11-28-gpu-arch).  Every .cu file is built with the same flags, so one
   kernel's image answers for all of them.
*/
#include "internal.cuh"

#ifndef AIJT_CUDA_ARCH
  #define AIJT_CUDA_ARCH "(not recorded)"
#endif

namespace aijt {

__global__ void probe_kernel(void) { }

} // namespace aijt

extern "C" cudaError_t aijt_cuda_kernels_run_here(void)
{
  cudaFuncAttributes a;
  const cudaError_t  err = cudaFuncGetAttributes(&a, aijt::probe_kernel); /* loads the module: its image for this GPU, or an error */
  if (err != cudaSuccess) (void)cudaGetLastError();                       /* an answer: not left for a later call's check to read */
  return err;
}

extern "C" const char *aijt_cuda_built_for(void)
{
  return AIJT_CUDA_ARCH;
}
