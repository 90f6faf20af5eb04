static char help[] = "GPU assembly through COO, as an application that computes its values on the device gives them: aijcusparse\n\
and aijtuned, alternating in one process: MatCreate and MatSetPreallocationCOO (on the host, the same for both), then\n\
MatSetValuesCOO from a device array and MatMult, waited for: the first values to the first product's result; then\n\
new values the same way and a product, once, then again (a Newton step's, kernels loaded: the median of 5); and\n\
aijtuned's planning, which the first product waits for.  Medians over the rounds.\n\
  -suite name[:size],...   generated matrices (default: the whole suite; none: no generated matrix)\n\
  -f file,...              Matrix Market files (.mtx, .mtx.gz); repeat -f or give a comma list\n\
  -dir dir                 every Matrix Market file of a folder\n\
  -reps <n>                rounds per type (default 3)\n\n";

#include <math.h>
#include <petscdevice_cuda.h>
#include "benchmat.h"
#include "timing.h"

#define MAX_REPS 15
#define NTYPES   2

static const MatType     Types[NTYPES]     = {MATSEQAIJCUSPARSE, MATSEQAIJTUNED};
static const char *const TypeNames[NTYPES] = {"aijcusparse", "aijtuned"};

typedef struct {
  PetscInt     m, n, nnz; /* rows, columns, entries */
  PetscInt     bs;        /* the block size the application knows (its unknowns per node), 1 for none */
  PetscInt    *i, *j;   /* the COO entries, host (MatSetPreallocationCOO may change its arrays: copies are given) */
  PetscScalar *v[2];    /* the values on the device, then the new ones (twice as large) */
  Vec          x, y;    /* CUDA vectors */
  PetscScalar *yref;    /* aijcusparse's first product, host */
  PetscReal    ymax;
} Problem;

static double Median(double *a, int n)
{
  for (int k = 1; k < n; k++) /* n is small: insertion sort */
    for (int l = k; l > 0 && a[l - 1] > a[l]; l--) {
      const double t = a[l];
      a[l] = a[l - 1], a[l - 1] = t;
    }
  return n % 2 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]);
}

