#include "rawcusparse.h"
#include "sellpack.h"
#include <petscdevice_cuda.h>

const char *const RawAlgName[RAW_NALGS] = {"csr_alg1", "csr_alg2", "sell_alg1"};

#define SELL_SLICE 32

/* In setup, a cuSPARSE status other than success makes this baseline unavailable on this matrix (with
   the reason) instead of failing the matrix: the PETSc formats measured before it still count. */
#define RawTry(r, ok, reason, len, what, call) \
  do { \
    cusparseStatus_t st_ = (call); \
    if (st_ != CUSPARSE_STATUS_SUCCESS) { \
      PetscCall(PetscSNPrintf(reason, len, "%s: %s", what, cusparseGetErrorString(st_))); \
      PetscCall(RawCusparseTeardown(r)); \
      *(ok) = PETSC_FALSE; \
      PetscFunctionReturn(PETSC_SUCCESS); \
    } \
  } while (0)

struct _n_RawCusparse {
  cusparseHandle_t          handle;
  const matgen_csr         *A;
  int32_t                  *rowptr, *col; /* device CSR, kept while the matrix is set */
  double                   *val;
  int32_t                  *sell_off, *sell_col; /* device SELL, only while RAW_SELL_ALG1 is set up */
  double                   *sell_val;
  cusparseConstSpMatDescr_t mat;
  cusparseConstDnVecDescr_t x;
  cusparseDnVecDescr_t      y;
  void                     *buffer;
  cusparseSpMVAlg_t         alg;
  PetscBool                 ready;
};

