/*
   aijtuned CUDA kernels: the public C API.

   aijt_cuda_spmv runs a whole plan: every strip (PANEL strips apart: two launches of their own) in one launch (the grid is cut into one range of blocks
   per strip, each block running its strip's format), then the COO tail if there is one.  One launch
   instead of one per strip matters on the medium matrices, whose whole product takes a few
   microseconds, about the cost of issuing a launch; and strips of one launch run side by side, so a
   strip of a few long rows no longer leaves the GPU idle while its last rows finish.

       aijt_cuda_spmv(strips, nstrips, &tail, scale, x, z, y, stream);

   Each strip writes each of its rows once, y[row] = (z ? z[row] : 0) + scale * (sum of the row's slots); the
   tail then adds scale * (val * x[col]) into y[row].  scale is a factor the values do not hold (MatScale's since
   they were written, which then costs no pass over them); at 1 the results are those without it, bit for bit.  Strips own disjoint rows, so z may equal y (MatMultAdd in
   place).  Stream order is what makes the tail see initialised rows: nothing here synchronizes or
   allocates.  aijt_cuda_strip runs one strip alone (the same kernel with one range).

   Every function returns cudaErrorInvalidValue for parameters no kernel can honour (tpr not a power of
   two in [1, 32], blocks_per_row < 1 or a split LONG strip without its workspace, chunk < 1, width
   outside its range, a PANEL strip without its workspace or with panels wider than AIJT_PANEL_WIDTH,
   an unknown format), cudaSuccess when there is nothing to launch, and otherwise
   cudaGetLastError() after its launches.

   Plain C: the PETSc glue includes it from C.  aijt_int and aijt_format come from the planner, so the
   kernels are built with the same AIJT_INDEX64 setting as the planner.
*/
#pragma once

/* The planner's headers have no extern "C" guard: include their system headers first so that they are not wrapped. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "aijtmodel.h"

/* One strip on the device: the arrays of an aijt_layout (device pointers) and the launch parameters
   of its aijt_strip.  Fields a format does not use are ignored. */
typedef struct {
  aijt_format     format;
  aijt_int        nrows;          /* rows of the strip */
  const aijt_int *rows;           /* nrows: original row of each strip row */
  const aijt_int *ptr;            /* CSR/LONG: nrows + 1 row offsets; SELL: nslices + 1 slice offsets; DIA: width offsets */
  const aijt_int *col;            /* nslots: column of each slot, -1 marks padding (ELL/SELL; DIA: unused; BCSR:
                                     one block column a block, aijt_layout_col_count) */
  const double   *val;            /* nslots */
  const uint32_t *mask;           /* DIA: nrows masks, bit d set when the row has an entry on diagonal d */
  const aijt_int *row_start;      /* a strip refilled without a map (aijt_dev_strip_by_rows; NULL: through one): nrows
                                     places, strip row i's first entry in the CSR's values (slot_source.cuh) */
  aijt_int        nslots;         /* stored slots, padding included */
  aijt_int        width;          /* ELL: slots per row (column-major, stride ld); DIA: diagonals (<= 32); BCSR: bs */
  aijt_int        ld;             /* ELL, DIA: distance between a row's slots, the whole strip's nrows (a window
                                     of a strip keeps its strip's; 0 means nrows) */
  aijt_int        row0;           /* DIA: strip row i is original row row0 + i (and the rows of a strip in natural order) */
  aijt_int        ncols;          /* PANEL: columns of x; width is the panel's, col relative to the panel */
  int             chunk;          /* SELL: rows per slice (any C >= 1); PANEL: rows per thread block */
  int             tpr;            /* CSR, PANEL: threads per row (BCSR: per block row), 1, 2, 4, 8, 16 or 32 */
  int             blocks_per_row; /* LONG: thread blocks per row, >= 1 */
  int             block;          /* threads per block; rounded down to a multiple of 32 in [32, 512], <= 0: 256 */
  /* LONG with blocks_per_row > 1: the parts of a row meet here, the last part to finish adds them up in
     a fixed order (deterministic, no atomics on y).  partial: nrows * blocks_per_row doubles; count:
     nrows counters, zero before the first call; every call leaves them zero. */
  double   *partial;
  unsigned *count;
  /* PANEL: partial holds npanels * nrows doubles, each row's sum in each panel (count unused). */
  /* A plan with a column order (aijt_col_label): col holds labels; label c < nhot reads xhot[c], which
     the caller gathers from x before the product (aijt_cuda_gather with the layouts' hot), any other
     reads x[c - nhot].  nhot == 0: col holds x's columns (DIA and PANEL strips always). */
  const double *xhot;
  aijt_int      nhot;
  /* DIA with value codes (dia_codes.cu; NULL: none attached): row i's code on diagonal d is byte
     i * 8 * aijt_dia_code_words(width) + d, 0 where the row has no entry, else its value is
     table[code]; codes_state[AIJT_CODES_USED] says whether the codes hold (1) or the values did not
     fit (0: the kernel reads val and mask).  table starts the block they live in
     (aijt_dia_codes_attach), with the coding's workspace. */
  const uint8_t *code;
  const double  *table;
  const int     *codes_state;
} aijt_dev_strip;

