/*
   Run-time tuning: during the first GPU products after a new plan, every CSR strip tries its threads per
   row and every split LONG strip its blocks per row, the plan's value and its neighbours (half, twice),
   one candidate per product.  A tuning product runs the strips one launch each with an event between
   them; its events are read at the next product, and only if they have completed (cudaEventQuery), so
   the host never waits.  Every product is the whole y = A x (+ z), whatever is tried.  When the products
   allowed have been timed each strip keeps its fastest candidate, the plan records it (-mat_view shows
   it), and the products go back to the fused launch.
*/
#include "aijtunedcuda.h"

#include <math.h>

/* The candidates of strip S (plan strip P): its parameter first; 0 where a neighbour is out of range.
   Strips of empty rows have nothing to tune. */
static void Candidates(const aijt_dev_strip *S, const aijt_strip *P, int cand[AIJT_TUNE_CANDS])
{
  for (int c = 0; c < AIJT_TUNE_CANDS; c++) cand[c] = 0;
  if (!S->nrows || !P->max_len) return;
  if (S->format == AIJT_CSR) {
    cand[0] = S->tpr;
    cand[1] = S->tpr > 1 ? S->tpr / 2 : 0;
    cand[2] = S->tpr < 32 ? S->tpr * 2 : 0;
  } else if (S->format == AIJT_LONG && S->blocks_per_row > 1) {
    cand[0] = S->blocks_per_row;
    cand[1] = S->blocks_per_row / 2; /* the workspace was sized for the plan's parts: fewer only */
  }
}

static void SetParam(aijt_dev_strip *S, int v)
{
  if (S->format == AIJT_CSR) S->tpr = v;
  else S->blocks_per_row = v;
}

PetscErrorCode MatSeqAIJTunedTuneFree(AIJTunedDevice d)
{
  AIJTunedTuner *t = d->tuner;

  PetscFunctionBegin;
  if (!t) PetscFunctionReturn(PETSC_SUCCESS);
  if (t->has_events)
    for (int s = 0; s <= d->nstrips; s++) PetscCallCUDA(cudaEventDestroy(t->ev[s]));
  PetscCall(PetscFree3(t->cand, t->best_ms, t->ev));
  PetscCall(PetscFree(d->tuner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a new plan's upload: candidates and events, if tuning is on and some strip has a neighbour. */
PetscErrorCode MatSeqAIJTunedTuneStart(Mat_SeqAIJTuned *ctx)
{
  AIJTunedDevice d = ctx->dev;
  AIJTunedTuner *t;
  PetscBool      any = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedTuneFree(d));
  if (!ctx->settings.tune || !d->nstrips) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&t));
  PetscCall(PetscMalloc3(d->nstrips * AIJT_TUNE_CANDS, &t->cand, d->nstrips * AIJT_TUNE_CANDS, &t->best_ms, d->nstrips + 1, &t->ev));
  for (int s = 0; s < d->nstrips; s++) {
    Candidates(&d->strips[s], &ctx->plan->strips[s], &t->cand[s * AIJT_TUNE_CANDS]);
    for (int c = 0; c < AIJT_TUNE_CANDS; c++) t->best_ms[s * AIJT_TUNE_CANDS + c] = INFINITY;
    any = (PetscBool)(any || t->cand[s * AIJT_TUNE_CANDS + 1] || t->cand[s * AIJT_TUNE_CANDS + 2]);
  }
  d->tuner = t;
  if (!any) { /* nothing to try */
    PetscCall(MatSeqAIJTunedTuneFree(d));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int s = 0; s <= d->nstrips; s++) PetscCallCUDA(cudaEventCreate(&t->ev[s]));
  t->has_events = PETSC_TRUE;
  t->left    = ctx->settings.tune_calls;
  t->pending = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read the times of the product in flight, if it has finished; *read tells whether it had. */
static PetscErrorCode Harvest(AIJTunedDevice d, PetscBool *read)
{
  AIJTunedTuner *t = d->tuner;
  cudaError_t    q;

  PetscFunctionBegin;
  *read = PETSC_TRUE;
  if (t->pending < 0) PetscFunctionReturn(PETSC_SUCCESS);
  q = cudaEventQuery(t->ev[d->nstrips]);
  if (q == cudaErrorNotReady) {
    *read = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallCUDA(q);
  for (int s = 0; s < d->nstrips; s++) {
    float ms, *best = &t->best_ms[s * AIJT_TUNE_CANDS + t->pending];
    if (!t->cand[s * AIJT_TUNE_CANDS + t->pending]) continue;
    PetscCallCUDA(cudaEventElapsedTime(&ms, t->ev[s], t->ev[s + 1]));
    if (ms < *best) *best = ms;
  }
  t->pending = -1;
  t->left--;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Keep each strip's fastest candidate, in the device descriptors and in the plan. */
static PetscErrorCode Finish(Mat_SeqAIJTuned *ctx)
{
  AIJTunedDevice d = ctx->dev;
  AIJTunedTuner *t = d->tuner;

  PetscFunctionBegin;
  for (int s = 0; s < d->nstrips; s++) {
    const int   *cand = &t->cand[s * AIJT_TUNE_CANDS];
    const float *ms   = &t->best_ms[s * AIJT_TUNE_CANDS];
    int          best = 0;
    if (!cand[0]) continue;
    for (int c = 1; c < AIJT_TUNE_CANDS; c++)
      if (cand[c] && ms[c] < 0.98f * ms[best]) best = c; /* a neighbour must be clearly faster */
    SetParam(&d->strips[s], cand[best]);
    if (d->strips[s].format == AIJT_CSR) ctx->plan->strips[s].tpr = cand[best];
    else ctx->plan->strips[s].blocks_per_row = cand[best];
    if (isfinite(ms[best])) ctx->plan->strips[s].tuned_us = 1e3 * (double)ms[best];
  }
  PetscCall(MatSeqAIJTunedTuneFree(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A tuning product: y = A x (+ z) strip by strip with one candidate per strip, events between the strips.
   *done is false when there is nothing (more) to tune: the caller runs the fused launch. */
PetscErrorCode MatSeqAIJTunedTuneProduct(Mat A, Mat_SeqAIJTuned *ctx, const double *x, const double *z, double *y, cudaStream_t stream, PetscBool *done)
{
  AIJTunedDevice d = ctx->dev;
  AIJTunedTuner *t = d->tuner;
  int            nrun = d->nstrips - (z == y ? d->nempty : 0), c;
  PetscBool      read;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!t) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Tune, A, 0, 0, 0));
  PetscCall(Harvest(d, &read));
  if (read && !t->left) PetscCall(Finish(ctx));
  if (!read || !d->tuner) { /* still running, or tuned: this product is an ordinary one */
    PetscCall(PetscLogEventEnd(MAT_AIJTuned_Tune, A, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  c = (int)(t->calls++ % AIJT_TUNE_CANDS);
  PetscCallCUDA(cudaEventRecord(t->ev[0], stream));
  for (int s = 0; s < d->nstrips; s++) {
    aijt_dev_strip S = d->strips[s];
    int            v = t->cand[s * AIJT_TUNE_CANDS + c];
    if (v) SetParam(&S, v);
    if (s < nrun) PetscCallCUDA(aijt_cuda_strip(&S, x, z, y, stream));
    PetscCallCUDA(cudaEventRecord(t->ev[s + 1], stream));
  }
  PetscCallCUDA(aijt_cuda_tail(&d->tail, x, y, stream));
  t->pending = c;
  *done      = PETSC_TRUE;
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Tune, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
