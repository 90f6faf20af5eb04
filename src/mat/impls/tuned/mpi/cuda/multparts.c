/*
   mpiaijtuned's MatMult in parts, on the peer path (ghostspeer.c) with device vectors.  The off-diagonal
   block writes only a few rows where the rows are numbered along the mesh (the first and last planes of
   a slab, the first and last rows of a band).  Those edge rows of the diagonal block run with the
   off-diagonal block on T, the exchange's stream, once the ghosts are in; the diagonal block's other rows
   run on S, the product's stream, meanwhile.  With S the product's stream and T the exchange's (higher
   priority):
     S: record 'ready'; the diagonal block's middle rows           [seq/cuda/aijtunedparts.c]
     T: pack x; the diagonal block's edge rows; copy each sender's ghosts in; y += B ghosts
     S: wait for T.
   The whole block on S, then B after the ghosts, put the off-diagonal block's launch and S's wait for the
   ghosts after the diagonal block, at the end of every product.

   Each rank decides on its own, at every product: the exchange is the same either way.  The product
   stays whole while the diagonal block is being planned, uploaded or tuned, where the edge rows are more
   than a quarter of the rows, or where its plan cannot be cut at them.  The off-diagonal block on T runs
   over the rows it has entries in alone, never a middle row that S is writing
   (seq/cuda/aijtunedparts.c); where its plan cannot be cut so the product stays whole, and with planning,
   uploading, refilling or tuning pending it runs on S after the join, as in the whole product.
*/
#include "ghostscuda.h"
#include "../../seq/cuda/aijtunedparts.h"

/* The rows B writes lie in [0, lo) and [hi, n): lo past the last of the first half, hi the first of the second. */
static PetscErrorCode EdgeRows(Mat B, PetscInt *lo, PetscInt *hi)
{
  const PetscInt *ia, *ja;
  PetscInt        n, mid;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot read the CSR structure of the off-diagonal block");
  mid = n / 2;
  *lo = 0;
  *hi = n;
  for (PetscInt r = 0; r < mid; r++)
    if (ia[r + 1] > ia[r]) *lo = r + 1;
  for (PetscInt r = n - 1; r >= mid; r--)
    if (ia[r + 1] > ia[r]) *hi = r;
  PetscCall(MatRestoreRowIJ(B, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the blocks are ready for the product in parts (see above), and whether the off-diagonal block
   runs on T (*off_on_side) or on S after the join: host checks alone, so that the first launch is not
   later than in the whole product. */
static PetscErrorCode PartsReady(AIJTunedGhosts *g, Mat Ad, Mat Ao, PetscBool *ready, PetscBool *off_on_side)
{
  PetscBool tuned;

  PetscFunctionBegin;
  *ready = *off_on_side = PETSC_FALSE;
  PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQAIJTUNED, &tuned));
  if (tuned) PetscCall(PetscObjectTypeCompare((PetscObject)Ao, MATSEQAIJTUNED, &tuned));
  if (!tuned) PetscFunctionReturn(PETSC_SUCCESS);
  if (!g->edges_found) {
    PetscCall(EdgeRows(Ao, &g->edge_lo, &g->edge_hi));
    g->edges_found = PETSC_TRUE;
  }
  if (4 * (g->edge_lo + Ad->rmap->n - g->edge_hi) > Ad->rmap->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJTunedCUDAPartsReady(Ad, g->edge_lo, g->edge_hi, ready));
  if (!*ready) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqAIJTunedCUDACurrent(Ao, off_on_side));
  if (*off_on_side) PetscCall(MatSeqAIJTunedCUDAEdgesReady(Ao, g->edge_lo, g->edge_hi, ready));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (z NULL) or y = A x + z in parts, when *done; else nothing was queued and the caller multiplies. */
PetscErrorCode MatMPIAIJTunedMultInParts(Mat A, AIJTunedGhosts *g, Vec x, Vec z, Vec y, PetscBool *done)
{
  Mat                Ad, Ao;
  const PetscInt    *garray;
  const PetscScalar *xa, *za, *la;
  PetscScalar       *ya;
  Vec                lvec;
  cudaStream_t       stream;
  PetscBool          off_on_side;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!g->peer || !g->nghost) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(PartsReady(g, Ad, Ao, &g->in_parts, &off_on_side));
  if (!g->in_parts) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCall(PetscLogGpuTimeBegin());
  /* the arrays first: a copy of host values up goes on S, and T reads x and z from 'ready' on */
  PetscCall(MatAIJTunedGetVecArrays(&MatAIJTunedCUDAArrays, x, z, y, &xa, &za, &ya));
  PetscCall(AIJTunedGhostsReadyPeer(g));
  PetscCall(MatSeqAIJTunedCUDAPartMult(Ad, AIJT_PART_MIDDLE, (const double *)xa, (const double *)za, (double *)ya, stream));
  PetscCall(AIJTunedGhostsBeginPeer(g, x, PETSC_TRUE));
  /* the edge rows need x alone: queued behind the pack, before the host waits for the neighbours' notes,
     so that after them only the copies and the off-diagonal block are left to launch */
  PetscCall(MatSeqAIJTunedCUDAPartMult(Ad, AIJT_PART_EDGES, (const double *)xa, (const double *)za, (double *)ya, g->cuda->side));
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Ghosts, A, 0, 0, 0));
  PetscCall(AIJTunedGhostsEndPeer(g, PETSC_TRUE, PETSC_FALSE, &lvec));
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Ghosts, A, 0, 0, 0));
  if (off_on_side) {
    PetscCall(VecCUDAGetArrayRead(lvec, &la));
    PetscCall(MatSeqAIJTunedCUDAMultAddEdges(Ao, (const double *)la, (double *)ya, g->cuda->side));
    PetscCall(VecCUDARestoreArrayRead(lvec, &la));
  }
  PetscCall(AIJTunedGhostsJoinPeer(g));
  PetscCall(MatAIJTunedRestoreVecArrays(&MatAIJTunedCUDAArrays, x, z, y, &xa, &za, &ya));
  PetscCall(PetscLogGpuTimeEnd());
  /* an off-diagonal block to plan, upload, refill or tune does it on S, as the whole product does */
  if (!off_on_side) PetscCall((*Ao->ops->multadd)(Ao, lvec, y, y));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
