/* What the two planners (rules.c, partition.c) share to make strips, and the model planner's steps
   (bench/bench_setup.c times them): not part of the planner's API. */
#pragma once

#include "aijtmodel.h"

/* seed 004 / seed 003 eq. (2): the power of two at or above sqrt(len), capped at a warp */
int aijt_tpr_sqmean(double len);

/* Thread blocks per row of a LONG strip of rows rows whose longest has max_len entries (rules.c). */
int aijt_long_parts(int block, aijt_int rows, aijt_int max_len);

/* The order by length in two steps (features.c), for the planners, which read the counts too (the
   length classes, the sorted rows' lengths): count[len] = rows of length len, for len in [0, max_len]
   (max_len the longest row's, as the features have it), and from them aijt_order_by_length's order. */
aijt_err aijt_length_counts(const aijt_csr *A, aijt_int max_len, aijt_int **count);
/* The count arrays of lengths and degrees (counts.c): n entries, zeroed, from blocks the process keeps between
   plannings (fresh pages faulted in at every planning); aijt_counts_free gives one back, or frees memory from
   malloc, so that a plan source may return either. */
aijt_int *aijt_counts_new(size_t n);
void      aijt_counts_free(aijt_int *count);
aijt_err aijt_order_from_counts(const aijt_csr *A, aijt_int max_len, const aijt_int *count, aijt_int **order);
/* The largest v <= from with count[v] != 0 (-1: none), for every walk over counts of lengths or degrees:
   a power-law matrix's few long rows leave tens of thousands of zeros between them (R-MAT's lengths and
   degrees reach 62k, circuit's 74k), which it steps over eight at a time. */
aijt_int aijt_count_prev(const aijt_int *count, aijt_int from);

/* The windows of aijt_locality over plan positions [begin, end) of rows sorted by length, which begin
   with the rows of length first_len and hold total entries, into w (room for max_windows): count
   (aijt_length_counts) places them without a walk over the rows.  Returns how many. */
int aijt_locality_windows(const aijt_int *count, aijt_int begin, aijt_int end, aijt_int first_len, int64_t total, int max_windows, aijt_window *w);
/* Distinct sectors in window w of A's rows in order (NULL: natural), read through A's column order. */
int aijt_window_sectors(const aijt_csr *A, const aijt_int *order, const aijt_window *w);
/* The feature from its windows' distinct sectors: their sum over the sum of their entries. */
double aijt_locality_of(const aijt_window *w, const int *distinct, int n);

/* The first n distinct offsets col - row met row by row from the middle row on, then from the first
   (fewer when A has fewer), ascending: when the count is known (a DIA plan's width), the rest of the
   matrix need not be read for them. */
int aijt_diagonals_first(const aijt_csr *A, int n, aijt_int *offsets);

/* The column order in steps (colorder.c), which a GPU source takes with its own counts:
   aijt_col_order_start: whether the plan may get one (0: no), and *stride, the auto test's sample of
   one row in stride (0: no test); aijt_col_sample_runs: that sample's runs of *take rows every *run rows;
   aijt_col_share_of: the share of the sample's entries in its top ncols / 16 columns, from count[d],
   the columns of degree d in [0, max_degree]; aijt_col_share_passes: whether the test passes;
   aijt_col_hot_of: the hot columns' count from the whole matrix's degree counts. */
int      aijt_col_order_start(const aijt_csr *A, const aijt_rules *R, int nd, const aijt_plan *p, aijt_int *stride);
void     aijt_col_sample_runs(aijt_int nrows, aijt_int stride, int64_t *run, int64_t *take);
double   aijt_col_share_of(const aijt_int *count, aijt_int max_degree, aijt_int ncols);
int      aijt_col_share_passes(double share);
aijt_int aijt_col_hot_of(const aijt_int *count, aijt_int max_degree, aijt_int ncols, aijt_int min_degree);

/* PANEL (panel.c): entries per row and panel; whether the whole matrix is worth a PANEL strip by the
   rules (wide enough, rows full enough); the strip itself, for rows in natural order (AIJT_ERR_OVERFLOW
   when its offsets would not fit the index type). */
double   aijt_panel_fill(const aijt_plan *p);
int      aijt_panel_worth(const aijt_plan *p, const aijt_rules *R);
aijt_err aijt_panel_strip(const aijt_plan *p, aijt_strip *s);
/* The model's work (us) of PANEL strip S of a matrix with ncols columns, its second launch included;
   -1 when the model has no CSR rows long enough to give its streaming rate (model.c). */
double aijt_panel_work_us(const aijt_model *m, const aijt_strip *S, aijt_int ncols);

