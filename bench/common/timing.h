/*
   Device timing for the benchmarks: CUDA event pairs around each call on PETSc's current stream, and
   host wall times taken after the device has finished everything queued.
*/
#pragma once

#include <petscmat.h>

/* One operation to time, for example one MatMult or one cusparseSpMV. */
typedef PetscErrorCode (*BenchOp)(void *);

typedef struct _n_BenchTimer *BenchTimer;

PETSC_INTERN PetscErrorCode BenchTimerCreate(PetscInt, BenchTimer *);
PETSC_INTERN PetscErrorCode BenchTimerDestroy(BenchTimer *);
PETSC_INTERN PetscErrorCode BenchTimerSetHeld(BenchTimer, PetscBool);
PETSC_INTERN PetscErrorCode BenchTimerHostUs(BenchTimer, PetscReal *);
PETSC_INTERN PetscErrorCode BenchTimeOp(BenchTimer, BenchOp, void *, PetscInt, PetscInt, PetscReal *);
PETSC_INTERN PetscErrorCode BenchTimeOpAfterIdle(BenchTimer, BenchOp, void *, PetscInt, PetscInt, PetscReal *);
PETSC_INTERN PetscErrorCode BenchWallTime(PetscLogDouble *);
PETSC_INTERN PetscErrorCode BenchCopyBandwidth(size_t, PetscInt, PetscReal *);
PETSC_INTERN PetscErrorCode BenchCopyTime(BenchTimer, size_t, PetscInt, PetscInt, PetscReal *);
PETSC_INTERN PetscErrorCode BenchDeviceMemory(size_t *, size_t *);
PETSC_INTERN PetscErrorCode BenchDeviceDescribe(char[], size_t);
PETSC_INTERN PetscErrorCode BenchCheckStream(void);

/* BenchOp for MatMult(A, x, y) */
typedef struct {
  Mat A;
  Vec x, y;
} BenchMatMultCtx;
PETSC_INTERN PetscErrorCode BenchMatMultOp(void *);
