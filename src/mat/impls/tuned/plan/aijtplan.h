/*
   The aijtuned planner: pure C, no PETSc objects.

   A plan orders the rows of a CSR matrix (stably, by decreasing length) and cuts the ordered
   rows into strips; each strip has a storage format and the launch parameters of its kernel.
   A layout is the plan made concrete: one array set per strip, in that strip's format, plus a
   COO tail that holds what the strips leave out (the excess of HYB strips, and the rows of COO
   strips).  The host reference SpMV computes y = A x from the layout alone.

   Errors are returned as aijt_err codes; the PETSc glue turns them into PETSc errors.
*/
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(AIJT_INDEX64)
typedef int64_t aijt_int; /* matches PetscInt when PETSc uses 64-bit indices */
#define AIJT_INT_MAX INT64_MAX
#else
typedef int32_t aijt_int;
#define AIJT_INT_MAX INT32_MAX
#endif

typedef enum {
  AIJT_OK = 0,
  AIJT_ERR_MEM,      /* out of memory */
  AIJT_ERR_ARG,      /* bad argument (negative sizes, inconsistent CSR) */
  AIJT_ERR_OVERFLOW, /* a padded layout would not fit the index type */
  AIJT_ERR_FORMAT,   /* unknown format name, or no format allowed */
  AIJT_ERR_DEVICE,   /* a GPU call failed (the planner's GPU source) */
} aijt_err;

const char *aijt_err_string(aijt_err err);

typedef enum {
  AIJT_CSR = 0, /* CSR-vector: tpr threads cooperate on each row */
  AIJT_LONG,    /* long rows: one or several thread blocks per row */
  AIJT_ELL,     /* ELLPACK, column-major, one width for the strip */
  AIJT_SELL,    /* sliced ELLPACK (SELL-C-sigma): a width per slice of C rows */
  AIJT_COO,     /* the strip's entries live in the COO tail */
  AIJT_DIA,     /* diagonals: a value per row and diagonal, no column indices; rows in natural order */
  AIJT_PANEL,   /* column panels: each thread block holds one panel of x in shared memory; natural order */
  AIJT_STREAM,  /* row blocks (CSR-stream): each thread block takes the whole rows that start in its share of
                   the entries, stages their products in shared memory, then sums each row; natural order */
  AIJT_BCSR,    /* blocks: a matrix of dense bs x bs blocks (A->bs), CSR's values and row offsets with one column
                   index per block instead of one per entry; natural order */
  AIJT_NFORMATS
} aijt_format;

extern const char *const aijt_format_names[AIJT_NFORMATS]; /* "csr", "long", "ell", "sell", "coo", "dia", "panel", "stream", "bcsr" */

#define AIJT_FORMAT_BIT(f) (1u << (unsigned)(f))
#define AIJT_ALL_FORMATS   ((1u << AIJT_NFORMATS) - 1u)
/* The formats of strips of sorted rows (DIA, PANEL and STREAM take the whole matrix in natural order). */
#define AIJT_STRIP_FORMATS (AIJT_FORMAT_BIT(AIJT_CSR) | AIJT_FORMAT_BIT(AIJT_LONG) | AIJT_FORMAT_BIT(AIJT_ELL) | AIJT_FORMAT_BIT(AIJT_SELL) | AIJT_FORMAT_BIT(AIJT_COO))

/* A DIA strip has at most this many diagonals: a row's diagonals are the bits of one 32-bit mask. */
#define AIJT_DIA_MAX_DIAGS 32

/* A PANEL strip cuts the columns into panels of this many: a panel of x (48 KiB) fits a block's shared
   memory with four blocks of 512 threads per SM (bench/results/2026-11-21-h200-panel-experiment). */
#define AIJT_PANEL_WIDTH 6144

/* A STREAM strip gives each thread block the rows that start in its share of AIJT_STREAM_SHARE entries (a
   block of 256 threads, 4 entries each, all loads in flight at once), so a block holds fewer than
   AIJT_STREAM_SHARE + its longest row; rows longer than AIJT_STREAM_MAX_LEN are not for it (shared
   memory, and one block's lanes summing one row).  tpr: lanes per row, 1 or 4 (kernels/stream.cuh). */
