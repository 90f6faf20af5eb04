/*
   MatZeroEntries of seqaijtuned on the GPU: the base's device values zeroed where they are, the host's left to be
   copied down when read.

   aijcusparse's MatZeroEntries zeroes its device values and then the host's array too: a host pass over every
   value (9.5 ms for 12M entries).  TS zeroes its implicit Jacobian that way at every step before it shifts it and
   adds the right-hand side's Jacobian on the GPU (TSComputeIJacobian), twice a step where Amat and Pmat differ:
   19 of the 33 ms of PETSc's TS ex4 step at 4M points once MatShift and MatGetDiagonal ran on the GPU
   (bench/results/2026-11-26-ts-ex4-log).  Here only the device values are zeroed, and the matrix is left as after
   any operation of the base on the GPU (MatScale, MatAXPY): its host values are copied down when the host reads
   or writes them (MatSeqAIJGetArray, which MatSetValues calls first), and the restore invalidates the cached
   diagonal and the transpose, as the base's own device writes do.  Where the device values are not current (never
   uploaded, or a matrix bound to the CPU) the base's MatZeroEntries runs.
*/
#include "aijtunedcuda.h"

/* A's device values zeroed, where they hold A's values: *done; else the caller runs the base's */
PetscErrorCode MatSeqAIJTunedCUDAZeroEntries(Mat A, PetscBool *done)
{
  MatInfo      info;
  PetscScalar *av;
  cudaStream_t stream;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!MatAIJTunedBaseDeviceUsable(A)) PetscFunctionReturn(PETSC_SUCCESS); /* a factor is never aijtuned: it went back to its base */
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info)); /* O(1) for AIJ: its entries' count */
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSEGetArrayWrite(A, &av));
  if (info.nz_used > 0) PetscCallCUDA(cudaMemsetAsync(av, 0, (size_t)info.nz_used * sizeof(PetscScalar), stream));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSERestoreArrayWrite(A, &av));
  PetscCall(PetscInfo(A, "MatZeroEntries on the GPU: %.0f entries\n", (double)info.nz_used));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
