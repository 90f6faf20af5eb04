/*
   A seqaijtuned product in pieces, each on a stream the caller chooses: the MPI product runs the
   diagonal block's edge rows (those the off-diagonal block also writes) and then the off-diagonal block
   on the ghost exchange's stream once the ghosts are in, while the diagonal block's other rows run on
   the product's stream (mpi/cuda/multparts.c).  The off-diagonal block then no longer waits for the
   whole diagonal block: it ran at the end of every product, after a wait across the streams.

   The pieces are windows of the device strips (aijt_dev_strip_window): they read the strips' arrays in
   place, so a product copies nothing and allocates nothing.  Rows [0, lo) and [hi, n) are windows only
   in a plan in natural order (a strip's rows are consecutive rows of the matrix) with no COO tail (its
   entries may be anywhere) and no column order (its hot copy of x would be a third piece); SELL strips
   keep their slices whole, so their cuts move to slice boundaries, which only widens the edges.
   Everything here runs once the device copy is current and run-time tuning has ended: until then the
   caller multiplies as usual, on the current stream.

   The off-diagonal block runs in place (y += B x) on the edge rows' stream while the middle rows are
   written on the other, so it must not touch a middle row: a kernel writes y[r] = y[r] + 0 for an empty
   row of its strip, and that read and write beside the middle rows' kernel lost their result (2 H100s,
   bench/results/2026-11-26-x2-ghosts).  Its strips run as windows of the rows it has entries in: in
   natural order rows [0, lo) and [hi, n); sorted by length, its non-empty rows, which come first.
*/
#include "aijtunedcuda.h"
#include "aijtunedparts.h"

const MatAIJTunedVecAccess MatAIJTunedCUDAArrays = {VecCUDAGetArrayRead, VecCUDAGetArray, VecCUDAGetArrayWrite, VecCUDARestoreArrayRead, VecCUDARestoreArray, VecCUDARestoreArrayWrite};

/* Whether A's device copy (A's state ctx) is that of the matrix as it is: no planning, upload or refill pending,
   which the usual product does on the current stream.  Host checks alone. */
static PetscErrorCode HoldsMatrix(Mat A, const Mat_SeqAIJTuned *ctx, PetscBool *holds)
{
  PetscObjectState state;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)A, &state));
  *holds = (PetscBool)(A->assembled && !A->boundtocpu && ctx->settings.gpu_strips && ctx->state == state && MatSeqAIJTunedPlanCurrent(A, ctx) && ctx->dev && ctx->dev->plans_made == ctx->plans_made && ctx->dev->state == ctx->state);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatSeqAIJTunedCUDAHoldsMatrix(Mat A, PetscBool *holds)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(HoldsMatrix(A, ctx, holds));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether A's device copy can run on any stream now, with no work first: it holds the matrix (HoldsMatrix) and
   run-time tuning, which times whole products on the current stream, has ended.  The product in parts calls it
   before its first launch, at every product: one look-up of A's state. */
