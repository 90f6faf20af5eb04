/* The device side of seqaijtuned, shared by the upload and product (aijtunedcuda.c) and run-time tuning
   (aijtunedtune.c). */
#pragma once

#include "../../aijtunedimpl.h"
#include <petscdevice_cuda.h>
#include "aijtkernels.h"

/* Run-time tuning of one plan's strips (aijtunedtune.c; the policy is plan/tuner.c). */
typedef struct {
  aijt_tuner     *tuner;    /* NULL once the parameters are chosen */
  int            *tune;     /* nstrips: 1 for the strips being tuned (not found in the cache) */
  int            *params;   /* nstrips: the parameters of the trial being launched */
  aijt_dev_strip *trial;    /* nstrips: the strips with them */
  uint64_t       *fingerprint; /* nstrips: each strip's key in the tuning cache */
  cudaEvent_t    *ev;       /* nstrips + 2: around a trial (0, 1), or between the strips of the timing product
                               and after its tail */
  aijt_tune_entry *entries; /* nstrips: the results for the cache, made ready here so that no product allocates */
  PetscBool       has_events;
  int             pending;  /* what the product in flight times: a trial (>= 0), AIJT_TUNER_STRIPS, or AIJT_TUNER_NONE */
  int             trials;   /* the tuner's, once it has chosen: how many it timed, */
  double          extra_ms, kept_ms; /* their cost beyond the kept parameters, and those's time (aijt_tuner_extra_ms) */
  char            path[PETSC_MAX_PATH_LEN]; /* the tuning cache; "" for none */
  char            device[128], model[48];
} AIJTunedTuner;

struct _n_AIJTunedDevice {
  void            *buffer; /* every strip's arrays and the tail, one allocation */
  size_t           bytes;
  aijt_dev_strip  *strips; /* host array of descriptors pointing into buffer */
  int              nstrips;
  int              nempty; /* trailing strips of empty rows: y = A x + y skips them */
  aijt_dev_coo     tail;
  const aijt_int  *hot;  /* a plan with a column order: the layouts' hot columns, and the copy of x */
  double          *xhot; /* the strips read, gathered at the start of each product */
  aijt_int         nhot;
  aijt_int       **src;     /* each strip's refresh map (NULL: the strip's slots are the CSR's values themselves, its
                               val pointing at those the last build or refill read: InPlace in aijtunedcuda.c), */
  aijt_int        *tail_src; /* the tail's, and the CSR values they read; NULL when uploaded */
  double          *values;   /* the CSR's values on the device, in the host's order (refills read them), */
  PetscObjectState values_state; /* and the state whose values they are (unscaled); 0: none (NULL: not made, or given back) */
  aijt_int         nnz;
  PetscBool        values_apart; /* values is an allocation of its own (uploaded beside the planner, or made for new values), not in buffer */
  PetscInt         plans_made; /* the plan these copies were made from */
  PetscObjectState state;      /* the values they hold, */
  double           scale;      /* times this: MatScale's factors since they were written (MatSeqAIJTunedCUDAScale) */
  AIJTunedTuner   *tuner;      /* NULL when nothing is (left) to tune */
  aijt_dev_strip  *part[2];    /* windows of the strips for a product in parts (aijtunedparts.c): middle rows, edge rows */
  int              npart[2];
  PetscInt         part_lo, part_hi; /* the rows they were cut at */
  int              part_made;   /* 1: made for part_lo, part_hi; -1: this plan cannot be cut there; 0: not tried */
};

/* Whether the base's device copy holds A's current values (the base's operations on the GPU leave them there alone):
   the refill and MatShift read them there */
static inline PetscBool MatAIJTunedBaseValuesOnDevice(Mat A)
{
  return (PetscBool)(A->offloadmask == PETSC_OFFLOAD_GPU || A->offloadmask == PETSC_OFFLOAD_BOTH);
}

/* Notes that the base's device matrix exists for A's pattern where its values are current there: its copy to the
   GPU made the matrix (cuSPARSE's CSR) for the pattern it had, and only a new pattern (a new nonzero state) makes
   another (MatSeqAIJTunedCUDABaseValuesUp writes its values) */
static inline void MatAIJTunedNoteBaseMatrix(Mat A, Mat_SeqAIJTuned *ctx)
{
  if (!A->boundtocpu && MatAIJTunedBaseValuesOnDevice(A)) ctx->base_pattern = A->nonzerostate + 1;
}

/* Whether the base's device arrays may be read and written as A's values: current there, A allocated and not bound
   to the CPU (MatShift, MatGetDiagonal and MatZeroEntries on the GPU: aijtuneddiagonal.c, aijtunedzero.c) */
static inline PetscBool MatAIJTunedBaseDeviceUsable(Mat A)
{
  return (PetscBool)(!A->boundtocpu && A->preallocated && MatAIJTunedBaseValuesOnDevice(A));
}

/* A device allocation's result: cudaErrorMemoryAllocation makes *room false, other errors are PETSc's (aijtunedcuda.c) */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDARoom(cudaError_t, PetscBool *);
/* Bytes of a host array to the device on a stream, the host free to write it again on return (aijtunedcuda.c) */
PETSC_INTERN cudaError_t MatSeqAIJTunedCUDAHostToDevice(Mat_SeqAIJTuned *, void *, const void *, size_t, cudaStream_t);
/* All the pool's unused memory given back once the stream is done, PETSc's too (aijtunedpool.c) */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAPoolEmpty(Mat_SeqAIJTuned *, cudaStream_t);
/* The CSR's structure in ctx->dev_rowptr, ctx->dev_colidx (aijtunedplangpu.c); *room as above */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDAUploadStructure(Mat, Mat_SeqAIJTuned *, const aijt_csr *, cudaStream_t, size_t *, PetscBool *);
/* The host's values of A (its array) up into a device array of the matrix's nnz entries (aijtunedcuda.c) */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDASendValues(Mat, Mat_SeqAIJTuned *, double *, const PetscScalar *, PetscBool, cudaStream_t);
/* New host values up into the base's device matrix where it exists for A's pattern, for the refill to read there;
   *done false where nothing was done (aijtunedbasevalues.c) */
PETSC_INTERN PetscErrorCode MatSeqAIJTunedCUDABaseValuesFromHost(Mat, Mat_SeqAIJTuned *, PetscBool, cudaStream_t, PetscBool *);

PETSC_INTERN PetscErrorCode MatSeqAIJTunedTuneStart(Mat_SeqAIJTuned *, const aijt_csr *);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedTuneFree(AIJTunedDevice);
PETSC_INTERN PetscErrorCode MatSeqAIJTunedTuneProduct(Mat, Mat_SeqAIJTuned *, const double *, const double *, double *, cudaStream_t, PetscBool *);