#define AIJT_STREAM_SHARE   1024
#define AIJT_STREAM_BLOCK   256 /* threads of a STREAM block: AIJT_STREAM_SHARE / AIJT_STREAM_BLOCK slots each */
#define AIJT_STREAM_MAX_LEN 2048
/* STREAM's thread blocks: one per share of its entries (at least 1). */
#define AIJT_STREAM_BLOCKS(nslots) ((nslots) > 0 ? ((nslots) + AIJT_STREAM_SHARE - 1) / AIJT_STREAM_SHARE : 1)
/* A STREAM layout's ptr entries: nrows + 1 row offsets, then the blocks' nblocks + 1 starts. */
#define AIJT_STREAM_PTR_COUNT(nrows, nslots) ((size_t)(nrows) + 1 + (size_t)AIJT_STREAM_BLOCKS((int64_t)(nslots)) + 1)
/* BCSR holds blocks of 2 to AIJT_BCSR_MAX_BS rows and columns (a kernel for each). */
#define AIJT_BCSR_MAX_BS 8
/* Formats that take the whole matrix in natural order (DIA, PANEL, STREAM, BCSR): their columns come from rows,
   or are x's own, so a plan with one of them has no column order. */
#define AIJT_WHOLE_FORMAT(f) (!(AIJT_FORMAT_BIT(f) & AIJT_STRIP_FORMATS))

/* The kernels run up to this many strips in one launch (kernels/spmv.cu); the planner counts launches.  The strips
   are the launch's parameters, 152 bytes each, and both sides of a launch grow with them: on an H200, 16 strips'
   2.5 KB cost the host's launch call 0.46-0.55 us more than 160 bytes, and the device 0.3-0.4 us more a product
   than 8 strips' 1.25 KB, 4-5% of a small matrix's product (bench/results/2026-11-28-host-path).  No plan of the
   72 shared matrices or of the generated suite has more than 8 strips. */
#define AIJT_FUSED_MAX 8

/* Parse a name from aijt_format_names (case-insensitive). */
aijt_err aijt_format_from_name(const char *name, aijt_format *format);

/* Whether the plan relabels the columns (colorder.c). */
typedef enum {
  AIJT_COLS_AUTO = 0, /* by degree where the matrix is wide and a few columns hold most entries */
  AIJT_COLS_DEGREE,   /* by degree whenever the plan's formats allow it (no DIA or PANEL strip) */
  AIJT_COLS_NATURAL   /* never */
} aijt_col_order;

extern const char *const aijt_col_order_names[3]; /* "auto", "degree", "natural" */

/* Rules of the rule-based planner: the documented choices from the seed papers (see rules.c). */
typedef struct {
  unsigned allowed;        /* bit mask of AIJT_FORMAT_BIT(); at least one bit set */
  int      sort;           /* order rows by decreasing length (stable) before cutting strips */
  aijt_int long_row;       /* T_LONG of seed 003: rows with at least this many entries are long */
  aijt_int min_strip_rows; /* a strip smaller than this is merged into its neighbour */
  double   min_strip_share; /* ... unless it also holds at least this fraction of the matrix's entries */
  double   ell_max_pad;    /* ELL when the strip's padding is at most this fraction of its entries */
  double   coo_cost;       /* cost of a COO tail entry relative to an ELL slot (HYB width choice) */
  aijt_int sell_max_len;   /* SELL and ELL for strips whose longest row is at most this */
  aijt_int sell_big_rows;  /* ... or up to 8 times that in strips of at least this many rows (0: never) */
  int      sell_chunk;     /* C of SELL-C-sigma: rows per slice */
  int      sell_sigma;     /* sigma of SELL-C-sigma: rows sorted within windows of this many (unsorted plans) */
  int      block;          /* threads per block for every kernel */
  double   dia_min_fill;   /* DIA for the whole matrix when its entries fill at least this share of its diagonals */
  double   panel_min_len;  /* PANEL for the whole matrix when its rows hold at least this many entries per column panel */
  aijt_col_order col_order; /* relabel the columns by decreasing degree (both planners) */
  aijt_int col_hot_degree; /* with a column order: columns of at least this many entries are hot, read
                              from a copy of x gathered before each product (colorder.c); at least one is */
  int      empty_free;     /* the matrix only ever computes y += A x in place (MPIAIJ's off-diagonal block):
                              its empty rows cost nothing, since that product skips them (model planner) */
} aijt_rules;