PetscErrorCode MatSeqAIJTunedCUDACurrent(Mat A, PetscBool *current)
{
  Mat_SeqAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  PetscCall(HoldsMatrix(A, ctx, current));
  *current = (PetscBool)(*current && !ctx->dev->tuner);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Strip s of the plan in natural order, rows [b, e), cut into edge rows before lo, middle rows and edge
   rows from hi: the windows go to the middle and edge lists; 0 when the strip cannot be cut. */
static int CutStrip(const aijt_strip *P, const aijt_dev_strip *D, PetscInt lo, PetscInt hi, AIJTunedDevice d)
{
  const PetscInt b = P->begin, e = P->end, unit = D->format == AIJT_SELL ? D->chunk : 1;
  PetscInt       m0 = PetscMax(b, lo), m1 = PetscMin(e, hi);

  if (D->format == AIJT_SELL && P->sigma > 1) return 0; /* rows sorted within windows: not consecutive */
  m0 = b + (m0 - b + unit - 1) / unit * unit; /* slice boundaries, the edges widened */
  m1 = b + (m1 - b) / unit * unit;
  if (m1 < m0) m1 = m0;
  const PetscInt cut[4] = {b, m0, m1, e};
  for (int k = 0; k < 3; k++) {
    const int which = k == 1 ? 0 : 1; /* the middle window goes to part 0 */
    if (cut[k + 1] == cut[k]) continue;
    if (!aijt_dev_strip_window(D, (aijt_int)(cut[k] - b), (aijt_int)(cut[k + 1] - cut[k]), &d->part[which][d->npart[which]])) return 0;
    d->npart[which]++;
  }
  return 1;
}

/* Rows [r0, r1) of a strip (numbered as its begin and end are) appended to list: the strip itself when
   they are all its rows, nothing when there are none; 0 when the strip cannot be cut so (a SELL strip
   sorted within windows holds its rows in another order). */
static int KeepRows(const aijt_strip *P, const aijt_dev_strip *D, PetscInt r0, PetscInt r1, aijt_dev_strip *list, int *n)
{
  if (r1 <= r0) return 1;
  if (r0 == P->begin && r1 == P->end) list[*n] = *D;
  else if ((D->format == AIJT_SELL && P->sigma > 1) || !aijt_dev_strip_window(D, (aijt_int)(r0 - P->begin), (aijt_int)(r1 - r0), &list[*n])) return 0;
  (*n)++;
  return 1;
}

/* A's windows for cuts lo and hi (its device copy current): *ready when they were made before; *fresh when
   they are to be made now (the lists allocated and empty, and A marked as unable until the caller marks it
   made); neither for cuts outside its rows */
static PetscErrorCode WindowsFor(Mat A, PetscInt lo, PetscInt hi, Mat_SeqAIJTuned **ctx, PetscBool *ready, PetscBool *fresh)
{
  AIJTunedDevice d;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, ctx));
  d      = (*ctx)->dev;
  *fresh = PETSC_FALSE;
  if (d->part_made && d->part_lo == lo && d->part_hi == hi) {
    *ready = (PetscBool)(d->part_made > 0);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscFree2(d->part[0], d->part[1]));
  d->npart[0] = d->npart[1] = 0;
  d->part_lo = lo, d->part_hi = hi, d->part_made = -1;
  *ready     = PETSC_FALSE;
  if (lo < 0 || lo > hi || hi > (*ctx)->plan->nrows) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(3 * d->nstrips + 1, &d->part[0], 3 * d->nstrips + 1, &d->part[1]));
  *fresh = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether A's product can run in parts cut at rows lo and hi now (MatSeqAIJTunedCUDACurrent, and a plan
   that windows allow); the windows are made the first time a plan is asked for these cuts. */
