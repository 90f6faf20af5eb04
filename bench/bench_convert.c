static char help[] = "From an aijcusparse matrix whose values are on the GPU to its first products' results, as a program sees it that\n\
converts such a matrix in place to aijtuned (or takes a DM's interpolation over): nothing goes up, so aijtuned's planning\n\
and GPU build run with nothing beside them.  In one process, alternating, each round on a new aijcusparse matrix\n\
multiplied once (its values and cuSPARSE's set-up on the GPU, untimed):\n\
  aijcusparse   -count products, each waited for (a Krylov iteration waits for its reductions)\n\
  aijtuned      MatConvert in place, then the same products\n\
then each one's steady product (the mean of 50 more).  Medians over the rounds; the time beyond -count steady products,\n\
in aijtuned's products, is what the conversion, planning and the GPU build cost the program.\n\
  -suite name[:size],...   generated matrices (default: the whole suite; none: no generated matrix)\n\
  -f file,...              Matrix Market files (.mtx, .mtx.gz); repeat -f or give a comma list\n\
  -dir dir                 every Matrix Market file of a folder\n\
  -count <n>               products timed after the conversion (default 20)\n\
  -reps <n>                rounds (default 5)\n\
  -each                    the conversion and each product timed alone (us), in the last round; a runtime call\n\
                           (cudaDriverGetVersion) marks the start and the first product's end for a CUDA tracer\n\n";

#include <math.h>
#include <petscdevice_cuda.h>
#include "benchmat.h"
#include "timing.h"
#include "wallclock.h"

#define MAX_REPS 15
#define NWAYS    2
#define STEADY   50
#define MAX_EACH 64

static PetscBool each; /* -each */

