/* What the two planners (rules.c, partition.c) share to make strips: not part of the planner's API. */
#pragma once

#include "aijtplan.h"

/* seed 004 / seed 003 eq. (2): the power of two at or above sqrt(len), capped at a warp */
int aijt_tpr_sqmean(double len);

/* Thread blocks per row of a LONG strip of rows rows whose longest has max_len entries (rules.c). */
int aijt_long_parts(int block, aijt_int rows, aijt_int max_len);

/* A new plan for A: sizes and features, no strips, natural order. */
aijt_err aijt_plan_start(const aijt_csr *A, aijt_plan **plan);

/* Append strip s (its tail entries count into the plan's); *cap is the room in plan->strips. */
aijt_err aijt_plan_append(aijt_plan *plan, int *cap, const aijt_strip *s);
