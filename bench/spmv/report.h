/*
   bench_spmv's results: one record per matrix, printed as a table line and a CSV row, and the summary
   (geometric mean and worst case of each speedup, over all matrices and by class).
*/
#pragma once

#include "benchmat.h"

/* Every timed method: the PETSc formats (BenchFormat order) followed by the raw cuSPARSE algorithms. */
typedef enum {
  M_AIJCUSPARSE,
  M_SELLCUDA,
  M_AIJTUNED,
  M_CSR_ALG1,
  M_CSR_ALG2,
  M_SELL_ALG1,
  M_NMETHODS
} BenchMethod;

PETSC_INTERN const char *const BenchMethodName[M_NMETHODS];

/* How new values with the same pattern come (bench_spmv's TimeNewValues). */
typedef enum {
  BENCH_VALUES_HOST,  /* an assembly of new host values, as MatSetValues leaves them */
  BENCH_VALUES_SCALE, /* MatScale twice, on the GPU */
  BENCH_VALUES_STEP,  /* MatShift, MatScale twice, MatShift: a time step with a constant right-hand-side Jacobian */
  BENCH_VALUES_HOST_SCALE, /* an assembly of new host values, then MatScale twice on the GPU: a time step's right-hand-side Jacobian */
  BENCH_NVALUES_WAYS
} BenchValuesWay;

PETSC_INTERN const char *const BenchValuesWayName[BENCH_NVALUES_WAYS]; /* for the log */
PETSC_INTERN const char *const BenchValuesWayKey[BENCH_NVALUES_WAYS];  /* for the CSV */

typedef struct {
  char       name[PETSC_MAX_PATH_LEN];
  BenchClass cls;
  PetscBool  done; /* every format ran (a failed matrix keeps what it has, for the log, but stays out of the summary) */
  PetscInt64 rows, cols, nnz;
  PetscReal  us[M_NMETHODS];  /* median time per call; NAN where the method did not run */
  PetscReal  err[M_NMETHODS]; /* max |y - y_aijcusparse| / max |y_aijcusparse| */
  PetscReal  build_ms[BENCH_NFORMATS], first_ms[BENCH_NFORMATS];
  PetscReal  setup_ms[BENCH_NFORMATS]; /* from an assembled seqaij to the first product (bench_spmv -setup_reps), 0: not measured */
  PetscInt   strips;
  PetscReal  plan_ms, tune_ms; /* aijtuned's planning (median over -plan_reps assemblies) and tuning cost (MatAIJTunedGetSetupTimes) */
  PetscReal  plan_first_ms;    /* the first of those plannings */
  PetscReal  plan_alone_ms;    /* the same planning before the values' upload, not beside it (median; NAN where not measured) */
  PetscReal  copy_gbs;
  PetscReal  us_copy_same; /* one device-to-device copy moving as many bytes as the product's compulsory CSR traffic */
  PetscReal  us_idle[BENCH_NFORMATS]; /* -idle_ms: each PETSc format's product after the GPU was idle (median); NAN without */
  PetscReal  values_ms[BENCH_NVALUES_WAYS][BENCH_NFORMATS];  /* -values_reps: new values and the first product (median); NAN where not run */
  PetscReal  values_err[BENCH_NVALUES_WAYS][BENCH_NFORMATS]; /* the product after them against aijcusparse's first one */
} BenchRecord;

/* Figures derived from a record (NAN where an input is missing). */
typedef struct {
  PetscReal gbs_tuned, gbs_cusparse, copy_fraction;
  PetscReal copy_same_fraction; /* us_copy_same / aijtuned's time: against a copy of its own size, launch included */
  PetscReal speedup[3]; /* aijtuned over aijcusparse, sellcuda, best raw cuSPARSE: their time / aijtuned's */
  BenchMethod best_raw;
  PetscReal setup_tuned, setup_cusparse; /* in MatMult-equivalents of the format itself */
  PetscReal plan_calls, tune_calls;       /* aijtuned's planning and tuning, in its own MatMult-equivalents */
  PetscReal plan_idle_calls;              /* its planning in its products after the same idle as the planning's (-idle_ms) */
  PetscReal plan_alone_calls;             /* its planning before the values' upload, not beside it, in its products */
  PetscReal values_speedup[BENCH_NVALUES_WAYS]; /* new values and the first product: aijcusparse's time / aijtuned's */
} BenchDerived;

PETSC_INTERN PetscErrorCode BenchRecordInit(BenchRecord *, const char[], BenchClass, PetscReal);
PETSC_INTERN PetscReal      BenchCSRBytes(const BenchRecord *);
PETSC_INTERN PetscErrorCode BenchDerive(const BenchRecord *, BenchDerived *);
PETSC_INTERN PetscErrorCode BenchReportHeader(void);
PETSC_INTERN PetscErrorCode BenchReportLine(const BenchRecord *);
PETSC_INTERN PetscErrorCode BenchReportSummary(const BenchRecord *, PetscInt, PetscReal);
PETSC_INTERN PetscErrorCode BenchCSVOpen(const char[], FILE **);
PETSC_INTERN PetscErrorCode BenchCSVLine(FILE *, const BenchRecord *);
PETSC_INTERN PetscErrorCode BenchCSVClose(FILE **);