/* DIA with value codes (dia_codes.cu): a DIA strip whose present slots hold at most
   AIJT_DIA_CODES - 1 distinct values streams a byte per slot instead of the value and the mask, and
   sums the same values in the same order.
   aijt_dia_codes_bytes: the device memory strip d's codes need (0 unless DIA); aijt_dia_codes_attach
   points d's code, table and codes_state into mem (that many bytes, 8-byte aligned, owned by the
   caller); aijt_dia_codes_make codes d's current val and mask on the stream, after an upload or a GPU
   build (aijt_dev_refill codes what it refills itself; no allocation, no wait; nothing for strips
   without codes), and aijt_dia_codes_make_all does every strip of a plan. */
#define AIJT_DIA_CODES      256 /* table entries; code 0 means no entry */
#define AIJT_CODES_COUNT    0   /* codes_state[]: distinct values met, */
#define AIJT_CODES_OVERFLOW 1   /* more than the table holds, */
#define AIJT_CODES_USED     2   /* whether the product reads the codes */
#define AIJT_CODES_STATE    4
int         aijt_dia_code_words(aijt_int width); /* 8-byte words of codes a row: 1, 2 or 4 */
size_t      aijt_dia_codes_bytes(const aijt_dev_strip *d);
void        aijt_dia_codes_attach(aijt_dev_strip *d, void *mem);
cudaError_t aijt_dia_codes_make(const aijt_dev_strip *d, cudaStream_t stream);
cudaError_t aijt_dia_codes_make_all(const aijt_dev_strip *strips, int nstrips, cudaStream_t stream);
/* aijt_dia_codes_refills: whether d's refill codes its values as it reads them (a DIA strip with codes);
   aijt_dia_codes_refill does it, from values through src (or d->row_start without one) as aijt_dev_refill, and
   writes val only where the values prove uncodable (while the codes hold, val is stale). */
int         aijt_dia_codes_refills(const aijt_dev_strip *d);
cudaError_t aijt_dia_codes_refill(const aijt_dev_strip *d, const aijt_int *src, const double *values, cudaStream_t stream);

/* The COO tail on the device. */
typedef struct {
  aijt_int        nnz;
  const aijt_int *row, *col; /* entries grouped by row (plan position, then column) */
  const double   *val;
  int             block;     /* threads per block, as for strips */
  const double   *xhot;      /* labels as in aijt_dev_strip */
  aijt_int        nhot;
} aijt_dev_coo;

/* Copy format, sizes and launch parameters of plan strip P and its layout S into d; pointers are set
   to NULL, for the caller to fill with device copies of S->rows, S->ptr, S->col, S->val, S->mask (and
   xhot, nhot with the layouts' column order). */
void aijt_dev_strip_init(aijt_dev_strip *d, const aijt_strip *P, const aijt_layout *S);

/* A window of strip d: its strip rows [first, first + n) as a strip of their own, reading d's device
   arrays in place (no copy, no allocation), so that part of a plan's rows can run on another stream
   (MPI's edge rows).  Returns 0, w untouched, where d's format cannot be cut there: LONG rows split
   over several blocks, PANEL, COO, and SELL unless first is a multiple of its chunk; 1 otherwise. */
int aijt_dev_strip_window(const aijt_dev_strip *d, aijt_int first, aijt_int n, aijt_dev_strip *w);

/* A plan with a column order: every strip and the tail read their hot labels from xhot (nhot values). */
void aijt_dev_set_hot(aijt_dev_strip *strips, int nstrips, aijt_dev_coo *tail, const double *xhot, aijt_int nhot);

/* Whether strip d, built on the device, may be refilled through its rows' first places (row_start, 4 bytes a row)
   instead of a map (4 bytes a slot): a row's slots hold its entries in the CSR's order.  DIA always (its diagonals in
   column order); ELL, SELL, CSR, STREAM and LONG where the plan has no column order (column_order 0), which would
   order each row's slots by label.  Not PANEL (a row's entries by panel) nor BCSR. */
