/*
   The performance model: what a strip costs on one GPU, in the spirit of seed 000 (a curve of time
   against row length per kernel, measured on the device), plus one feature for how the strip reads x.

   The calibration program (tools/calibrate.cu) times every kernel on sample strips sized to fill the
   device, for a set of row lengths and two column patterns: "local" (a row's columns next to the row:
   x comes from cache) and "random" (columns spread over 2^21 values: every gather is a new sector).
   For each it records the time per row with the device full, and the locality feature of that matrix
   (aijt_locality: distinct 32-byte sectors of x per entry, in windows of entries in plan order).  A
   strip's row then costs the local time plus the share of the random-minus-local difference that its
   own feature puts it at, interpolated in the row length.  A strip too small to fill the device is
   bound by its slowest row instead: each point also records the critical path, the time of a strip of
   AIJT_MODEL_TINY_ROWS random rows of that length (all of them run at once) less the fixed cost.  A
   strip costs the larger of its work and its critical path (a SELL strip of 189-entry rows, one thread
   per row, on 16k rows is latency, not bandwidth: 21 us where the work is 2).

   The model is a text file, versioned and named after the device (models/<device>.model):

       aijtuned-model 2
       device NVIDIA H200
       launch_us 4.2           a fused launch, beyond its strips
       strip_us 0.3            one more strip in a launch
       long_entry_ns 0.5       LONG: one thread block's time per entry (few long rows: the critical path)
       kernel csr 4 2.9        format, parameter (CSR: threads per row; SELL: C), a tiny strip alone (us)
       point 8 1.21 3.40 0.05 0.97 0.8   row length, ns/row local, random, feature local, random,
       ...                               critical path (us)
       ...
       end

   Pure C, no PETSc: the planner, the calibration program and the benchmarks share it.
*/
#pragma once

#include "aijtplan.h"

#define AIJT_MODEL_VERSION     2 /* 2: the critical path of each point */
#define AIJT_MODEL_MAX_POINTS  48
#define AIJT_MODEL_MAX_KERNELS 24
#define AIJT_MODEL_TINY_ROWS   1024

typedef struct {
  aijt_format format;
  int         param;       /* CSR: threads per row; SELL: rows per slice; else 0 */
  double      overhead_us; /* a tiny strip of this kernel alone, launch to completion */
  int         npoints;
  double      len[AIJT_MODEL_MAX_POINTS];       /* row length (ELL: width; DIA: diagonals), increasing */
  double      local_ns[AIJT_MODEL_MAX_POINTS];  /* ns per row, device full, columns next to the row */
  double      random_ns[AIJT_MODEL_MAX_POINTS]; /* ns per row, device full, columns at random */
  double      d_local[AIJT_MODEL_MAX_POINTS];   /* aijt_locality of the two calibration matrices */
  double      d_random[AIJT_MODEL_MAX_POINTS];
  double      crit_us[AIJT_MODEL_MAX_POINTS];   /* a strip of rows this long that cannot fill the device, less overhead_us */
} aijt_model_kernel;

typedef struct {
  int               version;
  char              device[256]; /* as cudaDeviceProp::name */
  double            launch_us, strip_us, long_entry_ns;
  int               nkernels;
  aijt_model_kernel kernels[AIJT_MODEL_MAX_KERNELS];
} aijt_model;

/* Write a printf-style reason into why[len] (nothing when why is NULL): the readers' error messages. */
void aijt_say(char *why, size_t len, const char *fmt, ...);

/* Read a model file; on error, why (if not NULL) says what was wrong and where. */
aijt_err aijt_model_read(FILE *fp, aijt_model *m, char *why, size_t whylen);
aijt_err aijt_model_load(const char *path, aijt_model *m, char *why, size_t whylen);
void     aijt_model_write(const aijt_model *m, FILE *fp);
/* The models' folder, as the library reads it and aijt_calibrate writes it: $AIJTUNED_MODEL_DIR if set, else
   share/aijtuned/models beside the folder of 'binary' (the path of the library or of the program, in PREFIX/lib or
   PREFIX/bin after make install) where that folder exists; 1 with dir written, 0 for neither (the caller's own
   default then: the source tree's models/, or models/ here).  binary may be NULL. */
int aijt_model_dir(const char *binary, char *dir, size_t len);

/* The kernel entry for a format and parameter, or NULL. */
const aijt_model_kernel *aijt_model_kernel_find(const aijt_model *m, aijt_format f, int param);
/* Add an entry (the calibration program); NULL when the model is full. */
aijt_model_kernel *aijt_model_kernel_add(aijt_model *m, aijt_format f, int param);

/* ns per row of length len whose strip has locality feature d; a negative value when the kernel was
   not measured near that length (the planner then does not use it there). */
double aijt_model_row_ns(const aijt_model_kernel *k, double len, double d);
/* At most aijt_model_row_ns(k, len, d) for every d: the cheaper of its local and random times (the
   planner's bound before any locality is measured); negative where that is. */
double aijt_model_row_ns_min(const aijt_model_kernel *k, double len);
/* The critical path (us) of a strip whose longest row has len entries (0 where not measured). */
double aijt_model_crit_us(const aijt_model_kernel *k, double len);
/* A kernel's table read at one length, for many lookups there (the planner's dynamic program reads each
   bucket's longest row once per kernel): the same values as the functions above at that length. */