void aijt_rules_default(aijt_rules *rules);

/* Features: row lengths and their statistics, and the stable order by decreasing length. */
typedef struct {
  aijt_int nrows, nnz;
  aijt_int min_len, max_len, empty_rows;
  double   mean_len, std_len;
} aijt_features;

typedef struct {
  aijt_format format;
  aijt_int    begin, end;     /* positions [begin, end) in the plan's row order */
  aijt_int    nnz;            /* entries the strip's own layout holds (not its tail entries) */
  aijt_int    tail_nnz;       /* entries this strip sends to the COO tail */
  aijt_int    max_len;        /* longest row of the strip */
  int         tpr;            /* CSR, PANEL: threads per row, a power of two in [1, 32]; STREAM: lanes per row, 1 or 4;
                                 BCSR: lanes per block row, a power of two in [1, 32] */
  int         block;          /* threads per block */
  int         blocks_per_row; /* LONG: thread blocks cooperating on one row */
  aijt_int    width;          /* ELL: slots per row; entries past it go to the tail.  DIA: diagonals.  PANEL: columns per panel */
  int         chunk;          /* SELL: rows per slice.  PANEL: rows per thread block */
  int         sigma;          /* SELL: sorting window (1: rows keep the plan's order) */
  double      predicted_us;   /* the performance model's time for the strip alone (0: not predicted) */
  double      tuned_us;       /* its time on the GPU with the parameters run-time tuning kept (0: not tuned) */
  int64_t     slots;          /* SELL in a plan sorted by length: the slots its layout will hold, known from the
                                 length counts (aijt_plan_model); 0: not known, the skeleton counts them */
} aijt_strip;

/* Whether tpr is one of the threads per row (CSR, PANEL) or per block row (BCSR) a kernel takes: a power of two in
   [1, 32] */
static inline int aijt_tpr_valid(int tpr)
{
  return tpr >= 1 && tpr <= 32 && !(tpr & (tpr - 1));
}

typedef struct {
  aijt_int    nrows, ncols, nnz;
  int         sorted;   /* rows were ordered by length */
  aijt_int   *order;    /* order[k] = original row at position k; NULL means identity */
  aijt_int   *col_pos;  /* columns by decreasing degree: col_pos[c] = position of original column c, a
                           permutation; NULL: no column order */
  aijt_int    col_hot;  /* with col_pos: the columns at positions < col_hot are hot (aijt_col_label) */
  int         nstrips;
  aijt_strip *strips;
  aijt_int    tail_nnz; /* entries in the COO tail */
  aijt_features features; /* what the planner measured */
} aijt_plan;

/* A CSR matrix as the planner sees it (borrowed arrays). */
typedef struct {
  aijt_int        nrows, ncols;
  const aijt_int *rowptr; /* nrows + 1 */
  const aijt_int *colidx;
  const double   *values; /* may be NULL for planning only */
  const aijt_int *col_pos; /* optional, NULL: a plan's column order and hot count, which the locality
                              feature (aijt_locality) reads columns through; nothing else reads them */
  aijt_int        col_hot;
  int             bs; /* the matrix's block size (PETSc's, rows and columns alike); 0 or 1: none.  BCSR holds
                         the matrix only where every bs x bs block it touches is stored whole (aijt_blocks_exact) */
} aijt_csr;

/* The column a layout stores for original column c of a plan with a column order: the hot columns, at
   positions < nhot, are labelled by position and read from xhot, a copy of x gathered before each
   product (xhot[p] = x[c]); every other column is labelled nhot + c and read from x itself, so that
   the copy costs nhot values, not ncols (aijt_plan_check: ncols + nhot fits aijt_int). */
static inline aijt_int aijt_col_label(const aijt_int *col_pos, aijt_int nhot, aijt_int c)
{
  return col_pos[c] < nhot ? col_pos[c] : nhot + c;
}

aijt_err aijt_csr_check(const aijt_csr *A);
void     aijt_features_compute(const aijt_csr *A, aijt_features *f);
aijt_err aijt_order_by_length(const aijt_csr *A, aijt_int **order);
/* The distinct offsets col - row of A's entries, ascending, into offsets (room for max): their count,
   or -1 when there are more than max (max is capped at AIJT_DIA_MAX_DIAGS). */