/* BCSR (blocks.c): the whole matrix of plan p as one strip of bs x bs blocks (aijt_blocks_exact holds). */
void aijt_bcsr_strip(const aijt_plan *p, int bs, int block, aijt_strip *s);

/* The plan's column order and hot count dropped: columns read as they are (colorder.c). */
void aijt_plan_drop_col_order(aijt_plan *plan);

/* A new plan for A: sizes and features, no strips, natural order (aijt_plan_new: no features). */
aijt_err aijt_plan_start(const aijt_csr *A, aijt_plan **plan);
aijt_err aijt_plan_new(const aijt_csr *A, aijt_plan **plan);

/* A strip of format f over all of plan p's rows in natural order (DIA, PANEL, STREAM, BCSR): its rows, entries and
   longest row from p, width and block as given, every other field zero. */
void aijt_whole_strip(const aijt_plan *p, aijt_format f, aijt_int width, int block, aijt_strip *s);

/* Append strip s (its tail entries count into the plan's); *cap is the room in plan->strips. */
aijt_err aijt_plan_append(aijt_plan *plan, int *cap, const aijt_strip *s);

/* The model planner's steps (partition.c), apart so that the setup benchmark can time each. */
typedef struct {
  aijt_int begin, end; /* plan positions */
  aijt_int nnz, max_len, min_len;
  double   d; /* locality feature */
} aijt_bucket;

/* Step 2 from a source (aijtmodel.h): the length classes of plan p's rows sorted by length (count and
   max_len as aijt_length_counts has them), each with its locality feature. */
aijt_err aijt_model_buckets_from(const aijt_plan_source *src, const aijt_plan *p, const aijt_int *count, aijt_int max_len, aijt_bucket **b, int *nb);
/* Step 2: the length classes of the rows sorted by length (order, or the natural order of a matrix of
   at most one row; count and max_len as aijt_length_counts has them), each with its locality feature. */
aijt_err aijt_model_buckets(const aijt_csr *A, const aijt_int *order, const aijt_int *count, aijt_int max_len, aijt_bucket **b, int *nb);
/* Steps 3 and 4: the cheapest strips over the buckets, appended to the sorted plan p; the plan's
   predicted time (INFINITY when some rows have no allowed kernel in the model).  beat: a whole-matrix
   plan's price, which the split must come under to be made at all (INFINITY: none); where it does not,
   no strips and INFINITY. */
aijt_err aijt_model_split(const aijt_rules *R, const aijt_model *m, const aijt_bucket *b, int nb, double beat, aijt_plan *p, int *cap, double *predicted);

/* The windows STREAM's price reads the natural order's locality in (up to AIJT_NATURAL_WINDOWS of
   AIJT_LOCALITY_WINDOW entries, spread evenly over the entries, their rows found by bisection in the row
   offsets): their number, 0 where the rules or the size rule STREAM out.  The GPU source counts them in
   its first pass, so that the price needs no wait of its own. */
#define AIJT_NATURAL_WINDOWS 16
int aijt_natural_windows(const aijt_csr *A, const aijt_rules *R, aijt_window *w);

/* Steps 5 to 7 (wholeplan.c): the whole matrix as one strip in natural order, its predicted time
   (INFINITY when it cannot or should not be one; NAN when the source failed).  DIA: *nd gets the
   diagonals (-1: more than AIJT_DIA_MAX_DIAGS or none looked for).  PANEL and STREAM: *s gets the strip.
   STREAM is priced at the natural order's locality only where its optimistic price is below beat.  Each
   is priced with its own kernel's fixed cost and meets the split without a margin
   (bench/results/2026-11-25-whole-price: on the H200 actor_movie_incidence 18.4 -> 15.4 us). */
double aijt_whole_dia_us(const aijt_csr *A, const aijt_plan_source *src, const aijt_rules *R, const aijt_model *m, int *nd);
double aijt_whole_panel_us(const aijt_rules *R, const aijt_model *m, const aijt_plan *p, aijt_strip *s);
/* BCSR: the whole matrix as one strip of A->bs x A->bs blocks, where the source finds whole blocks; priced
   at its kernel's local points (a block's columns are neighbours), and looked for only where that price is at
   most beat (INFINITY above it). */
double aijt_whole_bcsr_us(const aijt_csr *A, const aijt_plan_source *src, const aijt_rules *R, const aijt_model *m, const aijt_plan *p, const aijt_int *count, double beat, aijt_strip *s);
double aijt_whole_stream_us(const aijt_csr *A, const aijt_plan_source *src, const aijt_rules *R, const aijt_model *m, const aijt_plan *p, const aijt_int *count, double beat, aijt_strip *s);
