/*
   This process's GPU: its name, which picks the performance model, and whether it runs aijtuned's kernels.

   The kernels are built for the architectures of the makefile's CUDA_ARCH, by default those PETSc was configured for,
   so they run wherever PETSc's own do.  A library built for others (CUDA_ARCH=sm_100 on an H200) stopped at the GPU
   planner's first launch with PETSc's "GPU error ... 209 (cudaErrorNoKernelImageForDevice)", which named neither
   aijtuned's build nor the fix (bench/results/2026-11-28-gpu-arch).  Now the first aijtuned matrix on the GPU asks
   once, and the program stops there with what to build.
*/
#include "aijtunedcuda.h"

/* The name of the GPU this process uses ("" when there is none), to pick its performance model. */
PetscErrorCode MatAIJTunedCUDADeviceName(char name[], size_t len)
{
  int                   count = 0, dev = 0;
  struct cudaDeviceProp prop;

  PetscFunctionBegin;
  name[0] = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1 || cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    (void)cudaGetLastError(); /* no device here: not an error, the nearest model plans */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrncpy(name, prop.name, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSC_ERR_SUP_SYS where this process's GPU has no image of aijtuned's kernels; asked once a process.  Any other
   answer (no device: PETSc's CUDA base says so itself) lets the matrix go on as before. */
PetscErrorCode MatAIJTunedCUDACheckKernels(void)
{
  static PetscBool checked = PETSC_FALSE;
  cudaError_t      err;
  int              dev = 0, major = 0, minor = 0;
  char             name[256];

  PetscFunctionBegin;
  if (checked) PetscFunctionReturn(PETSC_SUCCESS);
  err = aijt_cuda_kernels_run_here();
  if (err != cudaErrorNoKernelImageForDevice && err != cudaErrorInvalidDeviceFunction) {
    checked = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatAIJTunedCUDADeviceName(name, sizeof(name)));
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess || cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) (void)cudaGetLastError();
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP_SYS,
          "aijtuned's CUDA kernels were built for %s; this GPU, %s (compute capability %d.%d), has no image of them (%s). Build aijtuned again for it: make CUDA_ARCH=sm_%d%d (by default the architectures PETSc was configured with, --with-cuda-arch); or use -mat_type aijcusparse",
          aijt_cuda_built_for(), name[0] ? name : "(unnamed)", major, minor, cudaGetErrorName(err), major, minor);
}