int aijt_diagonals(const aijt_csr *A, int max, aijt_int *offsets);

/* Whether A is made of whole bs x bs blocks (blocks.c): 2 <= bs <= AIJT_BCSR_MAX_BS divides its rows and
   columns, and the bs rows of each block row hold the same sorted block columns, each block's bs columns
   stored in every one of them.  BCSR can hold it then. */
int aijt_blocks_exact(const aijt_csr *A, int bs);

/* The rule-based planner (rules.c). */
aijt_err aijt_plan_rules(const aijt_csr *A, const aijt_rules *rules, aijt_plan **plan);

/* The columns by decreasing degree (stably) into plan->col_pos, and the count of hot ones (degree at
   least rules->col_hot_degree) into plan->col_hot, when rules->col_order asks for it and the plan has no DIA or PANEL strip, whose kernels find columns from rows (colorder.c); the rules
   planner ends with it, the model planner starts with it (its locality feature reads the columns in
   that order) and drops the order if it then plans DIA or PANEL.  nd: A's count of diagonals
   (aijt_diagonals) when the caller has it, else -1; a banded matrix skips the auto rule's test, which
   it could not pass.
   aijt_col_top_share: the share of A's entries in its most popular ncols / 16 columns (the auto rule's
   test, which reads a sample of the rows). */
aijt_err aijt_plan_order_columns(const aijt_csr *A, const aijt_rules *rules, int nd, aijt_plan *plan);
double   aijt_col_top_share(const aijt_csr *A);

/* Plans as plain data (plan.c). */
void     aijt_plan_destroy(aijt_plan **plan);
/* The memory the planners keep between plannings (their count arrays, counts.c) given back; at the end of a program. */
void     aijt_counts_release(void);
aijt_int aijt_plan_row(const aijt_plan *plan, aijt_int k); /* original row at position k */
aijt_err aijt_plan_check(const aijt_plan *plan, const aijt_csr *A);
int      aijt_plan_equal(const aijt_plan *a, const aijt_plan *b);
/* Trailing strips whose rows are all empty: y += A x in place need not run them. */
int aijt_plan_empty_tail(const aijt_plan *plan);
void     aijt_plan_print(const aijt_plan *plan, FILE *fp);
/* One line per strip into buf, for viewers that are not FILEs; returns the characters needed. */
size_t aijt_strip_describe(const aijt_strip *s, char *buf, size_t len);
/* Per-format counts of strips, rows and entries (rows of the tail counted under COO). */
void aijt_plan_summary(const aijt_plan *plan, aijt_int nstrips[AIJT_NFORMATS], aijt_int rows[AIJT_NFORMATS], aijt_int nnz[AIJT_NFORMATS]);

/* Layouts (layout.c) */
typedef struct {
  aijt_format format;
  aijt_int    nrows;  /* rows of the strip */
  aijt_int   *rows;   /* original row of each strip row */
  aijt_int    nslots; /* stored slots, padding included */
  aijt_int   *ptr;    /* CSR/LONG: nrows + 1 row offsets; SELL: nslices + 1 slice offsets; DIA: width diagonal offsets;
                         PANEL: npanels * nrows + 1 offsets, panel after panel, row after row within a panel;
                         STREAM: nrows + 1 row offsets, then AIJT_STREAM_BLOCKS(nslots) + 1 block starts (block
                         b's rows are those whose first slot lies in [b, b + 1) * AIJT_STREAM_SHARE);
                         BCSR: nrows + 1 row offsets, CSR's */
  aijt_int    width;  /* ELL: slots per row; DIA: diagonals; PANEL: columns per panel; STREAM: longest row; BCSR: bs */
  int         chunk;  /* SELL: rows per slice; PANEL: rows per thread block */
  aijt_int    ncols;  /* PANEL: columns of the matrix (the last panel may be narrower); col is relative to the panel */
  aijt_int   *col;    /* column of each slot; -1 marks padding (DIA: NULL, the column is row + offset; BCSR: the
                         block column of each block, aijt_layout_col_count of them: slot j of row r is column
                         col[ptr[r0] / bs^2 + j / bs] * bs + j % bs, r0 the first row of r's block row) */
  uint32_t   *mask;   /* DIA: bit d of row i set when the row has an entry on diagonal d (slot d * nrows + i) */
  double     *val;
  aijt_int   *src;    /* position of each slot in the CSR value array, -1 for padding */
} aijt_layout;

