static char help[] = "SpMV on one GPU: aijtuned against aijcusparse, sellcuda and raw cuSPARSE (CSR ALG1, ALG2, SELL-32),\n\
on generated matrices and Matrix Market files, all in one process and on the same x.\n\
  -suite <a,b:size,...> : generated matrices, name or name:size (default: all of them; none: files only)\n\
  -f <file>             : a Matrix Market file (.mtx or .mtx.gz); repeat -f or give a comma list\n\
  -dir <dir>            : every *.mtx and *.mtx.gz file of a directory\n\
  -reps <n>             : timed calls per method, median reported (default 100; 50 or more)\n\
  -warmup <n>           : untimed calls before them (default 5)\n\
  -csv <file>           : the per-matrix figures as CSV (bench/plot_speedups.py plots them)\n\
  -copy_mib <n>         : buffer of the copy-bandwidth measurement in MiB (default 1024)\n\
  -sell_max_fill <r>    : skip raw SELL-32 where it stores more than r entries per nonzero (default 4)\n\
  -plan_reps <n>        : aijtuned's planning measured in n assemblies of the matrix, median reported\n\
                          beside the first (default 3)\n\
  -idle_ms <t>          : also time each PETSc format's product after the GPU was idle t ms (9 calls, each\n\
                          after its own idle), as a first call after an assembly runs; aijtuned's planning,\n\
                          which follows such an idle too, is then also given in those products (default 0: off)\n\
  -held <bool>          : time the device alone, every method's calls queued behind a held stream, and print\n\
                          each method's host time per call (default: calls paced by the host, as in a solver)\n\
  -values_reps <n>      : new values with the same pattern, as a Newton or time step brings them, and the first\n\
                          MatMult after them, median of n (aijcusparse and aijtuned; default 3, 0: off): an assembly\n\
                          of new host values then MatScale twice (timed first), an assembly of new host values,\n\
                          MatScale twice (on the GPU), and a TS step's MatShift, MatScale x2, MatShift (square\n\
                          matrices with every diagonal entry)\n\
  -setup_reps <n>       : the device's part of set-up, median of n (default 3, 0: off): an assembled seqaij converted\n\
                          in place to aijcusparse or aijtuned (which plans there) and the first MatMult, waited for;\n\
                          the host's assembly, the same for every type, left out\n\
Other options reach the matrices: -mat_aijtuned_*, -mat_view ::ascii_info (each format's view at assembly).\n\n";

#include <petscmataijtuned.h>
#include <petscdevice_cuda.h>
#include "benchmat.h"
#include "rawcusparse.h"
#include "report.h"
#include "timing.h"
#include "wallclock.h"

typedef struct {
  BenchTimer  timer;
  RawCusparse raw;
  PetscInt    reps, warmup, plan_reps;
  PetscReal   copy_gbs, sell_max_fill;
  PetscBool   held;
  PetscInt    idle_ms;     /* > 0: each format's product after that long an idle too */
  PetscInt    values_reps; /* rounds of new values (TimeNewValues) */
  PetscInt    setup_reps;  /* rounds of SetupFromAij */
} BenchSetup;

/* What one matrix holds while it is measured; BenchWorkClear() frees whatever is there, after an error too. */
typedef struct {
  matgen_csr         A;
  Vec                x, y;
  PetscScalar       *yref; /* aijcusparse's product on the host: every other method is compared with it */
  PetscReal          ymax;
  Mat                M;  /* the PETSc format being measured */
  const PetscScalar *dx; /* x's device array, held while raw cuSPARSE runs */
  PetscScalar       *dy; /* raw cuSPARSE's y */
  PetscScalar       *hy; /* its host copy */
} BenchWork;

