/* The device side of seqaijtuned, shared by the upload and product (aijtunedcuda.c) and run-time tuning
   (aijtunedtune.c). */
#pragma once

#include "../../aijtunedimpl.h"
#include <petscdevice_cuda.h>
#include "aijtkernels.h"

/* Run-time tuning of one plan's strips (aijtunedtune.c). */
#define AIJT_TUNE_CANDS 3 /* the plan's parameter, half of it, twice it */

typedef struct {
  PetscInt     left;    /* products still to time; 0: done */
  PetscInt     calls;   /* tuning products made */
  int          pending; /* candidate timed by the product in flight, -1: none */
  int         *cand;    /* nstrips x AIJT_TUNE_CANDS parameter values, 0: no such candidate */
  float       *best_ms; /* nstrips x AIJT_TUNE_CANDS shortest time seen */
  cudaEvent_t *ev;      /* nstrips + 1 events around the strips of the product in flight */
  PetscBool    has_events;
} AIJTunedTuner;

struct _n_AIJTunedDevice {
  void            *buffer; /* every strip's arrays and the tail, one allocation */
  size_t           bytes;
  aijt_dev_strip  *strips; /* host array of descriptors pointing into buffer */
  int              nstrips;
  int              nempty; /* trailing strips of empty rows: y = A x + y skips them */
  aijt_dev_coo     tail;
  PetscInt         plans_made; /* the plan these copies were made from */
  PetscObjectState state;      /* the values they hold */
  AIJTunedTuner   *tuner;      /* NULL when nothing is (left) to tune */
};

PETSC_INTERN PetscErrorCode MatSeqAIJTunedTuneStart(Mat_SeqAIJTuned *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedTuneFree(AIJTunedDevice);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedTuneProduct(Mat, Mat_SeqAIJTuned *, const double *, const double *, double *, cudaStream_t, PetscBool *);
