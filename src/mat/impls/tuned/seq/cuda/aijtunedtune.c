/*
   Run-time tuning on the GPU: the products that time what plan/tuner.c asks for, and the tuning cache.

   After a new plan's upload each tunable strip is looked up in the tuning cache (aijtunedcache.c); strips
   found take their cached parameter and are not tuned.  For the others, each of the first products runs
   one trial of the tuner, the whole fused product with one strip's parameter changed, between two
   events.  The events are read at the next product, and only if they have completed (cudaEventQuery),
   so the host never waits; while they have not, products run as usual.  Every product is the whole
   y = A x (+ z), whatever is tried.  When the tuner has chosen, one more product runs the strips one
   launch each with events between them, for each strip's time (-mat_view shows it), and the chosen
   parameters go to the cache.
*/
#include "aijtunedcuda.h"

#define AIJT_TUNER_NONE   (-1) /* nothing in flight */
#define AIJT_TUNER_STRIPS (-2) /* the product that times each strip */

PetscErrorCode MatSeqAIJTunedTuneFree(AIJTunedDevice d)
{
  AIJTunedTuner *t = d->tuner;

  PetscFunctionBegin;
  if (!t) PetscFunctionReturn(PETSC_SUCCESS);
  aijt_tuner_destroy(&t->tuner);
  if (t->has_events)
    for (int s = 0; s <= d->nstrips + 1; s++) PetscCallCUDA(cudaEventDestroy(t->ev[s]));
  PetscCall(PetscFree6(t->tune, t->params, t->trial, t->fingerprint, t->ev, t->entries));
  PetscCall(PetscFree(d->tuner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device strip D takes the launch parameters of plan strip P with its tunable one at value: which
   parameter a format tunes is aijt_tune_set_param()'s to say. */
static void DevSetParam(aijt_dev_strip *D, const aijt_strip *P, int value)
{
  aijt_strip q = *P;

  aijt_tune_set_param(&q, value);
  D->tpr            = q.tpr;
  D->blocks_per_row = q.blocks_per_row;
}

static void SetParam(Mat_SeqAIJTuned *ctx, int s, int value)
{
  aijt_tune_set_param(&ctx->plan->strips[s], value);
  DevSetParam(&ctx->dev->strips[s], &ctx->plan->strips[s], value);
}

/* The strips found in the cache take their parameters; *left counts the others that have candidates. */
static PetscErrorCode FromCache(Mat_SeqAIJTuned *ctx, const aijt_csr *A, AIJTunedTuner *t, PetscInt *left)
{
  const aijt_tune_cache *entries = NULL;
  PetscInt               found = 0;

  PetscFunctionBegin;
  *left = 0;
  if (t->path[0]) PetscCall(MatAIJTunedCacheGet(t->path, &entries));
  if (aijt_layouts_rows_elsewhere(ctx->layouts)) { /* the strips' patterns from their rows on the device (the structure is still there too) */
    cudaStream_t stream;
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCallCUDA(aijt_dev_strip_patterns(ctx->dev->strips, ctx->dev->nstrips, ctx->dev_rowptr, ctx->dev_colidx, t->fingerprint, stream));
  }
  for (int s = 0; s < ctx->dev->nstrips; s++) {
    aijt_strip            *P = &ctx->plan->strips[s];
    const aijt_layout     *S = &ctx->layouts->strips[s];
    const aijt_tune_entry *e;
    int                    cand[2];
    t->tune[s] = aijt_tune_candidates(P, cand) > 0;
    if (!t->tune[s]) continue;
    t->fingerprint[s] = S->rows || !S->nrows ? aijt_strip_fingerprint(P, S, A) : aijt_strip_fingerprint_of(P, S, t->fingerprint[s]);
    e                 = entries ? aijt_tune_cache_find(entries, t->device, t->model, t->fingerprint[s]) : NULL;
    if (e && e->format == P->format && aijt_tune_param_ok(P, e->param)) {
      SetParam(ctx, s, e->param);
      P->tuned_us = e->tuned_us;
      t->tune[s]  = 0;
      found++;
    } else (*left)++;
  }
  if (found) PetscCall(PetscInfo(NULL, "aijtuned: %" PetscInt_FMT " strips tuned from the cache, %" PetscInt_FMT " to tune\n", found, *left));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a new plan's upload: the cache, then a tuner for what it did not have, if tuning is on. */
PetscErrorCode MatSeqAIJTunedTuneStart(Mat_SeqAIJTuned *ctx, const aijt_csr *A)
{
  AIJTunedDevice    d = ctx->dev;
  AIJTunedTuner    *t;
  const aijt_model *model;
  PetscInt          left;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedTuneFree(d));
  ctx->tune_extra_ms = 0.0; /* until a tuner runs */
  ctx->tuning        = PETSC_FALSE;
  if (!ctx->settings.tune || !d->nstrips) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&t));
  d->tuner = t;
  PetscCall(PetscMalloc6(d->nstrips, &t->tune, d->nstrips, &t->params, d->nstrips, &t->trial, d->nstrips, &t->fingerprint, d->nstrips + 2, &t->ev, d->nstrips, &t->entries));
  PetscCall(MatAIJTunedCachePath(&ctx->settings, t->path, sizeof(t->path)));
  PetscCall(MatAIJTunedCUDADeviceName(t->device, sizeof(t->device)));
  PetscCall(MatAIJTunedModelGet(&ctx->planned, &model));
  aijt_model_key(model, t->model, sizeof(t->model));
  PetscCall(FromCache(ctx, A, t, &left));
  if (left) PetscCall(MatAIJTunedCheck(aijt_tuner_create(ctx->plan, t->tune, (int)ctx->settings.tune_calls, &t->tuner)));
  if (!t->tuner) { /* nothing (left) to try */
    PetscCall(MatSeqAIJTunedTuneFree(d));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int s = 0; s <= d->nstrips + 1; s++) PetscCallCUDA(cudaEventCreate(&t->ev[s]));
  t->has_events      = PETSC_TRUE;
  t->pending         = AIJT_TUNER_NONE;
  ctx->tuning        = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The strips' times from the timing product, what tuning cost, and the tuned strips into the cache;
   tuning ends. */
static PetscErrorCode Finish(Mat_SeqAIJTuned *ctx)
{
  AIJTunedDevice   d = ctx->dev;
  AIJTunedTuner   *t = d->tuner;
  aijt_tune_entry *e = t->entries;
  PetscInt         n = 0;
  float            whole;

  PetscFunctionBegin;
  /* the timing product, strip by strip, costs what it takes beyond a fused one too */
  PetscCallCUDA(cudaEventElapsedTime(&whole, t->ev[0], t->ev[d->nstrips + 1]));
  ctx->tune_extra_ms = t->extra_ms + (t->kept_ms > 0 ? (double)whole - t->kept_ms : 0.0);
  ctx->tuning        = PETSC_FALSE;
  PetscCall(PetscInfo(NULL, "aijtuned: tuning timed %d products; they and the product timing each strip took %.4g ms beyond as many of the kept parameters' fused product (%.4g ms each): %.3g products\n", t->trials, ctx->tune_extra_ms, t->kept_ms,
                      t->kept_ms > 0 ? ctx->tune_extra_ms / t->kept_ms : 0.0));
  for (int s = 0; s < d->nstrips; s++) {
    aijt_strip *P = &ctx->plan->strips[s];
    float       ms;
    PetscCallCUDA(cudaEventElapsedTime(&ms, t->ev[s], t->ev[s + 1]));
    if (P->max_len) P->tuned_us = 1e3 * (double)ms;
    if (!t->tune[s]) continue;
    PetscCall(PetscMemzero(&e[n], sizeof(e[n])));
    PetscCall(PetscStrncpy(e[n].device, t->device, sizeof(e[n].device)));
    PetscCall(PetscStrncpy(e[n].model, t->model, sizeof(e[n].model)));
    e[n].fingerprint = t->fingerprint[s];
    e[n].format      = P->format;
    e[n].param       = aijt_tune_param(P);
    e[n++].tuned_us  = P->tuned_us;
  }
  if (t->path[0] && n) PetscCall(MatAIJTunedCacheStore(t->path, e, n));
  PetscCall(MatSeqAIJTunedTuneFree(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read the product in flight if it has completed; *busy when it has not. */
static PetscErrorCode Harvest(Mat_SeqAIJTuned *ctx, PetscBool *busy)
{
  AIJTunedDevice d = ctx->dev;
  AIJTunedTuner *t = d->tuner;
  cudaError_t    q;
  float          ms;

  PetscFunctionBegin;
  *busy = PETSC_FALSE;
  if (t->pending == AIJT_TUNER_NONE) PetscFunctionReturn(PETSC_SUCCESS);
  q = cudaEventQuery(t->ev[t->pending == AIJT_TUNER_STRIPS ? d->nstrips + 1 : 1]);
  if (q == cudaErrorNotReady) {
    *busy = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallCUDA(q);
  if (t->pending == AIJT_TUNER_STRIPS) PetscCall(Finish(ctx));
  else {
    PetscCallCUDA(cudaEventElapsedTime(&ms, t->ev[0], t->ev[1]));
    aijt_tuner_record(t->tuner, t->pending, (double)ms);
    t->pending = AIJT_TUNER_NONE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A tuning product, y = A x (+ z): the tuner's next trial, or the product that times each strip.
   *done is false when the caller is to run the usual fused launch. */
PetscErrorCode MatSeqAIJTunedTuneProduct(Mat A, Mat_SeqAIJTuned *ctx, const double *x, const double *z, double *y, cudaStream_t stream, PetscBool *done)
{
  AIJTunedDevice d = ctx->dev;
  AIJTunedTuner *t = d->tuner;
  int            nrun = d->nstrips - (z == y ? d->nempty : 0), trial;
  PetscBool      busy;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!t) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Tune, A, 0, 0, 0));
  PetscCall(Harvest(ctx, &busy));
  if (busy || !d->tuner) { /* still running, or tuning has ended: an ordinary product */
    PetscCall(PetscLogEventEnd(MAT_AIJTuned_Tune, A, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  trial = t->tuner ? aijt_tuner_next(t->tuner, t->params) : AIJT_TUNE_DONE;
  if (trial >= 0) {
    for (int s = 0; s < d->nstrips; s++) {
      t->trial[s] = d->strips[s];
      DevSetParam(&t->trial[s], &ctx->plan->strips[s], t->params[s]);
    }
    PetscCallCUDA(cudaEventRecord(t->ev[0], stream));
    PetscCallCUDA(aijt_cuda_spmv(t->trial, nrun, &d->tail, d->scale, x, z, y, stream));
    PetscCallCUDA(cudaEventRecord(t->ev[1], stream));
    t->pending = trial;
    *done      = PETSC_TRUE;
  } else if (trial == AIJT_TUNE_DONE) { /* keep the choice; this product times each strip with it */
    if (t->tuner) {
      const int *best = aijt_tuner_params(t->tuner);
      t->trials       = t->tuner->ntrials;
      t->extra_ms     = aijt_tuner_extra_ms(t->tuner, &t->kept_ms);
      for (int s = 0; s < d->nstrips; s++)
        if (t->tune[s]) SetParam(ctx, s, best[s]);
      aijt_tuner_destroy(&t->tuner);
    }
    PetscCallCUDA(cudaEventRecord(t->ev[0], stream));
    for (int s = 0; s < d->nstrips; s++) {
      if (s < nrun) PetscCallCUDA(aijt_cuda_strip(&d->strips[s], d->scale, x, z, y, stream));
      PetscCallCUDA(cudaEventRecord(t->ev[s + 1], stream));
    }
    PetscCallCUDA(aijt_cuda_tail(&d->tail, d->scale, x, y, stream));
    PetscCallCUDA(cudaEventRecord(t->ev[d->nstrips + 1], stream));
    t->pending = AIJT_TUNER_STRIPS;
    *done      = PETSC_TRUE;
  }
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Tune, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
