/*
   The benchmarks' matrices: a CSR from the generated suite or from a Matrix Market file, and PETSc
   matrices of each compared format built from it.
*/
#pragma once

#include <petscmataijtuned.h> /* petscmat.h, and PETSC_SUCCESS on PETSc 3.18 */
#include "matgen.h"

/* The PETSc formats compared, in the order they run (aijcusparse first: it is the reference). */
typedef enum {
  BENCH_AIJCUSPARSE,
  BENCH_SELLCUDA,
  BENCH_AIJTUNED,
  BENCH_NFORMATS
} BenchFormat;

PETSC_INTERN const char *const BenchFormatName[BENCH_NFORMATS];
PETSC_INTERN const MatType     BenchFormatType[BENCH_NFORMATS];

/* Where a matrix comes from, for grouping the results. */
typedef enum {
  BENCH_REGULAR, /* the generated classes first, in matgen_class's order */
  BENCH_IRREGULAR,
  BENCH_SMALL,
  BENCH_FILE,
  BENCH_NCLASSES
} BenchClass;

PETSC_INTERN const char *const BenchClassName[BENCH_NCLASSES];

PETSC_INTERN PetscErrorCode BenchCSRGenerate(const char[], matgen_csr *, char[], size_t, BenchClass *);
PETSC_INTERN PetscErrorCode BenchCSRLoad(const char[], matgen_csr *, char[], size_t);
PETSC_INTERN PetscErrorCode BenchMatCreate(const matgen_csr *, MatType, Mat *);
PETSC_INTERN PetscErrorCode BenchListFiles(const char[], PetscInt *, char ***);
PETSC_INTERN PetscErrorCode BenchListAppend(const char[], PetscInt *, PetscInt *, char ***);
PETSC_INTERN PetscErrorCode BenchSuiteNames(PetscInt *, char ***);
PETSC_INTERN PetscErrorCode BenchMatrixSpecs(int, char **, PetscInt *, PetscInt *, char ***);
PETSC_INTERN PetscErrorCode BenchFreeList(PetscInt, char ***);