int aijt_dev_strip_by_rows(const aijt_dev_strip *d, int column_order);

/* Entries of d's ptr array (0: none), and the workspace a split LONG strip needs (0 and 0: none).  Its col array
   has aijt_layout_col_count entries of its layout. */
size_t aijt_dev_strip_ptr_count(const aijt_dev_strip *d);
/* Whether d's kernels read its rows array: all but DIA, which numbers its rows from row0. */
int    aijt_dev_strip_reads_rows(const aijt_dev_strip *d);
void   aijt_dev_strip_workspace(const aijt_dev_strip *d, size_t *npartial, size_t *ncount);

/* y[rows] = (z ? z[rows] : 0) + scale * (strip * x).  z may equal y. */
cudaError_t aijt_cuda_strip(const aijt_dev_strip *s, double scale, const double *x, const double *z, double *y, cudaStream_t stream);

/* y[row[k]] += scale * (val[k] * x[col[k]]) (atomically: rows of the tail may also be rows of other warps). */
cudaError_t aijt_cuda_tail(const aijt_dev_coo *t, double scale, const double *x, double *y, cudaStream_t stream);

/* Every strip (one launch per AIJT_FUSED_MAX strips of equal block size), then the tail (t may be
   NULL): y = scale * A x, or y = scale * A x + z.  Stops at the first error. */
cudaError_t aijt_cuda_spmv(const aijt_dev_strip *strips, int nstrips, const aijt_dev_coo *t, double scale, const double *x, const double *z, double *y, cudaStream_t stream);

/* The CSR on the device: what the GPU build reads. */
typedef struct {
  aijt_int        nrows, ncols, nnz;
  const aijt_int *rowptr, *colidx; /* nrows + 1, nnz */
  const double   *values;          /* nnz */
} aijt_dev_csr;

/* The GPU build (build.cu): the slots of skeleton K (aijt_layouts_skeleton of plan P and A's host copy)
   from A, as aijt_layouts_build lays them out, bit for bit.  strips[s], one per strip of K, hold
   device copies of K's rows and ptr (aijt_dev_strip_init and the caller's upload) and col, val and,
   DIA, mask pointing to device arrays of K's sizes; src[s] points to nslots aijt_int, each slot's place
   in A->values (-1: padding), which aijt_dev_refill reads.  A STREAM or BCSR strip of the whole matrix in
   natural order, whose slots are A's values in their order, may instead have val == A->values and src[s] NULL:
   its values are then read where they are, never copied.  A strip that aijt_dev_strip_by_rows allows may have
   row_start (nrows places on the device) instead of src[s]: the build writes there each row's first place in
   A->values, and its refills find each slot from them (slot_source.cuh).  tail: row, col and val of K->tail.nnz
   entries, tail_src as many.  col_pos: the plan's column order on the device (NULL without one).
   Setup, not a product: it allocates its workspace on the stream and waits for the stream once.
   cudaErrorInvalidValue when K does not fit P or A's pattern is not the one P was made for. */
cudaError_t aijt_dev_build(const aijt_plan *P, const aijt_layouts *K, const aijt_dev_csr *A, const aijt_int *col_pos, aijt_dev_strip *strips, aijt_int *const *src, aijt_dev_coo *tail, aijt_int *tail_src, cudaStream_t stream);

/* Same pattern, new values on the device: every slot of the strips and the tail from values (nnz, the
   CSR's) through the src maps of aijt_dev_build (none for a strip without one: its val is the caller's to point
   at values; a strip with row_start and no map: through its rows' first places), 0.0 for padding, and DIA's value
   codes made again (no aijt_dia_codes_make after it; a DIA strip whose new values code keeps its val as it was, as
   aijt_dia_codes_refill says).  No allocation, no wait. */
cudaError_t aijt_dev_refill(const double *values, const aijt_dev_strip *strips, const aijt_int *const *src, int nstrips, const aijt_dev_coo *tail, const aijt_int *tail_src, cudaStream_t stream);

/* A CSR's diagonal on the device (csr_diagonal.cu), rowptr and colidx as cuSPARSE's 32-bit arrays (PETSc's
   aijcusparse keeps them so), columns sorted within each row; no allocation, no wait.
   aijt_dev_csr_shift, MatShift: values[k] += a where k is row i's diagonal entry, for each row i < n (n at most the
   rows and the columns); rows without one are left, so the caller checks that every row has it.
   aijt_dev_csr_diagonal, MatGetDiagonal: d[i] = row i's diagonal value for each of the nrows rows, 0.0 where it has
   none (i >= ncols included). */