/* With -each, a runtime call no other part makes, which a CUDA tracer's timeline shows (tools/cuptitrace.c) */
static PetscErrorCode Mark(void)
{
  int v;

  PetscFunctionBegin;
  if (each) PetscCallCUDA(cudaDriverGetVersion(&v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *const WayNames[NWAYS] = {"aijcusparse", "aijtuned"};

/* Way w's rounds on A: ms[w][r] (the conversion and count products), us[w][r] (a steady product); diff, the last
   product's largest difference from aijcusparse's relative to its largest entry */
static PetscErrorCode RunWay(const matgen_csr *A, Vec x, Vec y, PetscScalar *yref, PetscReal *ymax, int w, PetscInt count, double *ms, double *us, PetscReal *diff)
{
  Mat                M;
  cudaStream_t       stream;
  PetscLogDouble     t0, t1, t2, at[MAX_EACH + 2];
  const PetscScalar *ya;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(BenchMatCreate(A, MATSEQAIJCUSPARSE, &M));
  PetscCall(MatMult(M, x, y)); /* the values and cuSPARSE's set-up on the GPU */
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(Mark());
  PetscCall(BenchWallTime(&t0));
  if (w) PetscCall(MatConvert(M, MATSEQAIJTUNED, MAT_INPLACE_MATRIX, &M));
  at[0] = t0;
  PetscCall(BenchWallTime(&at[1]));
  for (PetscInt k = 0; k < count; k++) {
    PetscCall(MatMult(M, x, y));
    PetscCallCUDA(cudaStreamSynchronize(stream));
    if (k < MAX_EACH) PetscCall(BenchWallTime(&at[k + 2]));
    if (k == 0) PetscCall(Mark());
  }
  PetscCall(BenchWallTime(&t1));
  if (each) { /* overwritten by each round: the last is printed */
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-16s each (us): conversion %.1f, products", WayNames[w], 1e6 * (at[1] - at[0])));
    for (PetscInt k = 0; k < PetscMin(count, MAX_EACH); k++) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %.1f", 1e6 * (at[k + 2] - at[k + 1])));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
  }
  for (PetscInt k = 0; k < STEADY; k++) {
    PetscCall(MatMult(M, x, y));
    PetscCallCUDA(cudaStreamSynchronize(stream));
  }
  PetscCall(BenchWallTime(&t2));
  *ms = 1e3 * (t1 - t0);
  *us = 1e6 * (t2 - t1) / STEADY;
  PetscCall(VecGetArrayRead(y, &ya));
  if (!w) {
    *ymax = 0;
    for (int64_t i = 0; i < A->nrows; i++) *ymax = PetscMax(*ymax, PetscAbsScalar(ya[i]));
    PetscCall(PetscArraycpy(yref, ya, A->nrows));
  }
  for (int64_t i = 0; i < A->nrows; i++) *diff = PetscMax(*diff, PetscAbsScalar(ya[i] - yref[i]) / (*ymax > 0 ? *ymax : 1));
  PetscCall(VecRestoreArrayRead(y, &ya));
  PetscCall(MatDestroy(&M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Over the matrices: the sums of log(aijtuned's time / aijcusparse's) per way, the worst, and how many */
typedef struct {
  double log_sum[NWAYS], worst[NWAYS];
  int    n;
} Summary;

static PetscErrorCode RunMatrix(const matgen_csr *A, const char name[], PetscInt count, PetscInt reps, Summary *sum)
{
  double       ms[NWAYS][MAX_REPS], us[NWAYS][MAX_REPS], t[NWAYS], u[NWAYS];
  PetscReal    diff = 0, ymax = 0;
  PetscScalar *yref;
  Vec          x, y;

  PetscFunctionBegin;
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, (PetscInt)A->ncols, &x));
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, (PetscInt)A->nrows, &y));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(PetscMalloc1(PetscMax(A->nrows, 1), &yref));
  for (PetscInt r = 0; r < reps; r++)
    for (int w = 0; w < NWAYS; w++) PetscCall(RunWay(A, x, y, yref, &ymax, w, count, &ms[w][r], &us[w][r], &diff));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %" PetscInt_FMT " nonzeros, %" PetscInt_FMT " products from the GPU values (median of %" PetscInt_FMT "), largest difference from aijcusparse %.1e\n", name, (PetscInt)A->nnz, count, reps, (double)diff));
  for (int w = 0; w < NWAYS; w++) {
    t[w] = median_of(ms[w], (int)reps); /* sorts ms[w] */
    u[w] = median_of(us[w], (int)reps);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s]   %-16s %9.3f ms (%.3f to %.3f), steady product %8.1f us, %5.2fx aijcusparse's time", name, WayNames[w], t[w], ms[w][0], ms[w][reps - 1], u[w], t[w] / t[0]));
    if (w) PetscCall(PetscPrintf(PETSC_COMM_SELF, ", %6.1f of its products beyond %" PetscInt_FMT " steady ones\n", (1e3 * t[w] - (double)count * u[w]) / u[w], count));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n"));
    sum->log_sum[w] += log(t[w] / t[0]);
    sum->worst[w] = sum->n ? fmax(sum->worst[w], t[w] / t[0]) : t[w] / t[0];
  }
  sum->n++;
  PetscCall(PetscFree(yref));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BenchOne(const char spec[], PetscBool file, PetscInt count, PetscInt reps, Summary *sum)
{
  matgen_csr A;
  char       name[256];
  BenchClass cls;

  PetscFunctionBegin;
  if (file) PetscCall(BenchCSRLoad(spec, &A, name, sizeof(name)));
  else PetscCall(BenchCSRGenerate(spec, &A, name, sizeof(name), &cls));
  PetscCall(RunMatrix(&A, name, count, reps, sum));
  matgen_free(&A);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char    **specs, device[512];
  PetscInt  nsuite, nspecs, count = 20, reps = 5;
  Summary   sum, ignored;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscMemzero(&sum, sizeof(sum)));
  PetscCall(PetscMemzero(&ignored, sizeof(ignored)));
  PetscCall(BenchMatrixSpecs(argc, argv, &nsuite, &nspecs, &specs));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-count", &count, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-each", &each, NULL));
  PetscCheck(count >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need -count >= 1");
  PetscCheck(reps >= 1 && reps <= MAX_REPS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need 1 <= -reps <= %d", MAX_REPS);
  PetscCheck(sizeof(PetscScalar) == sizeof(double) && !PetscDefined(USE_COMPLEX), PETSC_COMM_SELF, PETSC_ERR_SUP, "Real double scalars only");
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(BenchDeviceDescribe(device, sizeof(device)));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device: %s\nwarm-up on lap3d:10, not reported:\n", device));
  PetscCall(BenchOne("lap3d:10", PETSC_FALSE, count, 1, &ignored));
  for (PetscInt m = 0; m < nspecs; m++) {
    const PetscBool   file = (PetscBool)(m >= nsuite);
    const char *const spec = specs[m];
    PetscCall(BenchOne(spec, file, count, reps, &sum));
  }
  for (int w = 1; sum.n && w < NWAYS; w++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "summary over %d matrices, %s: %.2fx aijcusparse's time in geometric mean, worst %.2fx\n", sum.n, WayNames[w], exp(sum.log_sum[w] / sum.n), sum.worst[w]));
  PetscCall(BenchFreeList(nspecs, &specs));
  PetscCall(PetscFinalize());
  return 0;
}