typedef struct { /* entries ordered by plan position, then by column */
  aijt_int     nnz;
  aijt_int    *row;
  aijt_int    *col;
  double      *val;
  aijt_int    *src;
} aijt_coo;

typedef struct {
  aijt_int     nrows, ncols;
  int          nstrips;
  aijt_layout *strips;
  aijt_coo     tail;
  aijt_int     nhot;    /* plans with a column order: the strips' and the tail's columns are labels
                           (aijt_col_label), and hot[p] is the original column of hot label p < nhot */
  aijt_int    *hot;     /* NULL: no column order, the columns are x's */
  double      *xbuf;    /* nhot + ncols: x' = (x[hot[0..nhot)], x), what the host reference reads */
  int          filled;  /* 1: every slot built (aijt_layouts_build); 0: a skeleton */
} aijt_layouts;

aijt_err aijt_layouts_build(const aijt_plan *plan, const aijt_csr *A, aijt_layouts **L);
/* The skeleton of the layouts, for the GPU build (kernels/build.cu) to fill on the device: every
   strip's format, rows (SELL's sorted within their windows), ptr (DIA: the offsets), width, chunk and
   nslots, the tail's nnz and the hot columns (hot, nhot), as aijt_layouts_build makes them; no col,
   val, src or mask, no tail arrays, no xbuf.  Reference products need aijt_layouts_build's layouts. */
aijt_err aijt_layouts_skeleton(const aijt_plan *plan, const aijt_csr *A, aijt_layouts **L);
/* The same skeleton's sizes alone, for a plan whose order (none for a plan in natural order) and
   column order are on the device, where kernels/skeleton.cu makes the arrays: every strip's format,
   nrows, width, chunk and nslots (SELL's from sell_slots[s], which the device counts), DIA's offsets
   (from A's first rows), the tail's nnz and nhot; no rows, no other ptr, no hot.  Only for plans that
   aijt_layouts_sized_ok takes (no SELL strip that sorts its rows within windows, in natural order);
   AIJT_ERR_FORMAT otherwise. */
int      aijt_layouts_sized_ok(const aijt_plan *plan);
/* Whether some strip of L has its rows elsewhere (aijt_layouts_skeleton_sized's: on the device). */
int aijt_layouts_rows_elsewhere(const aijt_layouts *L);
aijt_err aijt_layouts_skeleton_sized(const aijt_plan *plan, const aijt_csr *A, const int64_t *sell_slots, aijt_layouts **L);
/* Same pattern, new values: refill every slot from the CSR value array (nothing for a skeleton). */
void aijt_layouts_refresh(aijt_layouts *L, const double *values);
void aijt_layouts_destroy(aijt_layouts **L);
/* Entries of a layout's ptr array (0: none), and of its col array. */
size_t aijt_layout_ptr_count(const aijt_layout *S);
size_t aijt_layout_col_count(const aijt_layout *S);
/* PANEL: the panels of a matrix with ncols columns (at least 1). */
aijt_int aijt_panel_count(aijt_int ncols, aijt_int width);
/* Bytes the layouts occupy (values, indices, refresh maps). */
size_t aijt_layouts_bytes(const aijt_layouts *L);

/* Host reference SpMV (refspmv.c): y = A x, or y = A x + z when z is not NULL (z may equal y).
   aijt_ref_spmv reads x through the labels itself; the strip and tail references read the labels as
   indices into aijt_ref_x(L, x): x itself without a column order, else x' in L->xbuf. */
const double *aijt_ref_x(const aijt_layouts *L, const double *x);
void aijt_ref_spmv(const aijt_layouts *L, const double *x, const double *z, double *y);
void aijt_ref_strip(const aijt_layout *S, const double *x, const double *z, double *y);
void aijt_ref_tail(const aijt_coo *T, const double *x, double *y);
/* y = A^T x, or y = A^T x + z when z is not NULL (z may equal y), over a CSR with values: each row's entries
   scattered in row order (AIJ's host kernel's order) */
void aijt_csr_spmv_transpose(const aijt_csr *A, const double *x, const double *z, double *y);

/* Rules compare field by field (the struct has padding). */
int aijt_rules_equal(const aijt_rules *a, const aijt_rules *b);