cudaError_t aijt_dev_csr_shift(const int *rowptr, const int *colidx, double *values, aijt_int n, double a, cudaStream_t stream);
cudaError_t aijt_dev_csr_diagonal(const int *rowptr, const int *colidx, const double *values, aijt_int nrows, aijt_int ncols, double *d, cudaStream_t stream);

/* The model planner with its passes over rows and entries on the GPU (plan_gpu.cu): aijt_plan_model's
   plan of host CSR A, bit for bit, from D, a device copy of A's row offsets and columns (values unused);
   A gives the sizes, the rules' plans where the model cannot plan, and a few row offsets.  Set-up code:
   it allocates on the stream and waits for it after each pass.  AIJT_ERR_DEVICE when a CUDA call failed,
   with its error in *cerr (else cudaSuccess). */
aijt_err aijt_dev_plan_model(const aijt_csr *A, const aijt_dev_csr *D, const aijt_rules *R, const aijt_model *m, cudaStream_t stream, aijt_plan **plan, cudaError_t *cerr);
/* The same plan, but its row order and column order stay on the device: *order (plan sorted by length)
   and *col_pos (plan->col_hot > 0), device arrays of nrows and ncols entries for the caller to free
   (cudaFreeAsync), NULL where the plan has none; plan->order and plan->col_pos stay NULL
   (aijt_dev_plan_fetch makes host copies).  The device skeleton below reads them. */
aijt_err aijt_dev_plan_model_keep(const aijt_csr *A, const aijt_dev_csr *D, const aijt_rules *R, const aijt_model *m, cudaStream_t stream, aijt_plan **plan, aijt_int **order, aijt_int **col_pos, cudaError_t *cerr);
/* The host copies of what aijt_dev_plan_model_keep left on the device, into plan->order and plan->col_pos
   (where the plan has them and they are still NULL); one wait.  AIJT_ERR_DEVICE with *cerr on failure. */
aijt_err aijt_dev_plan_fetch(aijt_plan *plan, const aijt_int *order, const aijt_int *col_pos, cudaStream_t stream, cudaError_t *cerr);

/* aijt_dev_plan_model_keep in a host thread of its own on a stream of its own (plan_job.cu), while the caller
   goes on; A, D and R are copied, m and the structure's arrays read until aijt_dev_plan_job_end, which waits for
   it and gives its results (the order and column order complete on the device).  after: NULL, or an event the
   planner's stream waits for before its first pass, which the job then owns (aijt_dev_plan_job_end destroys it).
   *job is NULL where no thread could be had: the caller then plans itself (and still owns 'after'). */
typedef struct aijt_dev_plan_job aijt_dev_plan_job;
cudaError_t aijt_dev_plan_job_begin(const aijt_csr *A, const aijt_dev_csr *D, const aijt_rules *R, const aijt_model *m, cudaEvent_t after, aijt_dev_plan_job **job);
aijt_err    aijt_dev_plan_job_end(aijt_dev_plan_job *job, aijt_plan **plan, aijt_int **order, aijt_int **col_pos, cudaError_t *cerr);

/* The skeleton on the device (skeleton.cu), for a plan whose order is on the device (aijt_layouts_sized_ok):
   - aijt_dev_skeleton: the skeleton's sizes (aijt_layouts_skeleton_sized of P and A, the host CSR) into
     *L; order is P's order on the device, or NULL for a plan in natural order (rows numbered from each
     strip's first); SELL's slots are counted from the lengths (rowptr: the device CSR's) of their rows
     (one wait, only with a SELL strip).  AIJT_ERR_FORMAT for a plan aijt_layouts_sized_ok refuses;
     AIJT_ERR_DEVICE with *cerr;
   - aijt_dev_iota: v[i] = first + i, i < n: the rows of a strip in natural order, for the kernels that
     read rows (DIA reads its first row alone);
   - aijt_dev_skeleton_ptrs: the ptr arrays of P's CSR, LONG, SELL, STREAM and PANEL strips (device, sized
     by aijt_dev_strip_ptr_count, rows set) from the device CSR's rowptr and colidx: row offsets, slice
     offsets, STREAM's block starts, PANEL's offsets per panel and row, as aijt_layouts_skeleton makes them;
   - aijt_dev_hot_columns: hot[p] = c for the nhot columns c with col_pos[c] = p < nhot;
   - aijt_dev_strip_patterns: each strip's pattern for its tuning-cache fingerprint (aijt_strip_pattern
     over its device rows, or rows row0 on where rows is NULL), into patterns[nstrips] (host); one wait.
   Set-up code: they allocate on the stream. */