PetscErrorCode MatSeqAIJTunedCUDAPartsReady(Mat A, PetscInt lo, PetscInt hi, PetscBool *ready)
{
  Mat_SeqAIJTuned *ctx;
  AIJTunedDevice   d;
  const aijt_plan *P;
  PetscBool        fresh;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedCUDACurrent(A, ready));
  if (!*ready) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(WindowsFor(A, lo, hi, &ctx, ready, &fresh));
  d = ctx->dev;
  P = ctx->plan;
  if (!fresh || P->sorted || d->tail.nnz || d->nhot) PetscFunctionReturn(PETSC_SUCCESS);
  for (int s = 0; s < d->nstrips; s++)
    if (!CutStrip(&P->strips[s], &d->strips[s], lo, hi, d)) {
      PetscCall(PetscInfo(A, "The product stays whole: strip %d (%s) cannot be cut at rows %" PetscInt_FMT " and %" PetscInt_FMT "\n", s, aijt_format_names[P->strips[s].format], lo, hi));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  d->part_made = 1;
  *ready       = PETSC_TRUE;
  PetscCall(PetscInfo(A, "Product in parts: rows [0, %" PetscInt_FMT ") and [%" PetscInt_FMT ", %" PetscInt_FMT ") apart from the others\n", lo, hi, P->nrows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (z NULL) or y = A x + z over the rows of one part, on stream; after MatSeqAIJTunedCUDAPartsReady.
   The edge part logs the whole block's flops. */
PetscErrorCode MatSeqAIJTunedCUDAPartMult(Mat A, AIJTunedPart part, const double *x, const double *z, double *y, cudaStream_t stream)
{
  Mat_SeqAIJTuned *ctx;
  AIJTunedDevice   d;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  d = ctx->dev;
  PetscCheck(d && d->part_made > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "aijtuned: the product's parts are not made");
  PetscCallCUDA(aijt_cuda_spmv(d->part[part], d->npart[part], NULL, d->scale, x, z, y, stream));
  if (part == AIJT_PART_EDGES) PetscCall(PetscLogGpuFlops(2.0 * (PetscLogDouble)ctx->plan->nnz - (z ? 0.0 : (PetscLogDouble)ctx->nonzero_rows)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the off-diagonal block B, whose entries lie in rows [0, lo) and [hi, n) alone, can run in place
   on the edge rows' stream: its strips cut to the rows it has entries in (see above); after
   MatSeqAIJTunedCUDACurrent.  The windows are made the first time a plan is asked. */
PetscErrorCode MatSeqAIJTunedCUDAEdgesReady(Mat B, PetscInt lo, PetscInt hi, PetscBool *ready)
{
  Mat_SeqAIJTuned *ctx;
  AIJTunedDevice   d;
  const aijt_plan *P;
  PetscBool        fresh;

  PetscFunctionBegin;
  PetscCall(WindowsFor(B, lo, hi, &ctx, ready, &fresh));
  d = ctx->dev;
  P = ctx->plan;
  if (!fresh) PetscFunctionReturn(PETSC_SUCCESS);
  for (int s = 0; s < d->nstrips - d->nempty; s++) {
    const aijt_strip     *S = &P->strips[s];
    const aijt_dev_strip *D = &d->strips[s];
    /* sorted by length, the non-empty rows come first; in natural order rows are rows */
    const int kept = P->sorted ? KeepRows(S, D, S->begin, PetscMin(S->end, (PetscInt)ctx->nonzero_rows), d->part[1], &d->npart[1])
                               : KeepRows(S, D, S->begin, PetscMin(S->end, lo), d->part[1], &d->npart[1]) && KeepRows(S, D, PetscMax(S->begin, hi), S->end, d->part[1], &d->npart[1]);
    if (!kept) {
      PetscCall(PetscInfo(B, "The product stays whole: the off-diagonal block's strip %d (%s) cannot be cut to the rows it has entries in\n", s, aijt_format_names[S->format]));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  d->part_made = 1;
  *ready       = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y += B x in place on stream over the rows B has entries in (MPIAIJ's off-diagonal block); after
   MatSeqAIJTunedCUDAEdgesReady. */
PetscErrorCode MatSeqAIJTunedCUDAMultAddEdges(Mat B, const double *x, double *y, cudaStream_t stream)
{
  Mat_SeqAIJTuned *ctx;
  AIJTunedDevice   d;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedGetContext(B, &ctx));
  d = ctx->dev;
  PetscCheck(d && !d->tuner && d->part_made > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "aijtuned: the block's windows are not made");
  PetscCallCUDA(aijt_cuda_gather(d->nhot, d->hot, x, d->xhot, stream));
  PetscCallCUDA(aijt_cuda_spmv(d->part[1], d->npart[1], &d->tail, d->scale, x, y, y, stream)); /* the tail's entries lie in those rows too */
  PetscCall(PetscLogGpuFlops(2.0 * (PetscLogDouble)ctx->plan->nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}
