/* What an in-place MatConvert from aijcusparse to aijtuned costs on the host, part by part (one GPU).  PETSc's
   MatConvert makes and destroys a matrix of the new type to find the converter by name; each line times N
   repetitions of one part, after a warm-up, in us a repetition (median of 7 batches):
     create      MatCreate, MatSetSizes, MatSetType(T), MatDestroy for T = seqaij, seqaijcusparse, aijtuned
     handle      cusparseCreate, cusparseSetStream, cusparseDestroy (what a new seqaijcusparse makes)
     convert     MatConvert(A, aijtuned, MAT_INPLACE_MATRIX) of an assembled aijcusparse tridiagonal matrix whose
                 values are on the GPU, less the same build and destroy without it */
static char help[] = "convcost [-n rows] [-reps reps]\n";
#include <petscmat.h>
#include <petscdevice_cuda.h>
#include <cusparse.h>
#include "petscmataijtuned.h"

#define BATCHES 7

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

static PetscErrorCode Build(PetscInt n, Mat *A)
{
  Vec x, y;
  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_SELF, A));
  PetscCall(MatSetSizes(*A, n, n, n, n));
  PetscCall(MatSetType(*A, MATSEQAIJCUSPARSE));
  PetscCall(MatSeqAIJSetPreallocation(*A, 3, NULL));
  for (PetscInt i = 0; i < n; i++) {
    PetscScalar v[3] = {-1, 2, -1};
    PetscInt    c[3] = {i - 1, i, i + 1};
    if (i == 0) PetscCall(MatSetValues(*A, 1, &i, 2, c + 1, v + 1, INSERT_VALUES));
    else if (i == n - 1) PetscCall(MatSetValues(*A, 1, &i, 2, c, v, INSERT_VALUES));
    else PetscCall(MatSetValues(*A, 1, &i, 3, c, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(*A, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(*A, x, y)); /* the values on the GPU */
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* what: 0-2 create of a type, 3 the handle, 4 build+destroy, 5 build+convert+destroy */
static PetscErrorCode Part(int what, PetscInt n, PetscInt N, double *us)
{
  static const MatType types[3] = {MATSEQAIJ, MATSEQAIJCUSPARSE, MATAIJTUNED};
  double               b[BATCHES];
  cudaStream_t         stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  for (int k = 0; k < BATCHES; k++) {
    PetscLogDouble t0, t1, conv = 0;
    PetscCall(PetscTime(&t0));
    for (PetscInt r = 0; r < N; r++) {
      if (what < 3) {
        Mat B;
        PetscCall(MatCreate(PETSC_COMM_SELF, &B));
        PetscCall(MatSetSizes(B, n, n, n, n));
        PetscCall(MatSetType(B, types[what]));
        PetscCall(MatDestroy(&B));
      } else if (what == 3) {
        cusparseHandle_t h;
        PetscCallCUSPARSE(cusparseCreate(&h));
        PetscCallCUSPARSE(cusparseSetStream(h, stream));
        PetscCallCUSPARSE(cusparseDestroy(h));
      } else {
        Mat            A;
        PetscLogDouble c0, c1;
        PetscCall(Build(n, &A));
        if (what == 5) {
          PetscCall(PetscTime(&c0));
          PetscCall(MatConvert(A, MATAIJTUNED, MAT_INPLACE_MATRIX, &A));
          PetscCall(PetscTime(&c1));
          conv += c1 - c0;
        }
        PetscCall(MatDestroy(&A));
      }
    }
    PetscCall(PetscTime(&t1));
    b[k] = 1e6 * (what == 5 ? conv : t1 - t0) / N;
  }
  qsort(b, BATCHES, sizeof(double), cmp);
  *us = b[BATCHES / 2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    n = 1000, N = 200;
  const char *names[6] = {"create seqaij", "create seqaijcusparse", "create aijtuned", "cusparse handle", "build aijcusparse", "convert in place (timed around)"};
  Vec         keep; /* keeps PETSC_COMM_SELF's inner communicator, as a program's other objects do */

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &N, NULL));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &keep));
  for (int w = 0; w < 6; w++) { /* a warm-up of every part first */
    double us;
    PetscCall(Part(w, n, 5, &us));
  }
  for (int w = 0; w < 6; w++) {
    double us;
    PetscCall(Part(w, n, w >= 4 ? N / 4 : N, &us));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-34s %9.1f us (median of %d batches)\n", names[w], us, BATCHES));
  }
  PetscCall(VecDestroy(&keep));
  PetscCall(PetscFinalize());
  return 0;
}