PetscErrorCode RawCusparseCreate(RawCusparse *r)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(r));
  PetscCallCUSPARSE(cusparseCreate(&(*r)->handle));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RawCusparseDestroy(RawCusparse *r)
{
  PetscFunctionBegin;
  if (!*r) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(RawCusparseClearMatrix(*r));
  PetscCallCUSPARSE(cusparseDestroy((*r)->handle));
  PetscCall(PetscFree(*r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A device allocation that may fail for lack of memory without failing the run: that baseline is skipped. */
static PetscErrorCode TryMalloc(void **p, size_t bytes, PetscBool *ok)
{
  cudaError_t err;

  PetscFunctionBegin;
  *p  = NULL;
  err = cudaMalloc(p, bytes ? bytes : 1);
  if (err == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); /* not a sticky error: clear it and go on */
    *ok = PETSC_FALSE;
    *p  = NULL;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallCUDA(err);
  *ok = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device copies of A's CSR with 32-bit offsets, which cuSPARSE's 32-bit CSR wants for both index arrays. */
PetscErrorCode RawCusparseSetMatrix(RawCusparse r, const matgen_csr *A)
{
  int32_t  *rowptr;
  PetscBool ok[3];

  PetscFunctionBegin;
  PetscCall(RawCusparseClearMatrix(r));
  PetscCheck(A->nnz <= INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%lld entries: too many for 32-bit CSR offsets", (long long)A->nnz);
  PetscCall(PetscMalloc1(A->nrows + 1, &rowptr));
  for (int64_t i = 0; i <= A->nrows; i++) rowptr[i] = (int32_t)A->rowptr[i];
  PetscCall(TryMalloc((void **)&r->rowptr, (size_t)(A->nrows + 1) * sizeof(int32_t), &ok[0]));
  PetscCall(TryMalloc((void **)&r->col, (size_t)A->nnz * sizeof(int32_t), &ok[1]));
  PetscCall(TryMalloc((void **)&r->val, (size_t)A->nnz * sizeof(double), &ok[2]));
  PetscCheck(ok[0] && ok[1] && ok[2], PETSC_COMM_SELF, PETSC_ERR_MEM, "No device memory for the raw cuSPARSE CSR");
  PetscCallCUDA(cudaMemcpy(r->rowptr, rowptr, (size_t)(A->nrows + 1) * sizeof(int32_t), cudaMemcpyHostToDevice));
  PetscCallCUDA(cudaMemcpy(r->col, A->col, (size_t)A->nnz * sizeof(int32_t), cudaMemcpyHostToDevice));
  PetscCallCUDA(cudaMemcpy(r->val, A->val, (size_t)A->nnz * sizeof(double), cudaMemcpyHostToDevice));
  PetscCall(PetscFree(rowptr));
  r->A = A;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RawCusparseClearMatrix(RawCusparse r)
{
  PetscFunctionBegin;
  PetscCall(RawCusparseTeardown(r));
  PetscCallCUDA(cudaFree(r->rowptr));
  PetscCallCUDA(cudaFree(r->col));
  PetscCallCUDA(cudaFree(r->val));
  r->rowptr = r->col = NULL;
  r->val             = NULL;
  r->A               = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RawCusparseTeardown(RawCusparse r)
{
  PetscFunctionBegin;
  if (r->mat) PetscCallCUSPARSE(cusparseDestroySpMat(r->mat));
  if (r->x) PetscCallCUSPARSE(cusparseDestroyDnVec(r->x));
  if (r->y) PetscCallCUSPARSE(cusparseDestroyDnVec(r->y));
  PetscCallCUDA(cudaFree(r->buffer));
  PetscCallCUDA(cudaFree(r->sell_off));
  PetscCallCUDA(cudaFree(r->sell_col));
  PetscCallCUDA(cudaFree(r->sell_val));
  r->mat      = NULL;
  r->x        = NULL;
  r->y        = NULL;
  r->buffer   = NULL;
  r->sell_off = r->sell_col = NULL;
  r->sell_val               = NULL;
  r->ready                  = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SELL-32 on the device, or *ok false with the reason: slices padded to their longest row can be many
   times the matrix (a power-law hub pads its whole slice), so past max_fill stored entries per nonzero
   the baseline is skipped rather than spending gigabytes and seconds on it. */
static PetscErrorCode UploadSell(RawCusparse r, PetscReal max_fill, PetscBool *ok, char reason[], size_t len)
{
  const matgen_csr *A = r->A;
  sellpack          S;
  int64_t           size;
  int               err;
  PetscBool         got[3];

  PetscFunctionBegin;
  err = sellpack_build(A, SELL_SLICE, &S);
  *ok = (PetscBool)!err;
  if (err) {
    PetscCall(PetscSNPrintf(reason, len, err == 1 ? "no host memory for SELL-%d" : "SELL-%d exceeds 32-bit offsets", SELL_SLICE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if ((PetscReal)S.size > max_fill * (PetscReal)PetscMax(A->nnz, 1)) {
    PetscCall(PetscSNPrintf(reason, len, "SELL-%d stores %.1fx the entries (-sell_max_fill %.1f)", SELL_SLICE, (double)S.size / (double)PetscMax(A->nnz, 1), (double)max_fill));
    sellpack_free(&S);
    *ok = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(TryMalloc((void **)&r->sell_off, (size_t)(S.nslices + 1) * sizeof(int32_t), &got[0]));
  PetscCall(TryMalloc((void **)&r->sell_col, (size_t)S.size * sizeof(int32_t), &got[1]));
  PetscCall(TryMalloc((void **)&r->sell_val, (size_t)S.size * sizeof(double), &got[2]));
  *ok = (PetscBool)(got[0] && got[1] && got[2]);
  if (*ok) {
    PetscCallCUDA(cudaMemcpy(r->sell_off, S.offsets, (size_t)(S.nslices + 1) * sizeof(int32_t), cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(r->sell_col, S.col, (size_t)S.size * sizeof(int32_t), cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(r->sell_val, S.val, (size_t)S.size * sizeof(double), cudaMemcpyHostToDevice));
  } else PetscCall(PetscSNPrintf(reason, len, "no device memory for SELL-%d", SELL_SLICE));
  size = S.size;
  sellpack_free(&S);
  if (*ok) RawTry(r, ok, reason, len, "cusparseCreateConstSlicedEll", cusparseCreateConstSlicedEll(&r->mat, A->nrows, A->ncols, A->nnz, size, SELL_SLICE, r->sell_off, r->sell_col, r->sell_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Descriptors, external buffer and preprocessing for one algorithm, with x and y device arrays that
  stay put until RawCusparseTeardown().  *ok false (with the reason) when this baseline cannot run on
  this matrix: a cuSPARSE status other than success, no device memory, SELL too large; CUDA errors fail.
*/
PetscErrorCode RawCusparseSetup(RawCusparse r, RawAlg alg, PetscReal max_fill, const PetscScalar *dx, PetscScalar *dy, PetscBool *ok, char reason[], size_t len)
{
  const matgen_csr *A     = r->A;
  const double      one   = 1.0, zero = 0.0;
  size_t            bytes = 0;
  cudaStream_t      stream;

  PetscFunctionBegin;
  PetscCheck(A, PETSC_COMM_SELF, PETSC_ERR_ORDER, "RawCusparseSetMatrix() first");
  PetscCall(RawCusparseTeardown(r));
  reason[0] = 0;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUSPARSE(cusparseSetStream(r->handle, stream));
  r->alg = alg == RAW_CSR_ALG1 ? CUSPARSE_SPMV_CSR_ALG1 : alg == RAW_CSR_ALG2 ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_SELL_ALG1;
  if (alg == RAW_SELL_ALG1) {
    PetscCall(UploadSell(r, max_fill, ok, reason, len));
    if (!*ok) PetscFunctionReturn(PETSC_SUCCESS);
  } else RawTry(r, ok, reason, len, "cusparseCreateConstCsr", cusparseCreateConstCsr(&r->mat, A->nrows, A->ncols, A->nnz, r->rowptr, r->col, r->val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  RawTry(r, ok, reason, len, "cusparseCreateConstDnVec", cusparseCreateConstDnVec(&r->x, A->ncols, dx, CUDA_R_64F));
  RawTry(r, ok, reason, len, "cusparseCreateDnVec", cusparseCreateDnVec(&r->y, A->nrows, dy, CUDA_R_64F));
  RawTry(r, ok, reason, len, "cusparseSpMV_bufferSize", cusparseSpMV_bufferSize(r->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, r->mat, r->x, &zero, r->y, CUDA_R_64F, r->alg, &bytes));
  PetscCall(TryMalloc(&r->buffer, bytes, ok));
  if (!*ok) {
    PetscCall(PetscSNPrintf(reason, len, "no device memory for the %zu-byte SpMV buffer", bytes));
    PetscCall(RawCusparseTeardown(r));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if CUSPARSE_VERSION >= 12400
  /* analysis once, as a solver would do before its iterations; not every algorithm has any */
  cusparseStatus_t st = cusparseSpMV_preprocess(r->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, r->mat, r->x, &zero, r->y, CUDA_R_64F, r->alg, r->buffer);
  if (st != CUSPARSE_STATUS_NOT_SUPPORTED) RawTry(r, ok, reason, len, "cusparseSpMV_preprocess", st);
#endif
  r->ready = PETSC_TRUE;
  *ok      = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode RawCusparseMult(void *ctx)
{
  RawCusparse  r   = (RawCusparse)ctx;
  const double one = 1.0, zero = 0.0;

  PetscFunctionBegin;
  PetscCheck(r->ready, PETSC_COMM_SELF, PETSC_ERR_ORDER, "RawCusparseSetup() first");
  PetscCallCUSPARSE(cusparseSpMV(r->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, r->mat, r->x, &zero, r->y, CUDA_R_64F, r->alg, r->buffer));
  PetscFunctionReturn(PETSC_SUCCESS);
}
