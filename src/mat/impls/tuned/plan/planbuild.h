/* What the two planners (rules.c, partition.c) share to make strips, and the model planner's steps
   (bench/bench_setup.c times them): not part of the planner's API. */
#pragma once

#include "aijtmodel.h"

/* seed 004 / seed 003 eq. (2): the power of two at or above sqrt(len), capped at a warp */
int aijt_tpr_sqmean(double len);

/* Thread blocks per row of a LONG strip of rows rows whose longest has max_len entries (rules.c). */
int aijt_long_parts(int block, aijt_int rows, aijt_int max_len);

/* A new plan for A: sizes and features, no strips, natural order. */
aijt_err aijt_plan_start(const aijt_csr *A, aijt_plan **plan);

/* Append strip s (its tail entries count into the plan's); *cap is the room in plan->strips. */
aijt_err aijt_plan_append(aijt_plan *plan, int *cap, const aijt_strip *s);

/* The model planner's steps (partition.c), apart so that the setup benchmark can time each. */
typedef struct {
  aijt_int begin, end; /* plan positions */
  aijt_int nnz, max_len, min_len;
  double   d; /* locality feature */
} aijt_bucket;

/* Step 2: the sorted rows' length classes, each with its locality feature (sampled). */
aijt_err aijt_model_buckets(const aijt_csr *A, const aijt_int *order, aijt_bucket **b, int *nb);
/* Steps 3 and 4: the cheapest strips over the buckets, appended to the sorted plan p; the plan's
   predicted time (INFINITY when some rows have no allowed kernel in the model). */
aijt_err aijt_model_split(const aijt_csr *A, const aijt_rules *R, const aijt_model *m, const aijt_bucket *b, int nb, aijt_plan *p, int *cap, double *predicted);