static PetscErrorCode BenchWorkClear(BenchSetup *S, BenchWork *w)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&w->M));
  if (w->dx) PetscCall(VecCUDARestoreArrayRead(w->x, &w->dx));
  w->dx = NULL;
  PetscCall(RawCusparseClearMatrix(S->raw));
  PetscCallCUDA(cudaFree(w->dy));
  w->dy = NULL;
  PetscCall(VecDestroy(&w->x));
  PetscCall(VecDestroy(&w->y));
  PetscCall(PetscFree(w->yref));
  PetscCall(PetscFree(w->hy));
  matgen_free(&w->A);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max |y - yref| / max |yref|; infinite where y has a NaN (a row the method never wrote) */
static PetscReal RelDiff(const PetscScalar *y, const PetscScalar *yref, PetscInt64 n, PetscReal ymax)
{
  PetscReal d = 0.0;

  for (PetscInt64 i = 0; i < n; i++) {
    PetscReal e = PetscAbsScalar(y[i] - yref[i]);
    if (PetscIsNanReal(e)) return PETSC_INFINITY;
    d = PetscMax(d, e);
  }
  return d / (ymax > 0 ? ymax : 1.0);
}

/* x: reproducible values in [-1, 1), already on the device; y: allocated on the device */
static PetscErrorCode MakeVectors(BenchWork *w)
{
  PetscScalar       *xa;
  const PetscScalar *dx;

  PetscFunctionBegin;
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, (PetscInt)w->A.ncols, &w->x));
  PetscCall(VecGetArrayWrite(w->x, &xa));
  for (int64_t j = 0; j < w->A.ncols; j++) xa[j] = matgen_unit(7, j);
  PetscCall(VecRestoreArrayWrite(w->x, &xa));
  PetscCall(VecCUDAGetArrayRead(w->x, &dx));
  PetscCall(VecCUDARestoreArrayRead(w->x, &dx));
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, (PetscInt)w->A.nrows, &w->y));
  PetscCall(VecSet(w->y, 0.0));
  PetscCall(PetscMalloc1(PetscMax(w->A.nrows, 1), &w->yref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Calls after the first, each waited for as a Krylov iteration's reductions wait: aijtuned's run-time
   tuning (-mat_aijtuned_tune) times its trials there and is done before the steady state is measured.
   Their wall time, tuning on minus tuning off, is what tuning costs. */
#define BENCH_AFTER_FIRST 60
#define BENCH_MAX_PLAN_REPS 15
#define BENCH_IDLE_REPS     9 /* calls after an idle, each after its own */
#define BENCH_MAX_VALUES_REPS 40
#define BENCH_MAX_SETUP_REPS  15

/* aijtuned's planning of the same matrix in S->plan_reps assemblies (the first one's included): the
   median is what planning costs; the first also paid what a process pays once (the memory pool's
   growth, kernels loaded at their first launch), which the table keeps beside it.  Where the GPU planner
   runs beside the values' upload (the default), what it outlasts that copy; then as many assemblies with
   -mat_aijtuned_plan_beside_upload 0 give the planning alone, before the upload (not where the command
   line sets the option). */
static PetscErrorCode PlanAgain(BenchSetup *S, BenchWork *w, BenchRecord *rec)
{
  double    ms[BENCH_MAX_PLAN_REPS], alone[BENCH_MAX_PLAN_REPS];
  PetscInt  n = 1;
  PetscBool set;

  PetscFunctionBegin;
  ms[0] = rec->plan_first_ms;
  for (; n < S->plan_reps; n++) {
    PetscReal plan_ms;
    PetscCall(BenchMatCreate(&w->A, BenchFormatType[BENCH_AIJTUNED], &w->M)); /* planned at its assembly */
    PetscCall(MatAIJTunedGetSetupTimes(w->M, &plan_ms, NULL, NULL));
    PetscCall(MatDestroy(&w->M));
    ms[n] = plan_ms;
  }
  rec->plan_ms = median_of(ms, (int)n); /* sorts ms */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] aijtuned    planning: first %.3f ms, median of %" PetscInt_FMT " %.3f ms (%.3f to %.3f)\n", rec->name, (double)rec->plan_first_ms, n, (double)rec->plan_ms, ms[0], ms[n - 1]));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-mat_aijtuned_plan_beside_upload", &set));
  if (set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsSetValue(NULL, "-mat_aijtuned_plan_beside_upload", "0"));
  for (PetscInt k = 0; k < n; k++) {
    PetscReal plan_ms;
    PetscCall(BenchMatCreate(&w->A, BenchFormatType[BENCH_AIJTUNED], &w->M));
    PetscCall(MatAIJTunedGetSetupTimes(w->M, &plan_ms, NULL, NULL));
    PetscCall(MatDestroy(&w->M));
    alone[k] = plan_ms;
  }
  PetscCall(PetscOptionsClearValue(NULL, "-mat_aijtuned_plan_beside_upload"));
  rec->plan_alone_ms = median_of(alone, (int)n); /* sorts alone */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] aijtuned    planning before the values' upload (-mat_aijtuned_plan_beside_upload 0): median of %" PetscInt_FMT " %.3f ms (%.3f to %.3f)\n", rec->name, n, (double)rec->plan_alone_ms, alone[0], alone[n - 1]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With -held: the method's time on the device alone, and what a call cost the host meanwhile. */
