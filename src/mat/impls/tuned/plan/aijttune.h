/*
   Run-time tuning, the policy and its memory: pure C, no PETSc, no CUDA.  The glue
   (seq/cuda/aijtunedtune.c) times the products; this decides what they run and what is kept.

   The tuner.  Each CSR strip may try half and twice its threads per row, each split LONG strip half
   its blocks per row (its workspace was sized for the plan's parts).  A candidate changes one strip and
   is timed as the whole fused product, the way it will run: a strip timed alone can prefer a parameter
   that is slower beside the others (bench/results/2026-11-21-h200-tuning-v1).  The trials:
     - a round of [plan's parameters, candidate 1, ..., candidate K], each trial one product, then
       another of the plan and the candidates that came within 10% of it (the others cannot win);
     - then, if some candidates beat the plan by the margin, [winners together, plan] twice;
   the winners together are kept when they beat the plan by the margin in those last trials, else the
   plan's parameters stay.  Each product is a whole y = A x, so tuning costs only the difference between the
   candidates and the best, never a wrong answer.

   The cache.  A text file of tuned parameters, one line per strip:

       aijtuned-tune-cache 1
       <device> TAB <model> TAB <fingerprint, 16 hex digits> TAB <format> TAB <parameter> TAB <tuned us>

   keyed by the device name, the model that made the plan ("rules" without one) and the strip's
   fingerprint (its format, sizes, planned parameters and pattern), so a later run with the same matrix
   on the same GPU skips tuning.  A missing, unreadable, stale or corrupt file reads as empty, with the
   reason.  Writers take a lock file, merge what the file holds with their own entries and replace the
   file by rename: readers see the old or the new file, never a part, and ranks do not lose each
   other's entries.
*/
#pragma once

#include "aijtmodel.h"

/* ---- the tuner ---- */

#define AIJT_TUNE_MARGIN 0.02 /* a candidate must be this much faster than the plan to be kept ... */
#define AIJT_TUNE_MIN_GAIN_MS 0.0005 /* ... and by at least this (ms): CUDA events resolve about 0.5 us, so a
                                        product of a few us cannot show a 2% gain (ct2010's 8.3 us product ran
                                        8.6 after tuning on such noise, bench/results/2026-11-21-h200-tuning-v2) */
#define AIJT_TUNE_ROUNDS 2    /* timings of each candidate (the fastest counts) ... */
#define AIJT_TUNE_PRUNE  0.10 /* ... after the first, only of those within this of the plan's time */
#define AIJT_TUNE_WAIT   (-1) /* aijt_tuner_next: every trial issued, some not timed yet */
#define AIJT_TUNE_DONE   (-2) /* aijt_tuner_next: all timed; aijt_tuner_params has the result */

/* The strip's tunable parameter (CSR, PANEL: threads per row, STREAM: lanes per row, LONG: blocks per
   row; 0: none). */
int  aijt_tune_param(const aijt_strip *P);
void aijt_tune_set_param(aijt_strip *P, int value);
/* Its candidates besides its own value, into cand[2] (0: none); their count. */
int aijt_tune_candidates(const aijt_strip *P, int cand[2]);
/* Whether value (a tuning cache's) is one the strip's kernels take. */
int aijt_tune_param_ok(const aijt_strip *P, int value);

typedef struct {
  int  strip, value; /* value: the parameter tried; strip -1 for the plan's, -2 for the winners together */
  double ms;         /* its time, < 0 until recorded */
} aijt_tune_trial;

typedef struct {
  int              nstrips;
  int             *base;    /* the plan's parameter of each strip */
  int             *best;    /* the result */
  int              ntrials, issued, recorded, cap;
  aijt_tune_trial *trials;
  int              phase;   /* 0: candidates, 1: winners against the plan, 2: done */
  int              first_round; /* trials [0, first_round): the plan's and every candidate's first */
  int              rounds_left; /* rounds still to time (the candidates within AIJT_TUNE_PRUNE) */
} aijt_tuner;

/* A tuner for the strips marked in tune[] (NULL: all), within max_trials products; *T is NULL when
   there is nothing to try. */
aijt_err aijt_tuner_create(const aijt_plan *plan, const int *tune, int max_trials, aijt_tuner **T);
void     aijt_tuner_destroy(aijt_tuner **T);
/* The next trial to run, with each strip's parameter for it in params[nstrips]; or AIJT_TUNE_WAIT or
   AIJT_TUNE_DONE. */
int  aijt_tuner_next(aijt_tuner *T, int *params);
void aijt_tuner_record(aijt_tuner *T, int trial, double ms);
/* What was chosen (after AIJT_TUNE_DONE): each strip's parameter. */
const int *aijt_tuner_params(const aijt_tuner *T);
/* What the trials cost beyond as many products with the chosen parameters (after AIJT_TUNE_DONE): the
   sum of their times less their count times the fastest trial of the chosen parameters, *kept_ms (ms).
   Below zero when a candidate ran faster than the kept parameters without beating them by the margin. */
double aijt_tuner_extra_ms(const aijt_tuner *T, double *kept_ms);

/* ---- the cache ---- */

#define AIJT_TUNE_CACHE_VERSION 1

typedef struct {
  char        device[128];
  char        model[48];
  uint64_t    fingerprint;
  aijt_format format;
  int         param;
  double      tuned_us;
} aijt_tune_entry;

typedef struct {
  int              n, cap;
  aijt_tune_entry *e;
} aijt_tune_cache;

/* A strip's identity for the cache: its format, sizes, planned parameters and pattern.  The pattern is
   aijt_strip_pattern: over the strip's rows, each one's position, original row, offsets and first and
   last columns in A, the CSR it was laid out from (aijtrowprint.h), so the same for host-built layouts,
   for a skeleton, and for a skeleton whose rows stay on the device (kernels/skeleton.cu sums them there:
   aijt_strip_fingerprint_of takes that sum).  The planned, not the tuned, parameter. */
uint64_t aijt_strip_fingerprint(const aijt_strip *P, const aijt_layout *S, const aijt_csr *A);
uint64_t aijt_strip_pattern(const aijt_layout *S, const aijt_csr *A);
uint64_t aijt_strip_fingerprint_of(const aijt_strip *P, const aijt_layout *S, uint64_t pattern);
/* The model's identity for the cache ("m<version>-<hash of its numbers>", or "rules" for NULL). */
void aijt_model_key(const aijt_model *m, char *key, size_t len);

/* Read path into c (emptied first).  Not AIJT_OK: c is empty and why says what was wrong. */
aijt_err aijt_tune_cache_read(const char *path, aijt_tune_cache *c, char *why, size_t whylen);
const aijt_tune_entry *aijt_tune_cache_find(const aijt_tune_cache *c, const char *device, const char *model, uint64_t fingerprint);
/* Add e, or replace the entry of the same key. */
aijt_err aijt_tune_cache_put(aijt_tune_cache *c, const aijt_tune_entry *e);
/* Merge the entries of mine into the file at path (created with its directory if need be) under a lock,
   atomically; mine gets what the file held besides.  On error why says what failed (the file is
   unchanged). */
aijt_err aijt_tune_cache_update(const char *path, aijt_tune_cache *mine, char *why, size_t whylen);
void     aijt_tune_cache_free(aijt_tune_cache *c);
