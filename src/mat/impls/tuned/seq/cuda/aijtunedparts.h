/* A seqaijtuned product launched in pieces on streams the caller chooses (aijtunedparts.c): what the MPI
   product needs to run the diagonal block's edge rows and the off-diagonal block beside the other rows;
   and the device arrays of a product's vectors, which every product on the GPU gets alike. */
#pragma once

#include "../../aijtunedimpl.h"
#include <petscdevice_cuda.h>

typedef enum {
  AIJT_PART_MIDDLE, /* rows [lo, hi) */
  AIJT_PART_EDGES   /* rows [0, lo) and [hi, n) */
} AIJTunedPart;

PETSC_INTERN const MatAIJTunedVecAccess MatAIJTunedCUDAArrays; /* the vectors' device arrays (MatAIJTunedGetVecArrays) */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAPartsReady(Mat, PetscInt, PetscInt, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAPartMult(Mat, AIJTunedPart, const double *, const double *, double *, cudaStream_t);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAEdgesReady(Mat, PetscInt, PetscInt, PetscBool *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAMultAddEdges(Mat, const double *, double *, cudaStream_t);