static PetscErrorCode PrintHostTime(BenchSetup *S, const char *name, const char *method, PetscReal device_us)
{
  PetscReal host_us;

  PetscFunctionBegin;
  if (!S->held) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BenchTimerHostUs(S->timer, &host_us));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %-11s held: device %.1f us, host %.1f us per call (two event records included)\n", name, method, (double)device_us, (double)host_us));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* New values, same pattern, as a Newton or time step brings them (SNES, TS), each way of report.h's
   BenchValuesWay, then the first MatMult, waited for; median of S->values_reps rounds.
     host:  the host array taken and given back unchanged, which marks its values new (the application's
            MatSetValues, untimed: the same for every AIJ format), then MatAssemblyBegin/End: the product
            takes the values to the GPU.
     scale: MatScale(A, -1) twice (TS scales and shifts an RHS Jacobian at each step): cuSPARSE's scaling
            on the GPU, timed.
     step:  MatShift(A, -2), MatScale(A, -1) twice, MatShift(A, 2): TSComputeIJacobian's undoing and redoing of
            the shift and scaling of a constant right-hand-side Jacobian at each time step.  PETSc's MatShift of
            an AIJ matrix runs on the host (aijtuned's on the GPU where every row holds its diagonal entry); square
            matrices with every diagonal entry only (a missing one would change the pattern): NaN elsewhere.
     hostscale: host's new values, assembly, MatScale(A, -1) twice: a right-hand-side Jacobian assembled on the
            host at each step and scaled on the GPU (TSComputeIJacobian); the values go up before the scaling.
   The values end as they were, so the product after the last round is compared with aijcusparse's first: a
   refresh that lost a value shows up.  sellcuda is left out: its values are not an AIJ array. */
static PetscErrorCode TimeNewValues(BenchSetup *S, BenchWork *w, BenchFormat f, BenchValuesWay way, BenchRecord *rec)
{
  double             ms[BENCH_MAX_VALUES_REPS];
  PetscInt           n = S->values_reps;
  const PetscScalar *ya;

  PetscFunctionBegin;
  if (n < 1 || f == BENCH_SELLCUDA) PetscFunctionReturn(PETSC_SUCCESS);
  if (way == BENCH_VALUES_STEP) {
    PetscBool missing = PETSC_TRUE;
    if (w->A.nrows == w->A.ncols) PetscCall(MatMissingDiagonal(w->M, &missing, NULL));
    if (missing) PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt r = 0; r < n; r++) {
    const PetscBool host = (PetscBool)(way == BENCH_VALUES_HOST || way == BENCH_VALUES_HOST_SCALE);
    PetscLogDouble  t0, t1;

    if (host) {
      PetscScalar *a;
      PetscCall(MatSeqAIJGetArray(w->M, &a)); /* the application would write a[] here */
      PetscCall(MatSeqAIJRestoreArray(w->M, &a)); /* the matrix's values now count as new, on the host */
    }
    PetscCall(BenchWallTime(&t0));
    if (host) {
      PetscCall(MatAssemblyBegin(w->M, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(w->M, MAT_FINAL_ASSEMBLY));
    }
    if (way != BENCH_VALUES_HOST) {
      if (way == BENCH_VALUES_STEP) PetscCall(MatShift(w->M, -2.0));
      PetscCall(MatScale(w->M, -1.0));
      PetscCall(MatScale(w->M, -1.0));
      if (way == BENCH_VALUES_STEP) PetscCall(MatShift(w->M, 2.0));
    }
    PetscCall(MatMult(w->M, w->x, w->y));
    PetscCallCUDA(cudaDeviceSynchronize());
    PetscCall(BenchWallTime(&t1));
    ms[r] = 1e3 * (t1 - t0);
  }
  const double first = ms[0]; /* a first round may do once what the later ones reuse (a page-locked value array) */
  double       mean  = 0;     /* every round's share, what a loop of n steps pays (a later page-locking included) */
  for (PetscInt r = 0; r < n; r++) mean += ms[r] / (double)n;
  rec->values_ms[way][f] = median_of(ms, (int)n);
  PetscCall(VecSet(w->y, NAN));
  PetscCall(MatMult(w->M, w->x, w->y));
  PetscCall(VecGetArrayRead(w->y, &ya));
  rec->values_err[way][f] = RelDiff(ya, w->yref, w->A.nrows, w->ymax);
  PetscCall(VecRestoreArrayRead(w->y, &ya));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %-11s %s and the first call %.3f ms (median of %" PetscInt_FMT ", the first %.3f, mean %.3f), %.1f calls' time; diff then %.1e\n", rec->name, BenchFormatName[f], BenchValuesWayName[way], (double)rec->values_ms[way][f], n, first, mean, (double)(1e3 * rec->values_ms[way][f] / rec->us[f]), (double)rec->values_err[way][f]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Build (timed), first call (timed), steady calls (event medians), then one more call into a NaN-filled y
   to compare with aijcusparse: a row left unwritten shows up. */
static PetscErrorCode RunFormat(BenchSetup *S, BenchWork *w, BenchFormat f, BenchRecord *rec)
{
  BenchMatMultCtx    c;
  PetscLogDouble     t0, t1, t2, t3 = 0;
  const PetscScalar *ya;

  PetscFunctionBegin;
  PetscCall(BenchWallTime(&t0));
  PetscCall(BenchMatCreate(&w->A, BenchFormatType[f], &w->M));
  PetscCall(BenchWallTime(&t1));
  PetscCall(MatMult(w->M, w->x, w->y));
  PetscCall(BenchWallTime(&t2));
  rec->build_ms[f] = 1e3 * (t1 - t0);
  rec->first_ms[f] = 1e3 * (t2 - t1);
  for (int i = 0; i < BENCH_AFTER_FIRST; i++) {
    PetscCall(MatMult(w->M, w->x, w->y));
    PetscCallCUDA(cudaDeviceSynchronize());
  }
  PetscCall(BenchWallTime(&t3));
  c.A              = w->M;
  c.x              = w->x;
  c.y              = w->y;
  PetscCall(BenchTimeOp(S->timer, BenchMatMultOp, &c, S->warmup, S->reps, &rec->us[f])); /* method index = format index */
  PetscCall(PrintHostTime(S, rec->name, BenchFormatName[f], rec->us[f]));
  if (S->idle_ms > 0) {
    PetscCall(BenchTimeOpAfterIdle(S->timer, BenchMatMultOp, &c, S->idle_ms, BENCH_IDLE_REPS, &rec->us_idle[f]));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %-11s after %" PetscInt_FMT " ms of GPU idle: %.1f us (median of %d calls)\n", rec->name, BenchFormatName[f], S->idle_ms, (double)rec->us_idle[f], BENCH_IDLE_REPS));
  }
  PetscCall(VecSet(w->y, NAN));
  PetscCall(MatMult(w->M, w->x, w->y));
  PetscCall(VecGetArrayRead(w->y, &ya));
  if (f == BENCH_AIJCUSPARSE) {
    w->ymax = 0.0;
    for (int64_t i = 0; i < w->A.nrows; i++) w->ymax = PetscMax(w->ymax, PetscAbsScalar(ya[i]));
    PetscCall(PetscArraycpy(w->yref, ya, w->A.nrows));
    rec->err[f] = 0.0;
  } else rec->err[f] = RelDiff(ya, w->yref, w->A.nrows, w->ymax);
  PetscCall(VecRestoreArrayRead(w->y, &ya));
  /* new host values scaled on the GPU first: before any of the host's new values go up with a product (which
     page-locks a large array: aijtuned), as in a time loop whose Jacobian is scaled before its first product */
  {
    const BenchValuesWay order[] = {BENCH_VALUES_HOST_SCALE, BENCH_VALUES_HOST, BENCH_VALUES_SCALE, BENCH_VALUES_STEP};
    _Static_assert(sizeof(order) / sizeof(order[0]) == BENCH_NVALUES_WAYS, "every way once");
    for (int k = 0; k < BENCH_NVALUES_WAYS; k++) PetscCall(TimeNewValues(S, w, f, order[k], rec));
  }
  if (f == BENCH_AIJTUNED) {
    PetscBool tuning;
    PetscCall(MatAIJTunedGetPlanStats(w->M, &rec->strips, NULL));
    PetscCall(MatAIJTunedGetSetupTimes(w->M, &rec->plan_ms, &rec->tune_ms, &tuning));
    if (tuning) rec->tune_ms = NAN; /* not over after the calls above: no figure */
    rec->plan_first_ms = rec->plan_ms;
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %-11s the %d calls after the first: %.1f us, %.1f calls' time above the steady state\n", rec->name, BenchFormatName[f], BENCH_AFTER_FIRST, 1e6 * (t3 - t2), (double)(1e6 * (t3 - t2) / rec->us[f] - BENCH_AFTER_FIRST)));
  PetscCall(MatDestroy(&w->M));
  if (f == BENCH_AIJTUNED) PetscCall(PlanAgain(S, w, rec));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %-11s %10.1f us   build %9.1f ms   first call %8.1f ms   diff %.1e\n", rec->name, BenchFormatName[f], (double)rec->us[f], (double)rec->build_ms[f], (double)rec->first_ms[f], (double)rec->err[f]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What set-up costs on the device, as a program sees it that assembles an aij matrix and then uses it on the GPU:
   MatConvert in place from the assembled seqaij (aijtuned uploads the CSR's structure and plans there) and the
   first MatMult (aijcusparse uploads the CSR there, aijtuned its values, and builds its layouts), waited for.
   aijcusparse and aijtuned alternate, S->setup_reps rounds, median.  Planning's cost in products is measured by
   PlanAgain; this is the time a solve waits for before its first product, planning included, against
   aijcusparse's. */
static PetscErrorCode SetupFromAij(BenchSetup *S, BenchWork *w, BenchRecord *rec)
{
  const BenchFormat types[2] = {BENCH_AIJCUSPARSE, BENCH_AIJTUNED};
  double            ms[2][BENCH_MAX_SETUP_REPS];
  const int         n = (int)S->setup_reps;

  PetscFunctionBegin;
  if (n < 1) PetscFunctionReturn(PETSC_SUCCESS);
  for (int r = 0; r < n; r++)
    for (int k = 0; k < 2; k++) {
      PetscLogDouble t0, t1;
      PetscCall(BenchMatCreate(&w->A, MATSEQAIJ, &w->M));
      PetscCallCUDA(cudaDeviceSynchronize());
      PetscCall(BenchWallTime(&t0));
      PetscCall(MatConvert(w->M, BenchFormatType[types[k]], MAT_INPLACE_MATRIX, &w->M));
      PetscCall(MatMult(w->M, w->x, w->y));
      PetscCallCUDA(cudaDeviceSynchronize());
      PetscCall(BenchWallTime(&t1));
      ms[k][r] = 1e3 * (t1 - t0);
      PetscCall(MatDestroy(&w->M));
    }
  for (int k = 0; k < 2; k++) rec->setup_ms[types[k]] = median_of(ms[k], n); /* sorts ms[k] */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] from an assembled aij to the first product's result (median of %d): aijcusparse %.3f ms, aijtuned %.3f ms (its planning %.3f ms), aijtuned / aijcusparse %.2f\n", rec->name, n, (double)rec->setup_ms[BENCH_AIJCUSPARSE], (double)rec->setup_ms[BENCH_AIJTUNED], (double)rec->plan_ms, (double)(rec->setup_ms[BENCH_AIJTUNED] / rec->setup_ms[BENCH_AIJCUSPARSE])));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Raw cuSPARSE on the same x (its device array) and the same CSR. */
static PetscErrorCode RunRaw(BenchSetup *S, BenchWork *w, BenchRecord *rec)
{
  const size_t bytes = (size_t)PetscMax(w->A.nrows, 1) * sizeof(PetscScalar);
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(VecCUDAGetArrayRead(w->x, &w->dx));
  PetscCallCUDA(cudaMalloc((void **)&w->dy, bytes));
  PetscCall(RawCusparseSetMatrix(S->raw, &w->A));
  PetscCall(PetscMalloc1(PetscMax(w->A.nrows, 1), &w->hy));
  for (int alg = 0; alg < RAW_NALGS; alg++) {
    const BenchMethod m = (BenchMethod)(M_CSR_ALG1 + alg);
    PetscBool         ok;
    char              reason[256];

    PetscCall(RawCusparseSetup(S->raw, (RawAlg)alg, S->sell_max_fill, w->dx, w->dy, &ok, reason, sizeof(reason)));
    if (!ok) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %-11s skipped: %s\n", rec->name, RawAlgName[alg], reason));
      continue;
    }
    PetscCall(BenchTimeOp(S->timer, RawCusparseMult, S->raw, S->warmup, S->reps, &rec->us[m]));
    PetscCall(PrintHostTime(S, rec->name, RawAlgName[alg], rec->us[m]));
    PetscCallCUDA(cudaMemsetAsync(w->dy, 0xFF, bytes, stream)); /* all-ones bytes: NaN */
    PetscCall(RawCusparseMult(S->raw));
    PetscCallCUDA(cudaMemcpyAsync(w->hy, w->dy, bytes, cudaMemcpyDeviceToHost, stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
    rec->err[m] = RelDiff(w->hy, w->yref, w->A.nrows, w->ymax);
    PetscCall(RawCusparseTeardown(S->raw));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %-11s %10.1f us   diff %.1e\n", rec->name, RawAlgName[alg], (double)rec->us[m], (double)rec->err[m]));
  }
  PetscCall(PetscFree(w->hy));
  PetscCall(RawCusparseClearMatrix(S->raw));
  PetscCallCUDA(cudaFree(w->dy));
  w->dy = NULL;
  PetscCall(VecCUDARestoreArrayRead(w->x, &w->dx));
  w->dx = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BenchOne(BenchSetup *S, BenchWork *w, const char spec[], PetscBool file, BenchRecord *rec)
{
  char           name[PETSC_MAX_PATH_LEN];
  BenchClass     cls = BENCH_FILE;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(BenchRecordInit(rec, spec, file ? BENCH_FILE : BENCH_IRREGULAR, S->copy_gbs));
  PetscCall(PetscTime(&t0));
  if (file) PetscCall(BenchCSRLoad(spec, &w->A, name, sizeof(name)));
  else PetscCall(BenchCSRGenerate(spec, &w->A, name, sizeof(name), &cls));
  PetscCall(PetscTime(&t1));
  PetscCall(BenchRecordInit(rec, name, cls, S->copy_gbs));
  rec->rows = w->A.nrows;
  rec->cols = w->A.ncols;
  rec->nnz  = w->A.nnz;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] %" PetscInt64_FMT " x %" PetscInt64_FMT ", %" PetscInt64_FMT " nonzeros, %s in %.1f s\n", name, rec->rows, rec->cols, rec->nnz, file ? "loaded" : "generated", (double)(t1 - t0)));
  PetscCall(MakeVectors(w));
  for (int f = 0; f < BENCH_NFORMATS; f++) PetscCall(RunFormat(S, w, (BenchFormat)f, rec));
  PetscCall(RunRaw(S, w, rec));
  PetscCall(SetupFromAij(S, w, rec));
  /* read + write of half the product's compulsory bytes: the same traffic as the product */
  PetscCall(BenchCopyTime(S->timer, (size_t)(0.5 * BenchCSRBytes(rec)), S->warmup, S->reps, &rec->us_copy_same));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] copy of the same bytes %6.1f us\n", rec->name, (double)rec->us_copy_same));
  rec->done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char         csv[PETSC_MAX_PATH_LEN] = "", device[512], version[256], **specs;
  PetscInt     nsuite, nmat, copy_mib = 1024;
  PetscBool    set, help_only;
  BenchSetup   S = {NULL, NULL, 100, 5, 3, 0.0, 4.0, PETSC_FALSE, 0, 3, 3};
  BenchRecord *rec;
  FILE        *fp = NULL;

  setvbuf(stdout, NULL, _IOLBF, 0); /* a run cut short by a timeout still leaves every finished line */
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatAIJTunedInitializePackage());
  PetscCall(PetscOptionsHasHelp(NULL, &help_only));
  if (help_only) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "Generated matrices (-suite name or name:size):\n"));
    for (int i = 0; i < matgen_suite_count(); i++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-8s %-9s size = %s (default %lld): %s\n", matgen_suite(i)->name, matgen_class_names[matgen_suite(i)->cls], matgen_suite(i)->size_is, (long long)matgen_suite(i)->size, matgen_suite(i)->describe));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCall(BenchMatrixSpecs(argc, argv, &nsuite, &nmat, &specs));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &S.reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-warmup", &S.warmup, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-copy_mib", &copy_mib, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-sell_max_fill", &S.sell_max_fill, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-plan_reps", &S.plan_reps, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-held", &S.held, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-idle_ms", &S.idle_ms, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-values_reps", &S.values_reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-setup_reps", &S.setup_reps, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csv, sizeof(csv), NULL));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-mat_type", &set));
  PetscCheck(!set, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "bench_spmv compares fixed formats: leave -mat_type out");
  PetscCheck(S.reps >= 1 && S.warmup >= 0 && copy_mib >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need -reps >= 1, -warmup >= 0, -copy_mib >= 1");
  PetscCheck(S.idle_ms >= 0 && S.idle_ms <= 10000, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need 0 <= -idle_ms <= 10000");
  PetscCheck(S.values_reps >= 0 && S.values_reps <= BENCH_MAX_VALUES_REPS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need 0 <= -values_reps <= %d", BENCH_MAX_VALUES_REPS);
  PetscCheck(S.setup_reps >= 0 && S.setup_reps <= BENCH_MAX_SETUP_REPS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need 0 <= -setup_reps <= %d", BENCH_MAX_SETUP_REPS);
  PetscCheck(S.plan_reps >= 1 && S.plan_reps <= BENCH_MAX_PLAN_REPS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need 1 <= -plan_reps <= %d", BENCH_MAX_PLAN_REPS);
  PetscCheck(nmat > 0, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "No matrices: give -suite, -f or -dir");

  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(BenchCheckStream());
  PetscCall(BenchDeviceDescribe(device, sizeof(device)));
  PetscCall(PetscGetVersion(version, sizeof(version)));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device: %s\n%s\n", device, version));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " matrices; per method %" PetscInt_FMT " warm-up calls, then the median of %" PetscInt_FMT " calls timed with CUDA events on PETSc's stream%s%s\n", nmat, S.warmup, S.reps, S.held ? ", queued behind a held stream (the device alone)" : "", S.reps < 50 ? " (fewer than 50: medians are rough)" : ""));
  PetscCall(BenchCopyBandwidth((size_t)copy_mib << 20, 20, &S.copy_gbs));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "device-to-device copy of %" PetscInt_FMT " MiB: %.0f GB/s (read + write, median of 20)\n", copy_mib, (double)S.copy_gbs));
  PetscCall(BenchTimerCreate(S.reps, &S.timer));
  PetscCall(BenchTimerSetHeld(S.timer, S.held));
  PetscCall(RawCusparseCreate(&S.raw));
  if (csv[0]) PetscCall(BenchCSVOpen(csv, &fp));
  PetscCall(PetscCalloc1(nmat, &rec));

  {
    /* CUDA loads kernels lazily and libraries set themselves up on first use: pay that once on a tiny
       matrix, so that no measured matrix's first call (its setup figure) carries it */
    BenchSetup  W = S;
    BenchWork   w;
    BenchRecord r;

    W.reps      = 1;
    W.warmup    = 1;
    W.plan_reps = 1;
    PetscCall(PetscMemzero(&w, sizeof(w)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "warm-up of every method on lap3d:10, not reported:\n"));
    PetscCall(BenchOne(&W, &w, "lap3d:10", PETSC_FALSE, &r));
    PetscCall(BenchWorkClear(&W, &w));
  }

  for (PetscInt i = 0; i < nmat; i++) {
    const PetscBool   file = (PetscBool)(i >= nsuite);
    const char *const spec = specs[i];
    BenchWork         w;
    PetscErrorCode    ierr;

    PetscCall(PetscMemzero(&w, sizeof(w)));
    /* not PetscCall(): one matrix that fails (say, out of device memory) must not end the whole run */
    ierr = BenchOne(&S, &w, spec, file, &rec[i]);
    if (ierr) {
      (void)cudaGetLastError();
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] stopped by PETSc error %d; going on with the next matrix\n", spec, (int)ierr));
    }
    ierr = BenchWorkClear(&S, &w);
    if (ierr) PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] freeing it failed (PETSc error %d)\n", spec, (int)ierr));
    {
      size_t freeb, total;
      PetscCall(BenchDeviceMemory(&freeb, &total));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%s] done; device memory free %.1f of %.1f GiB\n", rec[i].name, (double)freeb / 1073741824.0, (double)total / 1073741824.0));
    }
    PetscCall(BenchReportHeader());
    PetscCall(BenchReportLine(&rec[i]));
    PetscCall(BenchCSVLine(fp, &rec[i]));
  }

  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\n==== results (%s)\n", device));
  PetscCall(BenchReportHeader());
  for (PetscInt i = 0; i < nmat; i++) PetscCall(BenchReportLine(&rec[i]));
  PetscCall(BenchReportSummary(rec, nmat, S.copy_gbs));

  PetscCall(BenchCSVClose(&fp));
  PetscCall(PetscFree(rec));
  PetscCall(RawCusparseDestroy(&S.raw));
  PetscCall(BenchTimerDestroy(&S.timer));
  PetscCall(BenchFreeList(nmat, &specs));
  PetscCall(PetscFinalize());
  return 0;
}
