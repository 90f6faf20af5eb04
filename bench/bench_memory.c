static char help[] = "Device memory a matrix takes on one GPU, aijcusparse against aijtuned in one process, stage by stage:\n\
assembled on the host, its first product, 30 more (tuning), new host values and a product, a TS step's\n\
base operations (MatShift, MatScale, MatGetDiagonal) and a product, MatMultTranspose, and destroyed.\n\
At each stage: the device's used memory beyond the start (cudaMemGetInfo, the memory pool's idle memory\n\
included: PETSc keeps what is freed to the pool, release threshold UINT64_MAX), then the same after the pool\n\
is trimmed (what the matrix holds), in MB and bytes per entry.  Each format starts from a trimmed pool.\n\
  -f <files>, -suite name[:size],... : the matrices (as bench_spmv; default lap3d and circuit)\n\
  -trim <bool> : trim the pool at every stage (default true); false: only at each format's start, so that each\n\
                 stage shows what the process keeps from all stages before it\n\n";

#include <petscmataijtuned.h>
#include <petscdevice_cuda.h>
#include "benchmat.h"
#include "timing.h"

static const MatType Formats[] = {MATSEQAIJCUSPARSE, MATAIJTUNED};
#define NFORMATS 2
static PetscBool Trim = PETSC_TRUE;

