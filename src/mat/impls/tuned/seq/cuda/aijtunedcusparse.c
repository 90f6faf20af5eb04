/*
   cuSPARSE's CSR product over the matrix itself (CUSPARSE_SPMV_CSR_ALG1 with its preprocessing, what
   aijcusparse runs): run-time tuning's last candidate against the strips (plan/tuner.c), and the whole
   product where it won or where -mat_aijtuned_cusparse always asks for it.

   It reads the CSR that the GPU build uploads: the offsets and columns the build reads once and would
   free (kept here, 4 bytes per entry), and the values the device keeps for refills (AIJTunedDevice
   values), so a values-only re-assembly reaches it as it reaches the strips.  The descriptors of x and y,
   the work buffer and the preprocessing are made at its first product, as aijcusparse makes them;
   later products only point the descriptors at the vectors: no allocation, no copy between host and
   device, no synchronization.  Where the strips win, the arrays are freed in stream order
   (MatSeqAIJTunedCusparseRelease) and only the handle stays until the device copies go.
*/
#include "aijtunedcuda.h"

struct _n_AIJTunedCusparse {
  cusparseHandle_t     handle;
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t x, y;
  aijt_int            *rowptr, *colidx; /* device, owned */
  void                *buffer;
  aijt_int             nrows, ncols;
  PetscBool            prepared; /* x, y, buffer and preprocessing made */
};

#define IndexType() (sizeof(aijt_int) == 8 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I)

PetscErrorCode MatSeqAIJTunedCusparseCreate(const aijt_csr *A, aijt_int *rowptr, aijt_int *colidx, double *values, cudaStream_t stream, AIJTunedCusparse *c)
{
  AIJTunedCusparse v;

  PetscFunctionBegin;
  PetscCall(PetscNew(&v));
  v->rowptr = rowptr;
  v->colidx = colidx;
  v->nrows  = A->nrows;
  v->ncols  = A->ncols;
  PetscCallCUSPARSE(cusparseCreate(&v->handle));
  PetscCallCUSPARSE(cusparseSetStream(v->handle, stream));
  PetscCallCUSPARSE(cusparseCreateCsr(&v->mat, A->nrows, A->ncols, A->rowptr[A->nrows], rowptr, colidx, values, IndexType(), IndexType(), CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  *c = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The device arrays and descriptors go (in stream order: no wait); the handle stays for Destroy. */
PetscErrorCode MatSeqAIJTunedCusparseRelease(AIJTunedCusparse c, cudaStream_t stream)
{
  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  if (c->mat) PetscCallCUSPARSE(cusparseDestroySpMat(c->mat));
  if (c->x) PetscCallCUSPARSE(cusparseDestroyDnVec(c->x));
  if (c->y) PetscCallCUSPARSE(cusparseDestroyDnVec(c->y));
  if (c->rowptr) PetscCallCUDA(cudaFreeAsync(c->rowptr, stream));
  if (c->colidx) PetscCallCUDA(cudaFreeAsync(c->colidx, stream));
  if (c->buffer) PetscCallCUDA(cudaFreeAsync(c->buffer, stream));
  c->mat = NULL, c->x = c->y = NULL, c->rowptr = c->colidx = NULL, c->buffer = NULL;
  c->prepared = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedCusparseDestroy(AIJTunedCusparse *c, cudaStream_t stream)
{
  PetscFunctionBegin;
  if (!*c) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJTunedCusparseRelease(*c, stream));
  PetscCallCUSPARSE(cusparseDestroy((*c)->handle));
  PetscCall(PetscFree(*c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool MatSeqAIJTunedCusparseReady(AIJTunedCusparse c)
{
  return (PetscBool)(c && c->mat);
}

/* y = A x (z NULL), or y = A x + z. */
PetscErrorCode MatSeqAIJTunedCusparseMult(AIJTunedCusparse c, const double *x, const double *z, double *y, cudaStream_t stream)
{
  const double one = 1.0, beta = z ? 1.0 : 0.0; /* y = A x + beta y, y holding z */

  PetscFunctionBegin;
  PetscCheck(c && c->mat, PETSC_COMM_SELF, PETSC_ERR_PLIB, "aijtuned: cuSPARSE's product was released");
  if (z && z != y && c->nrows) PetscCallCUDA(cudaMemcpyAsync(y, z, (size_t)c->nrows * sizeof(double), cudaMemcpyDeviceToDevice, stream));
  PetscCallCUSPARSE(cusparseSetStream(c->handle, stream));
  if (!c->prepared) { /* the first product: what aijcusparse makes at its first */
    size_t bytes = 0;
    PetscCallCUSPARSE(cusparseCreateDnVec(&c->x, c->ncols, (void *)x, CUDA_R_64F));
    PetscCallCUSPARSE(cusparseCreateDnVec(&c->y, c->nrows, (void *)y, CUDA_R_64F));
    PetscCallCUSPARSE(cusparseSpMV_bufferSize(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->mat, c->x, &beta, c->y, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, &bytes));
    PetscCallCUDA(cudaMallocAsync(&c->buffer, bytes ? bytes : 1, stream));
    PetscCallCUSPARSE(cusparseSpMV_preprocess(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->mat, c->x, &beta, c->y, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, c->buffer));
    c->prepared = PETSC_TRUE;
  } else {
    PetscCallCUSPARSE(cusparseDnVecSetValues(c->x, (void *)x));
    PetscCallCUSPARSE(cusparseDnVecSetValues(c->y, (void *)y));
  }
  PetscCallCUSPARSE(cusparseSpMV(c->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->mat, c->x, &beta, c->y, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, c->buffer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
