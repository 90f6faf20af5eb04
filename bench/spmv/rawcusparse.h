/*
   cuSPARSE called directly on the same matrix, the baselines below PETSc: CSR with CUSPARSE_SPMV_CSR_ALG1
   and ALG2, and sliced ELLPACK (slice 32) with CUSPARSE_SPMV_SELL_ALG1.  Double values, 32-bit indices,
   y = A x (alpha 1, beta 0), on PETSc's current stream; descriptors, the external buffer and the
   preprocessing are made before the timed calls.
*/
#pragma once

#include <petscsys.h>
#include "matgen.h"

typedef enum {
  RAW_CSR_ALG1,
  RAW_CSR_ALG2,
  RAW_SELL_ALG1,
  RAW_NALGS
} RawAlg;

PETSC_INTERN const char *const RawAlgName[RAW_NALGS];

typedef struct _n_RawCusparse *RawCusparse;

PETSC_INTERN PetscErrorCode RawCusparseCreate(RawCusparse *);
PETSC_INTERN PetscErrorCode RawCusparseDestroy(RawCusparse *);
PETSC_INTERN PetscErrorCode RawCusparseSetMatrix(RawCusparse, const matgen_csr *);
PETSC_INTERN PetscErrorCode RawCusparseClearMatrix(RawCusparse);
PETSC_INTERN PetscErrorCode RawCusparseSetup(RawCusparse, RawAlg, PetscReal, const PetscScalar *, PetscScalar *, PetscBool *, char[], size_t);
PETSC_INTERN PetscErrorCode RawCusparseTeardown(RawCusparse);
PETSC_INTERN PetscErrorCode RawCusparseMult(void *); /* a BenchOp: one SpMV of the set-up algorithm */