/* Whether the device skeleton is the one for P: a plan aijt_layouts_sized_ok takes, whose order and
   column order are not on the host (left on the device, or none); the host skeleton otherwise. */
int         aijt_dev_skeleton_takes(const aijt_plan *P);
aijt_err    aijt_dev_skeleton(const aijt_plan *P, const aijt_csr *A, const aijt_int *rowptr, const aijt_int *order, cudaStream_t stream, aijt_layouts **L, cudaError_t *cerr);
cudaError_t aijt_dev_iota(aijt_int *v, aijt_int first, aijt_int n, cudaStream_t stream);
cudaError_t aijt_dev_skeleton_ptrs(const aijt_plan *P, const aijt_int *rowptr, const aijt_int *colidx, aijt_dev_strip *strips, cudaStream_t stream);
cudaError_t aijt_dev_hot_columns(const aijt_int *col_pos, aijt_int ncols, aijt_int nhot, aijt_int *hot, cudaStream_t stream);
cudaError_t aijt_dev_strip_patterns(const aijt_dev_strip *strips, int nstrips, const aijt_int *rowptr, const aijt_int *colidx, uint64_t *patterns, cudaStream_t stream);

/* Device to host (bytes may be 0), then the stream waited for (stage.cu): small copies through a pinned
   buffer kept for the process, which aijt_dev_stage_free releases (safe to call at any time; the next fetch makes it
   again).  Set-up code, not the product. */
cudaError_t aijt_dev_fetch(void *to, const void *from, size_t bytes, cudaStream_t stream);
void        aijt_dev_stage_free(void);
/* A pass whose kernel hands its small result to the host itself (stage.cu): aijt_dev_stage_begin lends it
   the pinned buffer above (host_bytes of it, mapped) and the current device's scratch of zeroed_bytes,
   zeroed (on stream, the first time), which the kernel must leave zeroed.  It returns 1 and holds them
   until aijt_dev_stage_end, which the pass calls after its wait, with dirty where the scratch may not be
   zeroed (a failure: it is made again); 0 where they cannot be had, with no CUDA error left behind: the
   pass then makes its own memory.  No aijt_dev_fetch between the two (they share one lock). */
typedef struct {
  void *host;     /* the result, as the host reads it */
  void *host_dev; /* the same memory, as the kernel writes it */
  void *zeroed;   /* device memory, zeroed */
} aijt_dev_stage_pass;
int  aijt_dev_stage_begin(size_t host_bytes, size_t zeroed_bytes, cudaStream_t stream, aijt_dev_stage_pass *pass);
void aijt_dev_stage_end(int dirty);
/* A one-warp launch on a stream of its own (stage.cu, per device, non-blocking): called while an upload's
   last pieces are on their way, it wakes a device that sat idle through an assembly, so that the next
   pass does not run at an idle device's pace (the first kernel after 200 ms of idle read 106 MB in 71 us
   on an H100, 46 us after such a launch, bench/results/2026-11-26-wake).  Best effort: a failure is
   dropped. */
void aijt_dev_wake(void);
/* That stream (made if missing), for the GPU planner's thread (plan_job.cu); NULL where it cannot be had. */
cudaStream_t aijt_dev_side_stream(void);

/* Host-to-device copy of bytes of pageable host memory on stream (copy_in.cu): from AIJT_COPY_IN_MIN bytes, through
   two page-locked buffers of the process, piece by piece, each CUDA call short (other threads' calls go between
   them); smaller, cudaMemcpyAsync, which holds them for all of it.  When it returns src may be written again; the copy finishes in stream order.
   aijt_dev_copy_in_free releases the buffers (the next upload makes them again). */
#define AIJT_COPY_IN_MIN ((size_t)1 << 20)
cudaError_t aijt_dev_copy_in(void *dst, const void *src, size_t bytes, cudaStream_t stream);
void        aijt_dev_copy_in_free(void);

/* out[k] = x[idx[k]], k < n (out may be mapped host memory): the ghost exchange's packing, and the hot
   columns' copy of x for a plan with a column order (idx: the layouts' hot, out: the strips' xhot). */
cudaError_t aijt_cuda_gather(aijt_int n, const aijt_int *idx, const double *x, double *out, cudaStream_t stream);

/* Whether this GPU runs these kernels (runs_here.cu): cudaSuccess, or the error every launch would give
   (cudaErrorNoKernelImageForDevice where none of the architectures they were built for suits it; the runtime's
   last error cleared); aijt_cuda_built_for names those architectures (the makefile's CUDA_ARCH). */
cudaError_t aijt_cuda_kernels_run_here(void);
const char *aijt_cuda_built_for(void);

#ifdef __cplusplus
}
#endif
