/*
   The diagonal of seqaijtuned on the GPU, read from and written to the base's device values where they hold the
   matrix's values: MatShift (every row holding its diagonal entry) and MatGetDiagonal (into a vector on the GPU).

   PETSc 3.24's cuSPARSE type has no MatShift of its own: AIJ's adds a row at a time through MatSetValues on the
   host, whose first call copies every value down from the device, and the next product copies them all up again.
   A time step of a linear problem with a constant right-hand-side Jacobian scales and shifts its operator twice
   (TSComputeIJacobian), so each step paid two round trips of the whole value array for aijcusparse, and for
   aijtuned as well.  Here a kernel adds a to the diagonal entries on the device (kernels/csr_diagonal.cu): the same
   one rounding per value as the host's ADD_VALUES.  aijtuned's own copies then refill from the base's device
   values at the next product, as after MatScale.  Elsewhere (values on the host alone, a row without its diagonal
   entry, which the base's MatShift inserts, a matrix bound to the CPU) the base's MatShift runs.  An MPI matrix
   whose rows and columns are split alike holds its diagonal in its diagonal blocks: mpiaijtuned shifts them so when
   every rank's can be (MatShift_MPIAIJTuned).

   Nor has it a MatGetDiagonal: AIJ's reads the host's values, and after values changed on the GPU (MatShift,
   MatScale, MatAXPY there) it copies all of them down first.  Jacobi's setup at each time step took PETSc's TS ex4
   (4M rows) 25 ms of its 66 ms step that way (bench/results/2026-11-26-ts-ex4-log).  Here a kernel copies each row's
   diagonal value into the vector on the device (0 where the row has none, as AIJ); with the vector or the values on
   the host alone the base's runs.  mpiaijtuned's MatGetDiagonal is MPIAIJ's, which asks the diagonal block.
*/
#include "aijtunedcuda.h"

/* Whether each row i < min(rows, columns) of A holds its diagonal entry: a bisection per row over the host's
   structure (AIJ keeps each row's columns sorted; the values are not read), once per pattern. */
static PetscErrorCode DiagonalDense(Mat A, Mat_SeqAIJTuned *ctx, PetscBool *dense)
{
  const PetscInt  n = PetscMin(A->rmap->n, A->cmap->n);
  const PetscInt *ia, *ja;
  PetscInt        m;
  PetscBool       done;

  PetscFunctionBegin;
  *dense = (PetscBool)(ctx->diag_pattern == A->nonzerostate + 1);
  if (*dense) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  *dense = done;
  for (PetscInt i = 0; i < n && *dense; i++) {
    PetscInt lo = ia[i], hi = ia[i + 1] - 1;
    while (lo < hi) {
      const PetscInt mid = lo + (hi - lo) / 2;
      if (ja[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    *dense = (PetscBool)(lo == hi && ja[lo] == i);
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  if (*dense) ctx->diag_pattern = A->nonzerostate + 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether MatSeqAIJTunedCUDAShift can shift A on the device: its values are current there and every row holds its
   diagonal entry (true with no rows: nothing to do).  The MPI type asks every rank's diagonal block before any shifts,
   since the base's MatShift assembles, on every rank. */
PetscErrorCode MatSeqAIJTunedCUDAShiftable(Mat A, Mat_SeqAIJTuned *ctx, PetscBool *can)
{
  PetscFunctionBegin;
  *can = (PetscBool)(PetscMin(A->rmap->n, A->cmap->n) == 0);
  if (*can || !MatAIJTunedBaseDeviceUsable(A)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DiagonalDense(A, ctx, can));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A's diagonal shifted by a on the device (the base's values), where MatSeqAIJTunedCUDAShiftable says it can be:
   *done; else the caller runs the base's MatShift */
PetscErrorCode MatSeqAIJTunedCUDAShift(Mat A, Mat_SeqAIJTuned *ctx, PetscScalar a, PetscBool *done)
{
  const PetscInt n = PetscMin(A->rmap->n, A->cmap->n);
  const int     *ai, *aj;
  PetscScalar   *av;
  cudaStream_t   stream;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedCUDAShiftable(A, ctx, done));
  if (!*done || !n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSEGetIJ(A, PETSC_FALSE, &ai, &aj));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSEGetArray(A, &av));
  PetscCall(PetscLogGpuTimeBegin());
  PetscCallCUDA(aijt_dev_csr_shift(ai, aj, (double *)av, (aijt_int)n, (double)PetscRealPart(a), stream));
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogGpuFlops((PetscLogDouble)n));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSERestoreArray(A, &av));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSERestoreIJ(A, PETSC_FALSE, &ai, &aj));
  PetscCall(PetscInfo(A, "MatShift on the GPU: %" PetscInt_FMT " diagonal entries\n", n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A's diagonal into v on the device, where A's values are current there and v lives there: *done; else the caller
   runs the base's MatGetDiagonal. */
PetscErrorCode MatSeqAIJTunedCUDAGetDiagonal(Mat A, Vec v, PetscBool *done)
{
  const int         *ai, *aj;
  const PetscScalar *av;
  PetscScalar       *d;
  PetscMemType       mtype;
  cudaStream_t       stream;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!A->rmap->n || !MatAIJTunedBaseDeviceUsable(A)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetArrayWriteAndMemType(v, &d, &mtype));
  if (!PetscMemTypeDevice(mtype)) {
    PetscCall(VecRestoreArrayWriteAndMemType(v, &d));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSEGetIJ(A, PETSC_FALSE, &ai, &aj));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSEGetArrayRead(A, &av));
  PetscCall(PetscLogGpuTimeBegin());
  PetscCallCUDA(aijt_dev_csr_diagonal(ai, aj, (const double *)av, (aijt_int)A->rmap->n, (aijt_int)A->cmap->n, (double *)d, stream));
  PetscCall(PetscLogGpuTimeEnd());
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSERestoreArrayRead(A, &av));
  MatAIJTunedDebugAsBase(A, NULL, MatAIJTunedNameAsBase, MatSeqAIJCUSPARSERestoreIJ(A, PETSC_FALSE, &ai, &aj));
  PetscCall(VecRestoreArrayWriteAndMemType(v, &d));
  PetscCall(PetscInfo(A, "MatGetDiagonal on the GPU: %" PetscInt_FMT " rows\n", A->rmap->n));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