/* Used device memory, the pool's idle memory included; then with the pool trimmed (where trim) */
static PetscErrorCode Used(size_t *held, size_t *live, PetscBool trim)
{
  size_t        free_bytes, total;
  cudaMemPool_t pool;
  int           dev;

  PetscFunctionBegin;
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(BenchDeviceMemory(&free_bytes, &total));
  *held = *live = total - free_bytes;
  if (!trim) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetMemPool(&pool, dev));
  PetscCallCUDA(cudaMemPoolTrimTo(pool, 0));
  PetscCall(BenchDeviceMemory(&free_bytes, &total));
  *live = total - free_bytes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Report(const char *name, const char *format, const char *stage, size_t start, int64_t nnz)
{
  size_t    held, live;
  const double mb = 1048576.0;

  PetscFunctionBegin;
  PetscCall(Used(&held, &live, Trim));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-24s %-12s %-30s %10.1f %8.2f %10.1f %8.2f\n", name, format, stage, ((double)held - (double)start) / mb, ((double)held - (double)start) / (double)nnz,
                        ((double)live - (double)start) / mb, ((double)live - (double)start) / (double)nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* New values for the same pattern, row by row from the host as an application's next assembly sets them */
static PetscErrorCode NewValues(Mat A, const matgen_csr *C, PetscScalar factor)
{
  PetscInt    *cols;
  PetscScalar *vals;
  int64_t      maxlen = 0;

  PetscFunctionBegin;
  for (int64_t i = 0; i < C->nrows; i++) maxlen = PetscMax(maxlen, C->rowptr[i + 1] - C->rowptr[i]);
  PetscCall(PetscMalloc2(PetscMax(maxlen, 1), &cols, PetscMax(maxlen, 1), &vals));
  for (int64_t i = 0; i < C->nrows; i++) {
    const PetscInt row = (PetscInt)i, len = (PetscInt)(C->rowptr[i + 1] - C->rowptr[i]);
    for (PetscInt k = 0; k < len; k++) {
      cols[k] = (PetscInt)C->col[C->rowptr[i] + k];
      vals[k] = factor * C->val[C->rowptr[i] + k];
    }
    PetscCall(MatSetValues(A, 1, &row, len, cols, vals, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(cols, vals));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Stages(const char *name, const matgen_csr *C, MatType type)
{
  Mat    A;
  Vec    x, y, d, xt, yt;
  size_t start, live;

  PetscFunctionBegin;
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, (PetscInt)C->ncols, &x));
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, (PetscInt)C->nrows, &y));
  PetscCall(VecDuplicate(y, &d));
  PetscCall(VecDuplicate(y, &xt));
  PetscCall(VecDuplicate(x, &yt));
  PetscCall(VecSet(x, 1.0));
  PetscCall(VecSet(y, 0.0));
  PetscCall(VecSet(d, 0.0));
  PetscCall(VecSet(xt, 1.0));
  PetscCall(VecSet(yt, 0.0));
  PetscCall(Used(&start, &live, PETSC_TRUE));
  start = live;
  PetscCall(BenchMatCreate(C, type, &A));
  PetscCall(Report(name, type, "assembled (host)", start, C->nnz));
  PetscCall(MatMult(A, x, y));
  PetscCall(Report(name, type, "first product", start, C->nnz));
  for (int k = 0; k < 30; k++) PetscCall(MatMult(A, x, y));
  PetscCall(Report(name, type, "31 products", start, C->nnz));
  PetscCall(NewValues(A, C, 2.0));
  PetscCall(MatMult(A, x, y));
  PetscCall(Report(name, type, "new host values, product", start, C->nnz));
  PetscCall(MatShift(A, 1.0));
  PetscCall(MatScale(A, 0.5));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(MatMult(A, x, y));
  PetscCall(Report(name, type, "shift, scale, diagonal, product", start, C->nnz));
  PetscCall(MatMultTranspose(A, xt, yt));
  PetscCall(Report(name, type, "transpose product", start, C->nnz));
  PetscCall(MatDestroy(&A));
  PetscCall(Report(name, type, "destroyed", start, C->nnz));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&yt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One small matrix of each format multiplied and destroyed first: the handles and buffers a process makes once
   are not counted against the first matrix */
static PetscErrorCode WarmUp(void)
{
  matgen_csr C;
  matgen_err err = matgen_stencil(2, 64, 0, 1, 1, &C);

  PetscFunctionBegin;
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_MEM, "warm-up matrix: %s", matgen_strerror(err));
  for (int f = 0; f < NFORMATS; f++) {
    Mat A;
    Vec x, y;
    PetscCall(BenchMatCreate(&C, Formats[f], &A));
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(A, x, y));
    PetscCall(MatMultTranspose(A, y, x));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(MatDestroy(&A));
  }
  matgen_free(&C);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt nsuite, n;
  char   **specs, device[512];
  PetscBool given;

  setvbuf(stdout, NULL, _IOLBF, 0);
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsHasName(NULL, NULL, "-mat_type", &given));
  PetscCheck(!given, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "bench_memory compares fixed formats: leave -mat_type out");
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-trim", &Trim, NULL));
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(BenchDeviceDescribe(device, sizeof(device)));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device: %s\n", device));
  PetscCall(BenchMatrixSpecs(argc, argv, &nsuite, &n, &specs));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-suite", &given));
  PetscCall(WarmUp());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-24s %-12s %-30s %10s %8s %10s %8s\n", "matrix", "format", "stage", "MB", "B/entry", "MB trimmed", "B/entry"));
  for (PetscInt s = 0; s < n; s++) {
    matgen_csr C;
    char       name[PETSC_MAX_PATH_LEN];
    BenchClass cls;

    if (s < nsuite && !given) { /* default: two of the suite */
      PetscBool pick;
      PetscCall(PetscStrInList(specs[s], "lap3d,circuit", ',', &pick));
      if (!pick) continue;
    }
    if (s < nsuite) PetscCall(BenchCSRGenerate(specs[s], &C, name, sizeof(name), &cls));
    else PetscCall(BenchCSRLoad(specs[s], &C, name, sizeof(name)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %lld x %lld, %lld entries\n", name, (long long)C.nrows, (long long)C.ncols, (long long)C.nnz));
    for (int f = 0; f < NFORMATS; f++) PetscCall(Stages(name, &C, Formats[f]));
    matgen_free(&C);
  }
  PetscCall(BenchFreeList(n, &specs));
  PetscCall(PetscFinalize());
  return 0;
}
