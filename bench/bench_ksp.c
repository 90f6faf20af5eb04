static char help[] = "Krylov solves on one GPU with aijcusparse, sellcuda and aijtuned in one process: CG + Jacobi on the\n\
3-D 7-point Poisson matrix, GMRES(30) + Jacobi on one irregular matrix.  Per format: solve time, iterations,\n\
true residual, and the share of the solve spent in MatMult.\n\
  -n <n>              : Poisson grid points per side (default 160: 4.1M rows; 0 skips the Poisson problem)\n\
  -f <file>           : the irregular matrix, a square Matrix Market file (.mtx, .mtx.gz)\n\
  -gen <name[:size]>  : or a generated one (for example circuit; diagonally dominant, so GMRES + Jacobi converges)\n\
                        without -f or -gen the irregular problem is skipped\n\
  -reps <n>, -warmup <n> : MatMult timing (default 50 and 5)\n\
KSP options through the prefixes poisson_ and irregular_: -poisson_ksp_rtol 1e-8, -irregular_ksp_max_it 500, ...\n\n";

#include <petscksp.h>
#include <petscmataijtuned.h>
#include <petscdevice_cuda.h>
#include "benchmat.h"
#include "timing.h"

typedef struct {
  char         title[PETSC_MAX_PATH_LEN + 64];
  const char  *prefix;
  PetscBool    gmres;
  matgen_csr   A;
  PetscScalar *b; /* A * ones, host */
  PetscReal    bnorm;
} Problem;

typedef struct {
  PetscBool          ran;
  PetscInt           its, mults;
  KSPConvergedReason reason;
  PetscReal          solve_s, res, mult_us, share;
} SolveResult;

/* The objects of one solve; SolveWorkClear() frees what is there, after an error too. */
typedef struct {
  Mat A;
  KSP ksp;
  Vec b, x, r;
} SolveWork;