typedef struct {
  int    known; /* measured near that length */
  double lo, hi, dl, dr, crit;
} aijt_model_at;
void   aijt_model_at_len(const aijt_model_kernel *k, double len, aijt_model_at *a);
/* The same for lengths asked in order (the planner's length classes and row lengths, longest first): *near is
   where the last lookup in k stopped (AIJT_MODEL_NEAR_START before the first; NULL: halving, as
   aijt_model_at_len), so that each lookup walks a point or two instead of halving the table.  The same values; actor_movie_incidence's pricing before its sort (about
   2,600 lookups) took 19 us on the host instead of 33 (bench/results/2026-11-27-pricing-near). */
#define AIJT_MODEL_NEAR_START AIJT_MODEL_MAX_POINTS
void   aijt_model_at_len_near(const aijt_model_kernel *k, double len, int *near, aijt_model_at *a);
double aijt_model_at_row_ns(const aijt_model_at *a, double d);
double aijt_model_at_row_ns_min(const aijt_model_at *a);
/* At most aijt_model_at_row_ns at any locality in [dlo, dhi] (-1 where not known). */
double aijt_model_at_row_ns_least(const aijt_model_at *a, double dlo, double dhi);
double aijt_model_at_crit_us(const aijt_model_at *a);
/* LONG's critical path (us): its longest row over its parts at one block's rate (long_entry_ns). */
double aijt_model_long_crit_us(const aijt_model *m, double max_len, int parts);
/* Ask the processor for every point of m's tables, without waiting for them: a plan follows the matrix's
   assembly, which has evicted the model from the caches, and its few hundred readings each missed. */
void aijt_model_prefetch(const aijt_model *m);

/* Distinct 32-byte sectors of x per entry, over up to max_windows windows of AIJT_LOCALITY_WINDOW
   consecutive entries of plan positions [begin, end), spread evenly: about 1/4 when neighbouring
   entries read neighbouring x, 1 when every entry reads a sector of its own.  0 for no entries. */
#define AIJT_LOCALITY_WINDOW 256
double aijt_locality(const aijt_csr *A, const aijt_int *order, aijt_int begin, aijt_int end, int max_windows);

/* One window of that feature: n entries (AIJT_LOCALITY_WINDOW, fewer at the end of its range) from
   entry e of the row at plan position k on, in plan order. */
typedef struct {
  aijt_int k, e;
  int      n;
} aijt_window;

/* The model's time for each strip of the plan alone (strip.predicted_us) and for the whole plan in its
   fused launches (the return value, us).  A strip whose kernel the model lacks predicts 0. */
double aijt_plan_predict(const aijt_model *m, const aijt_csr *A, aijt_plan *plan);

/* What the model planner reads of a matrix beyond its sizes, from a source: the host CSR (aijt_plan_model)
   or a copy on the GPU (kernels/plan_gpu.cu), which makes the same passes there and gets the same
   values bit for bit.  Each op returns AIJT_OK or an error (AIJT_ERR_DEVICE: the device failed); arrays
   it returns are the caller's: lengths' count from aijt_counts_new (planbuild.h) or malloc, freed with
   aijt_counts_free, the others malloc'd. */
typedef struct {
  void *ctx;
  /* the features, and count[len]: rows of length len, len in [0, f->max_len] */
  aijt_err (*lengths)(void *ctx, aijt_features *f, aijt_int **count);
  /* aijt_diagonals: A's distinct offsets, or -1 for more than max (-2: the device failed) */
  int (*diagonals)(void *ctx, int max, aijt_int *offsets);
  /* aijt_blocks_exact: whether A is made of whole bs x bs blocks (1, 0; -2: the device failed) */
  int (*blocks)(void *ctx, int bs);
  /* aijt_plan_order_columns: p->col_hot (0: no column order), and p->col_pos, or NULL until fetch */
  aijt_err (*columns)(void *ctx, const aijt_rules *R, int nd, aijt_plan *p);
  /* aijt_order_from_counts: the order by length into *order, or NULL until fetch */
  aijt_err (*rows)(void *ctx, aijt_int max_len, const aijt_int *count, aijt_int **order);
  /* distinct 32-byte sectors of x (aijt_window_sectors) in each of n windows of plan p's order */
  aijt_err (*sectors)(void *ctx, const aijt_plan *p, const aijt_window *w, int n, int *distinct);
  /* the host copies of what rows and columns left on the source, for what plan p keeps (its order when
     sorted, its column order when col_hot > 0); NULL: nothing is left */
  aijt_err (*fetch)(void *ctx, aijt_plan *p);
} aijt_plan_source;

/* The host's source: A's own arrays. */
void aijt_plan_source_host(const aijt_csr *A, aijt_plan_source *src);

/* The model-driven planner (partition.c): rows sorted by length, cut into strips of a format and
   parameters each by a dynamic program over length classes that minimises the predicted time. */
aijt_err aijt_plan_model(const aijt_csr *A, const aijt_rules *rules, const aijt_model *m, aijt_plan **plan);
/* The same with the passes over rows and entries made by src (A: the sizes, the rules' plans when the
   model cannot plan, and reads of a few row offsets). */
aijt_err aijt_plan_model_from(const aijt_csr *A, const aijt_plan_source *src, const aijt_rules *rules, const aijt_model *m, aijt_plan **plan);
