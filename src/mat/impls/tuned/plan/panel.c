/*
   Column panels (PANEL): the whole matrix in natural order, its columns cut into panels of
   AIJT_PANEL_WIDTH.  A thread block copies one panel of x into shared memory and runs its rows' entries
   in that panel from there; a second pass adds each row's partial sums over the panels.

   What it is for: a wide matrix whose rows spread many entries over all of x (LP-like: 4k rows of 3,500
   entries over 1M columns).  Every gather of CSR-vector is a sector of its own from L2, and L2's
   bandwidth, not DRAM's, sets the time: cuSPARSE and every strip layout ran lp at ~1.5 TB/s.  From shared
   memory a panel's x is read once per block instead (1.7x cuSPARSE on lp,
   bench/results/2026-11-21-h200-panel-experiment).  It pays when each row holds enough entries per
   panel to outweigh its partial sum (rules->panel_min_len), and x is wider than what L1 keeps anyway
   (at least 4 panels).
*/
#include "planbuild.h"

#include <math.h>

#define PANEL_BLOCK      512  /* threads per block: a panel's load shared by 16 warps */
#define PANEL_BLOCKS     1024 /* blocks to aim for: several per SM of any current GPU */
#define PANEL_MIN_PANELS 4    /* narrower x stays in L1 and L2 without help */

aijt_int aijt_panel_count(aijt_int ncols, aijt_int width)
{
  return ncols <= width ? 1 : (ncols + width - 1) / width;
}

double aijt_panel_fill(const aijt_plan *p)
{
  double rows = (double)p->nrows * (double)aijt_panel_count(p->ncols, AIJT_PANEL_WIDTH);
  return rows > 0 ? (double)p->nnz / rows : 0;
}

int aijt_panel_worth(const aijt_plan *p, const aijt_rules *R)
{
  return p->nrows > 0 && aijt_panel_count(p->ncols, AIJT_PANEL_WIDTH) >= PANEL_MIN_PANELS && aijt_panel_fill(p) >= R->panel_min_len;
}

aijt_err aijt_panel_strip(const aijt_plan *p, aijt_strip *s)
{
  const aijt_int np   = aijt_panel_count(p->ncols, AIJT_PANEL_WIDTH);
  const double   fill = aijt_panel_fill(p);
  const double   max  = sizeof(aijt_int) == 4 ? (double)INT32_MAX : (double)INT64_MAX;
  double         rows_per_block;
  int            tpr = 1;

  if ((double)np * (double)p->nrows + 1 > max) return AIJT_ERR_OVERFLOW;
  aijt_whole_strip(p, AIJT_PANEL, AIJT_PANEL_WIDTH, PANEL_BLOCK, s);
  /* a lane per 2.5 entries of a row's part in a panel: lp's 21 ran best on 8 lanes, 16 and 32 idled */
  while (tpr < 32 && 2.5 * (double)(2 * tpr) <= fill) tpr *= 2;
  s->tpr = tpr;
  /* enough rows that a block's entries outweigh its panel of x, and about PANEL_BLOCKS blocks */
  rows_per_block = ceil((double)p->nrows / ceil((double)PANEL_BLOCKS / (double)np));
  if (fill > 0 && rows_per_block < 2.0 * AIJT_PANEL_WIDTH / fill) rows_per_block = ceil(2.0 * AIJT_PANEL_WIDTH / fill);
  if (rows_per_block > (double)p->nrows) rows_per_block = (double)p->nrows;
  s->chunk = rows_per_block < 1 ? 1 : (int)rows_per_block;
  return AIJT_OK;
}
