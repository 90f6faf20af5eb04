/* Strip making shared by the rule-based and the model-driven planners. */
#include "planbuild.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int aijt_tpr_sqmean(double len)
{
  double r   = ceil(sqrt(len > 1.0 ? len : 1.0));
  int    tpr = 1;
  while (tpr < 32 && (double)tpr < r) tpr *= 2;
  return tpr;
}

/* Enough blocks that a thread has at most about 16 entries, more while the strip has too few rows to
   give the device AIJT_FILL_BLOCKS blocks, but never under about 4 entries per thread (parts cost a
   workspace store and a counter each). */
#define AIJT_FILL_BLOCKS 1024 /* about 8 blocks on each of an H100's or H200's 132 SMs */

int aijt_long_parts(int block, aijt_int rows, aijt_int max_len)
{
  double lo = ceil((double)max_len / (16.0 * block)), hi = ceil((double)max_len / (4.0 * block));
  double fill  = ceil((double)AIJT_FILL_BLOCKS / (double)(rows > 0 ? rows : 1));
  double parts = fill > lo ? fill : lo;
  if (parts > hi) parts = hi;
  return (int)(parts < 1 ? 1 : parts > 1024 ? 1024 : parts);
}

aijt_err aijt_plan_new(const aijt_csr *A, aijt_plan **plan)
{
  aijt_plan *p = (aijt_plan *)calloc(1, sizeof(aijt_plan));
  *plan        = p;
  if (!p) return AIJT_ERR_MEM;
  p->nrows = A->nrows;
  p->ncols = A->ncols;
  p->nnz   = A->nrows ? A->rowptr[A->nrows] : 0;
  return AIJT_OK;
}

aijt_err aijt_plan_start(const aijt_csr *A, aijt_plan **plan)
{
  aijt_err err = aijt_plan_new(A, plan);
  if (!err) aijt_features_compute(A, &(*plan)->features);
  return err;
}

void aijt_whole_strip(const aijt_plan *p, aijt_format f, aijt_int width, int block, aijt_strip *s)
{
  memset(s, 0, sizeof(*s));
  s->format  = f;
  s->end     = p->nrows;
  s->nnz     = p->nnz;
  s->max_len = p->features.max_len;
  s->width   = width;
  s->block   = block;
}

aijt_err aijt_plan_append(aijt_plan *p, int *cap, const aijt_strip *s)
{
  if (p->nstrips == *cap) {
    int         c = *cap ? 2 * *cap : 8;
    aijt_strip *n = (aijt_strip *)realloc(p->strips, (size_t)c * sizeof(aijt_strip));
    if (!n) return AIJT_ERR_MEM;
    p->strips = n;
    *cap      = c;
  }
  p->strips[p->nstrips++] = *s;
  p->tail_nnz += s->tail_nnz;
  return AIJT_OK;
}