static PetscErrorCode ProblemCreate(const matgen_csr *A, Problem *P)
{
  PetscScalar *h;

  PetscFunctionBegin;
  PetscCheck(A->nnz <= (int64_t)PETSC_MAX_INT && A->nrows <= (int64_t)PETSC_MAX_INT && A->ncols <= (int64_t)PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "Matrices within PetscInt only");
  P->m   = (PetscInt)A->nrows;
  P->n   = (PetscInt)A->ncols;
  P->nnz = (PetscInt)A->nnz;
  P->bs  = A->bs > 1 ? (PetscInt)A->bs : 1;
  PetscCall(PetscMalloc3(PetscMax(P->nnz, 1), &P->i, PetscMax(P->nnz, 1), &P->j, PetscMax(P->m, 1), &P->yref));
  PetscCall(PetscMalloc1(PetscMax(P->nnz, 1), &h));
  for (PetscInt r = 0; r < P->m; r++)
    for (int64_t k = A->rowptr[r]; k < A->rowptr[r + 1]; k++) P->i[k] = r, P->j[k] = (PetscInt)A->col[k], h[k] = A->val[k];
  for (int s = 0; s < 2; s++) {
    PetscCallCUDA(cudaMalloc((void **)&P->v[s], (size_t)PetscMax(P->nnz, 1) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMemcpy(P->v[s], h, (size_t)P->nnz * sizeof(PetscScalar), cudaMemcpyHostToDevice));
    for (PetscInt k = 0; k < P->nnz; k++) h[k] *= 2.0;
  }
  PetscCall(PetscFree(h));
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, P->n, &P->x));
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, P->m, &P->y));
  PetscCall(VecSetRandom(P->x, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProblemDestroy(Problem *P)
{
  PetscFunctionBegin;
  for (int s = 0; s < 2; s++)
    if (P->v[s]) PetscCallCUDA(cudaFree(P->v[s]));
  PetscCall(PetscFree3(P->i, P->j, P->yref));
  PetscCall(VecDestroy(&P->x));
  PetscCall(VecDestroy(&P->y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y against aijcusparse's first product (scaled by s: the new values are twice the first), relative to its largest entry */
static PetscErrorCode Compare(Problem *P, PetscInt t, PetscReal s, PetscReal *diff)
{
  const PetscScalar *y;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(P->y, &y));
  if (t == 0 && s == 1.0) {
    P->ymax = 0;
    for (PetscInt r = 0; r < P->m; r++) P->ymax = PetscMax(P->ymax, PetscAbsScalar(y[r]));
    PetscCall(PetscArraycpy(P->yref, y, P->m));
  }
  *diff = 0;
  for (PetscInt r = 0; r < P->m; r++) *diff = PetscMax(*diff, PetscAbsScalar(y[r] - s * P->yref[r]));
  *diff /= P->ymax > 0 ? P->ymax : 1.0;
  PetscCall(VecRestoreArrayRead(P->y, &y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The phases of a round: the preallocation, the first values and product, new values and a product, and the same
   NAGAIN more times (their median) */
#define NPHASES 4
#define NAGAIN  5
static const char *const PhaseNames[NPHASES] = {"preallocation", "first values and product", "new values and a product", "again (median of 5)"};

/* One round of type t, each phase's time in ms[]; aijtuned's planning (its AIJTunedPlan event, inside the first
   values and product) in *plan_ms */
static PetscErrorCode Round(Problem *P, PetscInt t, PetscBool check, double ms[NPHASES], PetscReal diff[2], double *plan_ms)
{
  Mat            M;
  PetscInt      *ic, *jc;
  PetscLogDouble t0, t1, t2, t3, t4, again[NAGAIN];

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(P->nnz, &ic, P->nnz, &jc));
  PetscCall(PetscArraycpy(ic, P->i, P->nnz));
  PetscCall(PetscArraycpy(jc, P->j, P->nnz));
  PetscCall(BenchWallTime(&t0));
  PetscCall(MatCreate(PETSC_COMM_SELF, &M));
  PetscCall(MatSetSizes(M, P->m, P->n, P->m, P->n));
  if (P->bs > 1) PetscCall(MatSetBlockSize(M, P->bs)); /* as bench_spmv's matrices (benchmat.c) and a DM's */
  PetscCall(MatSetType(M, Types[t]));
  PetscCall(MatSetPreallocationCOO(M, P->nnz, ic, jc));
  PetscCall(BenchWallTime(&t1));
  PetscCall(MatSetValuesCOO(M, P->v[0], INSERT_VALUES));
  PetscCall(MatMult(M, P->x, P->y));
  PetscCall(BenchWallTime(&t2));
  if (check) PetscCall(Compare(P, t, 1.0, &diff[0])); /* not timed */
  PetscCall(BenchWallTime(&t3));
  PetscCall(MatSetValuesCOO(M, P->v[1], INSERT_VALUES));
  PetscCall(MatMult(M, P->x, P->y));
  PetscCall(BenchWallTime(&t4));
  if (check) PetscCall(Compare(P, t, 2.0, &diff[1]));
  for (int k = 0; k < NAGAIN; k++) { /* the same new values each time: the products stay those compared */
    PetscLogDouble a0, a1;
    PetscCall(BenchWallTime(&a0));
    PetscCall(MatSetValuesCOO(M, P->v[1], INSERT_VALUES));
    PetscCall(MatMult(M, P->x, P->y));
    PetscCall(BenchWallTime(&a1));
    again[k] = 1e3 * (a1 - a0);
  }
  *plan_ms = 0;
  if (t == 1) {
    PetscReal plan;
    PetscCall(MatAIJTunedGetSetupTimes(M, &plan, NULL, NULL));
    *plan_ms = plan;
  }
  PetscCall(MatDestroy(&M));
  PetscCall(PetscFree2(ic, jc));
  ms[0] = 1e3 * (t1 - t0);
  ms[1] = 1e3 * (t2 - t1);
  ms[2] = 1e3 * (t4 - t3);
  ms[3] = Median(again, NAGAIN);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ratio[k]: aijtuned's median time of phase k / aijcusparse's */
static PetscErrorCode BenchOne(const char spec[], PetscBool file, PetscInt reps, double ratio[NPHASES])
{
  matgen_csr A;
  BenchClass cls;
  char       name[PETSC_MAX_PATH_LEN];
  Problem    P;
  double     ms[NTYPES][NPHASES][MAX_REPS], med[NTYPES][NPHASES], plan[MAX_REPS], plan_med;
  PetscReal  diff[NTYPES][2] = {{0}};

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&P, sizeof(P)));
  if (file) PetscCall(BenchCSRLoad(spec, &A, name, sizeof(name)));
  else PetscCall(BenchCSRGenerate(spec, &A, name, sizeof(name), &cls));
  PetscCall(ProblemCreate(&A, &P));
  matgen_free(&A);
  for (PetscInt r = 0; r < reps; r++)
    for (PetscInt t = 0; t < NTYPES; t++) {
      double one[NPHASES] = {0}, plan_ms = 0;
      PetscCall(Round(&P, t, (PetscBool)(r == 0), one, diff[t], &plan_ms));
      for (int k = 0; k < NPHASES; k++) ms[t][k][r] = one[k];
      if (t == 1) plan[r] = plan_ms;
    }
  for (PetscInt t = 0; t < NTYPES; t++)
    for (int k = 0; k < NPHASES; k++) med[t][k] = Median(ms[t][k], (int)reps);
  for (int k = 0; k < NPHASES; k++) ratio[k] = med[1][k] / med[0][k];
  plan_med = Median(plan, (int)reps);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %" PetscInt_FMT " x %" PetscInt_FMT ", %" PetscInt_FMT " entries; aijtuned's products against aijcusparse's: %.1e, %.1e\n", name, P.m, P.n, P.nnz, (double)diff[1][0], (double)diff[1][1]));
  for (int k = 0; k < NPHASES; k++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s]   %-25s %s %9.3f ms, %s %9.3f ms, %.2fx\n", name, PhaseNames[k], TypeNames[0], med[0][k], TypeNames[1], med[1][k], ratio[k]));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s]   aijtuned's planning (AIJTunedPlan, in the first values and product): median %.3f ms\n", name, plan_med));
  PetscCall(ProblemDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char     **specs, device[512];
  PetscInt   nsuite, nspecs, reps = 3, n = 0;
  double     geo[NPHASES] = {0}, worst[NPHASES] = {0};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(BenchMatrixSpecs(argc, argv, &nsuite, &nspecs, &specs));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCheck(reps >= 1 && reps <= MAX_REPS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need 1 <= -reps <= %d", MAX_REPS);
  PetscCheck(sizeof(PetscScalar) == sizeof(double) && !PetscDefined(USE_COMPLEX), PETSC_COMM_SELF, PETSC_ERR_SUP, "Real double scalars only");
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(BenchDeviceDescribe(device, sizeof(device)));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device: %s\nmedians of %" PetscInt_FMT " rounds per type, the types alternating; the first round's products compared with aijcusparse's\n", device, reps));
  {
    double ignored[NPHASES];
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "warm-up on lap3d:10, not reported:\n"));
    PetscCall(BenchOne("lap3d:10", PETSC_FALSE, 1, ignored));
  }
  for (PetscInt m = 0; m < nspecs; m++) {
    const PetscBool   file = (PetscBool)(m >= nsuite);
    const char *const spec = specs[m];
    double            r[NPHASES];
    PetscCall(BenchOne(spec, file, reps, r));
    for (int k = 0; k < NPHASES; k++) geo[k] += log(r[k]), worst[k] = PetscMax(worst[k], r[k]);
    n++;
  }
  for (int k = 0; n && k < NPHASES; k++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "aijtuned's time / aijcusparse's over %" PetscInt_FMT " matrices, %s: geomean %.2f, worst %.2f\n", n, PhaseNames[k], exp(geo[k] / n), worst[k]));
  PetscCall(BenchFreeList(nspecs, &specs));
  PetscCall(PetscFinalize());
  return 0;
}