static PetscErrorCode SolveWorkClear(SolveWork *w)
{
  PetscFunctionBegin;
  PetscCall(KSPDestroy(&w->ksp));
  PetscCall(MatDestroy(&w->A));
  PetscCall(VecDestroy(&w->b));
  PetscCall(VecDestroy(&w->x));
  PetscCall(VecDestroy(&w->r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatMult calls during one solve: the matrix's own MatMult, wrapped for the warm-up solve only. */
static struct {
  PetscErrorCode (*mult)(Mat, Vec, Vec);
  PetscInt count;
} Counter;

static PetscErrorCode CountingMult(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  Counter.count++;
  PetscCall((*Counter.mult)(A, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CountMults(Mat A, PetscBool on)
{
  PetscFunctionBegin;
  if (on) {
    PetscCall(MatGetOperation(A, MATOP_MULT, (PetscErrorCodeFn **)&Counter.mult));
    PetscCall(MatSetOperation(A, MATOP_MULT, (PetscErrorCodeFn *)CountingMult));
    Counter.count = 0;
  } else PetscCall(MatSetOperation(A, MATOP_MULT, (PetscErrorCodeFn *)Counter.mult));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  KSPSetUp, one untimed solve (warm-up: first MatMult, uploads, Krylov work vectors; it also counts the
  MatMults), one timed solve from a zero initial guess, the true residual |b - A x|, and the median
  MatMult on the solve's vectors.  MatMult share = median MatMult x MatMults / solve time.
*/
static PetscErrorCode Solve(const Problem *P, BenchFormat f, BenchTimer timer, PetscInt warmup, PetscInt reps, SolveWork *w, SolveResult *res)
{
  const PetscInt  n = (PetscInt)P->A.nrows;
  PetscScalar    *ba;
  PC              pc;
  PetscInt        its_warm;
  PetscLogDouble  t0, t1;
  BenchMatMultCtx c;

  PetscFunctionBegin;
  PetscCall(BenchMatCreate(&P->A, BenchFormatType[f], &w->A));
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, n, &w->b));
  PetscCall(VecGetArrayWrite(w->b, &ba));
  PetscCall(PetscArraycpy(ba, P->b, n));
  PetscCall(VecRestoreArrayWrite(w->b, &ba));
  PetscCall(VecDuplicate(w->b, &w->x));
  PetscCall(VecDuplicate(w->b, &w->r));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &w->ksp));
  PetscCall(KSPSetOptionsPrefix(w->ksp, P->prefix));
  PetscCall(KSPSetOperators(w->ksp, w->A, w->A));
  PetscCall(KSPGetPC(w->ksp, &pc));
  PetscCall(PCSetType(pc, PCJACOBI));
  if (P->gmres) {
    PetscReal rtol, abstol, dtol;
    PetscInt  maxit;
    PetscCall(KSPSetType(w->ksp, KSPGMRES));
    PetscCall(KSPGMRESSetRestart(w->ksp, 30));
    PetscCall(KSPGetTolerances(w->ksp, &rtol, &abstol, &dtol, &maxit));
    PetscCall(KSPSetTolerances(w->ksp, rtol, abstol, dtol, 1000)); /* a hard matrix stops here instead of taking the run's time */
  } else PetscCall(KSPSetType(w->ksp, KSPCG));
  PetscCall(KSPSetFromOptions(w->ksp));
  PetscCall(KSPSetUp(w->ksp));

  PetscCall(CountMults(w->A, PETSC_TRUE));
  PetscCall(VecSet(w->x, 0.0));
  PetscCall(KSPSolve(w->ksp, w->b, w->x));
  PetscCall(CountMults(w->A, PETSC_FALSE));
  PetscCall(KSPGetIterationNumber(w->ksp, &its_warm));

  PetscCall(VecSet(w->x, 0.0));
  PetscCall(BenchWallTime(&t0));
  PetscCall(KSPSolve(w->ksp, w->b, w->x));
  PetscCall(BenchWallTime(&t1));
  PetscCall(KSPGetIterationNumber(w->ksp, &res->its));
  PetscCall(KSPGetConvergedReason(w->ksp, &res->reason));
  res->solve_s = t1 - t0;
  res->mults   = Counter.count + (res->its - its_warm); /* one MatMult per iteration, should the two solves differ */

  PetscCall(MatMult(w->A, w->x, w->r));
  PetscCall(VecAYPX(w->r, -1.0, w->b));
  PetscCall(VecNorm(w->r, NORM_2, &res->res));
  c.A = w->A;
  c.x = w->x;
  c.y = w->r;
  PetscCall(BenchTimeOp(timer, BenchMatMultOp, &c, warmup, reps, &res->mult_us));
  res->share = 1e-6 * res->mult_us * (PetscReal)res->mults / res->solve_s;
  res->ran   = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunProblem(Problem *P, BenchTimer timer, PetscInt warmup, PetscInt reps)
{
  SolveResult  r[BENCH_NFORMATS];
  PetscScalar *ones;

  PetscFunctionBegin;
  PetscCheck(P->A.nrows == P->A.ncols, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s: a solve needs a square matrix", P->title);
  PetscCall(PetscMalloc1(P->A.nrows, &P->b));
  PetscCall(PetscMalloc1(P->A.ncols, &ones));
  for (int64_t j = 0; j < P->A.ncols; j++) ones[j] = 1.0;
  matgen_spmv(&P->A, ones, P->b); /* the same right-hand side for every format */
  PetscCall(PetscFree(ones));
  P->bnorm = 0.0;
  for (int64_t i = 0; i < P->A.nrows; i++) P->bnorm += P->b[i] * P->b[i];
  P->bnorm = PetscSqrtReal(P->bnorm);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n== %s: %" PetscInt64_FMT " rows, %" PetscInt64_FMT " nonzeros, b = A * ones, zero initial guess\n", P->title, (PetscInt64)P->A.nrows, (PetscInt64)P->A.nnz));
  for (int f = 0; f < BENCH_NFORMATS; f++) {
    SolveWork      w;
    PetscErrorCode ierr;

    PetscCall(PetscMemzero(&w, sizeof(w)));
    PetscCall(PetscMemzero(&r[f], sizeof(r[f])));
    /* not PetscCall(): a format that fails leaves the others to run */
    ierr = Solve(P, (BenchFormat)f, timer, warmup, reps, &w, &r[f]);
    if (ierr) {
      (void)cudaGetLastError();
      r[f].ran = PETSC_FALSE;
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s with %s: stopped by PETSc error %d\n", P->title, BenchFormatName[f], (int)ierr));
    }
    ierr = SolveWorkClear(&w);
    if (ierr) PetscCall(PetscPrintf(PETSC_COMM_SELF, "freeing the %s solve failed (PETSc error %d)\n", BenchFormatName[f], (int)ierr));
    if (r[f].ran) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s done: %" PetscInt_FMT " iterations in %.1f ms\n", BenchFormatName[f], r[f].its, 1e3 * (double)r[f].solve_s));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-12s %6s %-22s %10s %10s %12s %10s %8s %9s %6s %8s  %s\n", "format", "its", "reason", "solve ms", "per it us", "|b - A x|", "rel", "MatMults", "MatMult us", "share", "speedup", "agrees with aijcusparse"));
  for (int f = 0; f < BENCH_NFORMATS; f++) {
    const SolveResult *ref = &r[BENCH_AIJCUSPARSE];
    char               agree[128];

    if (!r[f].ran) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-12s (failed)\n", BenchFormatName[f]));
      continue;
    }
    if (f == BENCH_AIJCUSPARSE) PetscCall(PetscStrncpy(agree, "(reference)", sizeof(agree)));
    else if (!ref->ran) PetscCall(PetscStrncpy(agree, "(no reference)", sizeof(agree)));
    else {
      const PetscReal d  = PetscAbsReal(r[f].res - ref->res) / PetscMax(ref->res, PETSC_SMALL * P->bnorm);
      const PetscBool ok = (PetscBool)(r[f].its == ref->its && d < 1e-6);
      PetscCall(PetscSNPrintf(agree, sizeof(agree), "%s (iterations %" PetscInt_FMT " vs %" PetscInt_FMT ", residual rel. difference %.1e)", ok ? "yes" : "NO", r[f].its, ref->its, (double)d));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-12s %6" PetscInt_FMT " %-22s %10.2f %10.1f %12.4e %10.2e %8" PetscInt_FMT " %9.1f %6.2f %8.2f  %s\n", BenchFormatName[f], r[f].its, KSPConvergedReasons[r[f].reason], 1e3 * (double)r[f].solve_s, 1e6 * (double)r[f].solve_s / (double)PetscMax(r[f].its, 1), (double)r[f].res,
                          (double)(r[f].res / P->bnorm), r[f].mults, (double)r[f].mult_us, (double)r[f].share, ref->ran ? (double)(ref->solve_s / r[f].solve_s) : (double)NAN, agree));
  }
  PetscCall(PetscFree(P->b));
  matgen_free(&P->A);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char       file[PETSC_MAX_PATH_LEN] = "", gen[64] = "", device[512], name[PETSC_MAX_PATH_LEN];
  PetscInt   n = 160, reps = 50, warmup = 5;
  BenchTimer timer;
  PetscBool  set;

  setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut short by a timeout still leaves every finished line */
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", gen, sizeof(gen), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-warmup", &warmup, NULL));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-mat_type", &set));
  PetscCheck(!set, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "bench_ksp compares fixed formats: leave -mat_type out");
  PetscCheck(!(file[0] && gen[0]), PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Give -f or -gen, not both");
  PetscCheck(n >= 0 && reps >= 1 && warmup >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need -n >= 0, -reps >= 1, -warmup >= 0");

  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(BenchCheckStream());
  PetscCall(BenchDeviceDescribe(device, sizeof(device)));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device: %s\n", device));
  PetscCall(BenchTimerCreate(reps, &timer));
  if (n > 0) {
    Problem    P = {.prefix = "poisson_", .gmres = PETSC_FALSE};
    matgen_err err;

    PetscCall(PetscSNPrintf(P.title, sizeof(P.title), "CG + Jacobi, 3-D 7-point Poisson %" PetscInt_FMT "^3", n));
    err = matgen_stencil(3, n, 0, 1, 1, &P.A);
    PetscCheck(!err, PETSC_COMM_SELF, err == MATGEN_ERR_MEM ? PETSC_ERR_MEM : PETSC_ERR_ARG_OUTOFRANGE, "Poisson %" PetscInt_FMT "^3: %s", n, matgen_strerror(err));
    PetscCall(RunProblem(&P, timer, warmup, reps));
  }
  if (file[0] || gen[0]) {
    Problem    P = {.prefix = "irregular_", .gmres = PETSC_TRUE};
    BenchClass cls;

    if (file[0]) PetscCall(BenchCSRLoad(file, &P.A, name, sizeof(name)));
    else PetscCall(BenchCSRGenerate(gen, &P.A, name, sizeof(name), &cls));
    PetscCall(PetscSNPrintf(P.title, sizeof(P.title), "GMRES(30) + Jacobi, %s", name));
    PetscCall(RunProblem(&P, timer, warmup, reps));
  } else PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n(no irregular problem: give -f <file> or -gen <name>)\n"));
  PetscCall(BenchTimerDestroy(&timer));
  PetscCall(PetscFinalize());
  return 0;
}
