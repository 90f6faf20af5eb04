/*
   MATMPIAIJTUNED: MPIAIJ whose diagonal and off-diagonal blocks are MATSEQAIJTUNED.

   MatMult keeps MPIAIJ's shape: start the ghost exchange, multiply the diagonal block, finish the
   exchange, add the off-diagonal block's product.  The exchange is aijtuned's own (ghosts.h: copies
   between the GPUs of one node, else pinned host buffers and a second stream on the GPU);
   -mat_aijtuned_ghost_exchange 0 gives MPIAIJ's scatter back.  Each block plans on its own: the off-diagonal block (short rows over few columns) gets its
   own plan, not the diagonal block's.  Everything else is MPIAIJ's.
*/
#include "ghosts.h"

#include <string.h>
#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

static const char        CONTEXT_NAME[] = MATMPIAIJTUNED_STATE;
/* to the base, from mpiaij and from mpiaijcusparse (as seqaijtuned's) */
static const char *const CONVERTERS[3] = {"MatConvert_mpiaijtuned_mpiaij_C", "MatConvert_mpiaij_mpiaijtuned_C", "MatConvert_mpiaijcusparse_mpiaijtuned_C"};

static PetscErrorCode MatAssemblyEnd_MPIAIJTuned(Mat, MatAssemblyType);
static PetscErrorCode MatDestroy_MPIAIJTuned(Mat);
static PetscErrorCode MatDuplicate_MPIAIJTuned(Mat, MatDuplicateOption, Mat *);
static PetscErrorCode MatView_MPIAIJTuned(Mat, PetscViewer);
static PetscErrorCode MatSetFromOptions_MPIAIJTuned(Mat, AIJTunedOptionItems);
static PetscErrorCode MatConvert_MPIAIJTuned_Any(Mat, MatType, MatReuse, Mat *);
static PetscErrorCode MatMult_MPIAIJTuned(Mat, Vec, Vec);
static PetscErrorCode MatMultAdd_MPIAIJTuned(Mat, Vec, Vec, Vec);
static PetscErrorCode MatCreateSubMatrices_MPIAIJTuned(Mat, PetscInt, const IS[], const IS[], MatReuse, Mat *[]);

static PetscErrorCode GetContext(Mat A, Mat_MPIAIJTuned **ctx)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedContextGet(A, CONTEXT_NAME, MATMPIAIJTUNED, (void **)ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetPreallocationCOO_MPIAIJTuned(Mat, PetscCount, PetscInt[], PetscInt[]);
static PetscErrorCode MatShift_MPIAIJTuned(Mat, PetscScalar);
static PetscErrorCode MatAXPY_MPIAIJTuned(Mat, PetscScalar, Mat, MatStructure);
#if PETSC_VERSION_GE(3, 21, 0)
static PetscErrorCode MatEliminateZeros_MPIAIJTuned(Mat, PetscBool);
#endif

static PetscErrorCode HookOps(Mat A, Mat_MPIAIJTuned *ctx)
{
  PetscFunctionBegin;
#define HOOK(op, fn) MatAIJTunedHookOp(A, &ctx->base, op, fn, 0)
  HOOK(mult, MatMult_MPIAIJTuned);
  HOOK(multadd, MatMultAdd_MPIAIJTuned);
  HOOK(assemblyend, MatAssemblyEnd_MPIAIJTuned);
  HOOK(duplicate, MatDuplicate_MPIAIJTuned);
  HOOK(view, MatView_MPIAIJTuned);
  HOOK(setfromoptions, MatSetFromOptions_MPIAIJTuned);
  /* conversions PETSc finds no converter for by this type's name (to MATIS, say) go through the base's own */
  HOOK(convert, MatConvert_MPIAIJTuned_Any);
  /* products are the base's, under its name with the blocks under theirs (aijtunedproduct.c) */
  HOOK(productsetfromoptions, MatAIJTunedProductSetFromOptions);
  HOOK(createsubmatrices, MatCreateSubMatrices_MPIAIJTuned);
  HOOK(shift, MatShift_MPIAIJTuned);
  HOOK(axpy, MatAXPY_MPIAIJTuned);
#if PETSC_VERSION_GE(3, 21, 0)
  HOOK(eliminatezeros, MatEliminateZeros_MPIAIJTuned);
#endif
#undef HOOK
  PetscCall(MatAIJTunedHookCOO(A, &ctx->base, SetPreallocationCOO_MPIAIJTuned));
  MatAIJTunedHookDestroy(A, &ctx->base, MatDestroy_MPIAIJTuned);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if PETSC_VERSION_GE(3, 21, 0)
/* MatEliminateZeros: MPIAIJ's compacts the blocks' host arrays with SeqAIJ's function, not the blocks' operation (whose
   reasons are seq/aijtunedbaseops.c's): their host values are brought up to date first, and a block whose pattern
   changed keeps its values on the host alone */
static PetscErrorCode MatEliminateZeros_MPIAIJTuned(Mat A, PetscBool keep)
{
  Mat_MPIAIJTuned *ctx;
  Mat              blocks[2];
  const PetscInt  *garray;
  PetscObjectState pattern[2];

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  PetscCheck(ctx->base.ops.eliminatezeros, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "aijtuned: the base type %s has no MatEliminateZeros", ctx->base.type);
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], &garray));
  for (int k = 0; k < 2; k++) {
    pattern[k] = blocks[k]->nonzerostate;
    PetscCall(MatAIJTunedHostValuesUp(blocks[k]));
  }
  PetscCall(ctx->base.ops.eliminatezeros(A, keep));
  for (int k = 0; k < 2; k++)
    if (blocks[k]->nonzerostate != pattern[k]) PetscCall(MatAIJTunedHostValuesCurrent(blocks[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* MatShift: with the rows and the columns split alike, each rank's part of the diagonal lies in its diagonal block,
   and when every rank's block can shift it on the GPU (MatSeqAIJTunedCUDAShiftable: aijtuneddiagonal.c) the blocks do,
   each its own MatShift.  Otherwise the base's, which adds row by row on the host and assembles on every rank: the
   choice is made over all ranks. */
static PetscErrorCode MatShift_MPIAIJTuned(Mat A, PetscScalar a)
{
  Mat_MPIAIJTuned *ctx;
  Mat              Ad, Ao;
  const PetscInt  *garray;
  PetscBool        can = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
#if defined(PETSC_HAVE_CUDA)
  if (A->rmap->rstart == A->cmap->rstart && A->rmap->rend == A->cmap->rend) {
    PetscBool tuned;
    PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQAIJTUNED, &tuned));
    if (tuned) {
      Mat_SeqAIJTuned *bctx;
      PetscCall(MatSeqAIJTunedGetContext(Ad, &bctx));
      PetscCall(MatSeqAIJTunedCUDAShiftable(Ad, bctx, &can));
    }
  }
#endif
  PetscCall(MatAIJTunedAllRanks(PetscObjectComm((PetscObject)A), &can));
  PetscCall(PetscInfo(A, can ? "MatShift on the GPU, by the diagonal blocks\n" : "MatShift by the base\n"));
  if (can) PetscCall(MatShift(Ad, a));
  else PetscCall(ctx->base.ops.shift(A, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatAXPY of another mpiaijtuned matrix X (PETSc calls this one for X of the same type alone): with a pattern not
   known to be Y's, MPIAIJ's builds the union on the host and merges it into Y.  Where X's pattern is Y's on every
   rank (mpi/samepattern.c), the blocks add their own, as with SAME_NONZERO_PATTERN: on the GPU where the base's are
   there, and Y keeps its pattern and its plans. */
static PetscErrorCode MatAXPY_MPIAIJTuned(Mat Y, PetscScalar a, Mat X, MatStructure str)
{
  Mat_MPIAIJTuned *ctx;
  PetscBool        tuned, same = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(GetContext(Y, &ctx));
  PetscCall(PetscObjectTypeCompare((PetscObject)X, MATMPIAIJTUNED, &tuned));
  if (str != SAME_NONZERO_PATTERN && tuned) {
    PetscCall(MatMPIAIJTunedSamePattern(Y, X, &ctx->axpy_same, &same));
    PetscCall(MatAIJTunedAllRanks(PetscObjectComm((PetscObject)Y), &same));
    if (same) {
      PetscCall(PetscInfo(Y, "MatAXPY: the same pattern on every rank, added block by block\n"));
      str = SAME_NONZERO_PATTERN;
    }
  }
  PetscCall(ctx->base.ops.axpy(Y, a, X, str));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base's blocks, told that their values changed: MPIAIJ writes them into the blocks' host arrays behind
   their backs (MatAIJTunedHostValuesChanged).  On one rank with the whole matrix asked for, the block's product
   had read the values of its assembly, all zero (ops.c, "ILU of a reused MatCreateSubMatrices block"). */
static PetscErrorCode MatCreateSubMatrices_MPIAIJTuned(Mat C, PetscInt n, const IS isrow[], const IS iscol[], MatReuse scall, Mat *submat[])
{
  Mat_MPIAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(GetContext(C, &ctx));
  PetscCall((*ctx->base.ops.createsubmatrices)(C, n, isrow, iscol, scall, submat));
  for (PetscInt i = 0; i < n; i++) PetscCall(MatAIJTunedHostValuesChanged((*submat)[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Make both local blocks seqaijtuned (in place, so MPIAIJ's pointers stay valid) and give them our settings. */
static PetscErrorCode TuneBlocks(Mat A, Mat_MPIAIJTuned *ctx)
{
  Mat             blocks[2];
  const PetscInt *garray;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], &garray));
  for (int b = 0; b < 2; b++) {
    PetscBool tuned;
    if (!blocks[b]) continue;
    PetscCall(PetscObjectTypeCompare((PetscObject)blocks[b], MATSEQAIJTUNED, &tuned));
    MatAIJTunedSettings settings = ctx->settings;
    if (!tuned) PetscCall(MatConvert_SeqAIJ_SeqAIJTuned(blocks[b], MATSEQAIJTUNED, MAT_INPLACE_MATRIX, &blocks[b]));
    settings.rules.empty_free = b == 1; /* MPIAIJ only ever adds the off-diagonal block's product in place */
    PetscCall(MatSeqAIJTunedSetSettings(blocks[b], &settings));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* COO preallocation: MPIAIJ's makes new blocks, of the matrix's root type or, in a debug PETSc, its base's
   (aijtunedcoo.c); they become aijtuned here */
static PetscErrorCode SetPreallocationCOO_MPIAIJTuned(Mat A, PetscCount n, PetscInt i[], PetscInt j[])
{
  Mat_MPIAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  PetscCall(MatAIJTunedCOOPreallocation(A, n, i, j));
  PetscCall(TuneBlocks(A, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the vectors live on the device (then so does the exchange). */
static PetscErrorCode OnDevice(Mat A, Vec x, Vec z, Vec y, PetscBool *device)
{
  PetscFunctionBegin;
  *device = PETSC_FALSE;
#if defined(PETSC_HAVE_CUDA)
  {
    Vec v[3] = {x, z, y};
    *device  = (PetscBool)!A->boundtocpu;
    for (int i = 0; i < 3 && *device; i++)
      if (v[i]) PetscCall(PetscObjectTypeCompareAny((PetscObject)v[i], device, VECSEQCUDA, VECMPICUDA, ""));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The exchange's three paths: between GPUs (chosen for all ranks at set-up), host-staged from the device, on the host. */
static PetscErrorCode GhostsBegin(AIJTunedGhosts *g, Vec x, PetscBool device)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  if (g->peer) PetscCall(AIJTunedGhostsBeginPeer(g, x, device));
  else if (device) PetscCall(AIJTunedGhostsBeginCUDA(g, x));
  else
#endif
    PetscCall(AIJTunedGhostsBeginHost(g, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GhostsEnd(AIJTunedGhosts *g, PetscBool device, Vec *lvec)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  if (g->peer) PetscCall(AIJTunedGhostsEndPeer(g, device, PETSC_TRUE, lvec));
  else if (device) PetscCall(AIJTunedGhostsEndCUDA(g, lvec));
  else
#endif
    PetscCall(AIJTunedGhostsEndHost(g, lvec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (z NULL) or y = A x + z, with aijtuned's ghost exchange around the diagonal block's product. */
static PetscErrorCode MultWithGhosts(Mat A, Vec x, Vec z, Vec y)
{
  Mat_MPIAIJTuned *ctx;
  AIJTunedGhosts  *g;
  Mat              Ad, Ao;
  const PetscInt  *garray;
  Vec              lvec;
  PetscBool        device, local_first = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  PetscCall(MatAIJTunedSettingsRead(A, &ctx->settings));
  PetscCall(OnDevice(A, x, z, y, &device));
  if (ctx->base.merged) { /* other data under the same state numbers: a new exchange */
    PetscCall(AIJTunedGhostsDestroy(&ctx->ghosts));
    ctx->base.merged = PETSC_FALSE;
  }
  /* every rank decides alike: the settings come from the same options, nonzerostate is reduced over the ranks at assembly;
     the copies between GPUs are tried when the first product's vectors are on the device (set-up agrees over the ranks) */
  if (ctx->settings.ghost_exchange && (!ctx->ghosts || ctx->ghosts->nonzerostate != A->nonzerostate || ctx->ghosts->peer_asked != ctx->settings.ghost_peer)) PetscCall(AIJTunedGhostsSetUp(A, ctx->settings.ghost_peer, device, &ctx->ghosts));
  if (!ctx->settings.ghost_exchange || !ctx->ghosts->usable) {
    if (z) PetscCall(ctx->base.ops.multadd(A, x, z, y));
    else PetscCall(ctx->base.ops.mult(A, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  g = ctx->ghosts;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
#if defined(PETSC_HAVE_CUDA)
  /* the peer path packs device vectors on its second stream: the diagonal block is queued ahead of the whole
     exchange, which then runs beside it (queued after the exchange's calls, the block started 7-18 us after
     the pack from an idle device; first, 2 us sooner per product on 4 H200s: bench/results/
     2026-11-21-h200x4-trace and -local-first) */
  local_first = g->peer && device;
  if (local_first && ctx->settings.edge_rows) {
    PetscBool done;
    PetscCall(MatMPIAIJTunedMultInParts(A, g, x, z, y, &done));
    if (done) PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (local_first) { /* x's values on the device before 'ready': a copy up would come after it on S, and T's pack would read the old ones */
    const PetscScalar *xa;
    PetscCall(VecCUDAGetArrayRead(x, &xa));
    PetscCall(VecCUDARestoreArrayRead(x, &xa));
    PetscCall(AIJTunedGhostsReadyPeer(g));
  }
#endif
  if (!local_first) PetscCall(GhostsBegin(g, x, device));
  if (z) PetscCall((*Ad->ops->multadd)(Ad, x, z, y));
  else PetscCall((*Ad->ops->mult)(Ad, x, y));
  if (local_first) PetscCall(GhostsBegin(g, x, device));
  PetscCall(PetscLogEventBegin(MAT_AIJTuned_Ghosts, A, 0, 0, 0));
  PetscCall(GhostsEnd(g, device, &lvec));
  PetscCall(PetscLogEventEnd(MAT_AIJTuned_Ghosts, A, 0, 0, 0));
  if (g->nghost) PetscCall((*Ao->ops->multadd)(Ao, lvec, y, y)); /* no ghosts: the off-diagonal block is empty */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_MPIAIJTuned(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultWithGhosts(A, x, NULL, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_MPIAIJTuned(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MultWithGhosts(A, x, z, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMPIAIJSetPreallocation_MPIAIJTuned(Mat B, PetscInt d_nz, const PetscInt d_nnz[], PetscInt o_nz, const PetscInt o_nnz[])
{
  Mat_MPIAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(GetContext(B, &ctx));
  PetscCall(ctx->base_preallocation(B, d_nz, d_nnz, o_nz, o_nnz));
  PetscCall(TuneBlocks(B, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAssemblyEnd_MPIAIJTuned(Mat A, MatAssemblyType mode)
{
  Mat_MPIAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  PetscCall(MatAIJTunedSettingsRead(A, &ctx->settings));
  if (A->preallocated) PetscCall(TuneBlocks(A, ctx)); /* the blocks plan inside MPIAIJ's assembly, with these settings */
  PetscCall(ctx->base.ops.assemblyend(A, mode));
  PetscCall(HookOps(A, ctx));
  if (mode == MAT_FINAL_ASSEMBLY) PetscCall(TuneBlocks(A, ctx)); /* blocks MPIAIJ made itself (COO assembly) */
  if (mode == MAT_FINAL_ASSEMBLY) PetscCall(MatAIJTunedWatchDM(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetFromOptions_MPIAIJTuned(Mat A, AIJTunedOptionItems PetscOptionsObject)
{
  Mat_MPIAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  if (ctx->base.ops.setfromoptions) PetscCall(ctx->base.ops.setfromoptions(A, PetscOptionsObject));
  PetscCall(MatAIJTunedSettingsReadNow(A, &ctx->settings));
  if (A->preallocated) PetscCall(TuneBlocks(A, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ViewSummary(Mat A, PetscViewer viewer)
{
  Mat             blocks[2];
  const PetscInt *garray;
  PetscInt        local[3 * AIJT_NFORMATS + 1] = {0}, total[3 * AIJT_NFORMATS + 1];
  PetscMPIInt     size;

  PetscFunctionBegin;
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], &garray));
  for (int b = 0; b < 2; b++) {
    Mat_SeqAIJTuned *bctx;
    aijt_int         nstrips[AIJT_NFORMATS], rows[AIJT_NFORMATS], nnz[AIJT_NFORMATS];
    PetscCall(MatSeqAIJTunedUpdate(blocks[b]));
    PetscCall(MatSeqAIJTunedGetContext(blocks[b], &bctx));
    aijt_plan_summary(bctx->plan, nstrips, rows, nnz);
    for (int f = 0; f < AIJT_NFORMATS; f++) {
      local[3 * f] += nstrips[f];
      local[3 * f + 1] += rows[f];
      local[3 * f + 2] += nnz[f];
    }
    local[3 * AIJT_NFORMATS] += bctx->plan->nstrips;
  }
  PetscCallMPI(MPI_Allreduce(local, total, 3 * AIJT_NFORMATS + 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)A)));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCall(PetscViewerASCIIPrintf(viewer, "aijtuned plans of %d ranks (diagonal and off-diagonal blocks): %" PetscInt_FMT " strips\n", size, total[3 * AIJT_NFORMATS]));
  { /* rank 0's model line, as the viewer prints, and how many ranks' lines differ from it: each rank finds its own
       GPU's model (a cluster of mixed GPUs) and reads its own options */
    Mat_SeqAIJTuned *dctx;
    char             line[400] = "", first[400]; /* line zeroed past its end: all of it is broadcast */
    PetscMPIInt      same, nsame;
    PetscCall(MatSeqAIJTunedGetContext(blocks[0], &dctx));
    PetscCall(MatSeqAIJTunedPlannedWith(dctx, line, sizeof(line)));
    PetscCall(PetscArraycpy(first, line, sizeof(line)));
    PetscCallMPI(MPI_Bcast(first, (PetscMPIInt)sizeof(first), MPI_CHAR, 0, PetscObjectComm((PetscObject)A)));
    same = !strncmp(first, line, sizeof(line));
    PetscCallMPI(MPI_Allreduce(&same, &nsame, 1, MPI_INT, MPI_SUM, PetscObjectComm((PetscObject)A)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "%s", first));
    if (nsame < size) PetscCall(PetscViewerASCIIPrintf(viewer, "  planned otherwise on %d of %d ranks (-mat_view ::ascii_info_detail shows each rank's)\n", size - nsame, size));
  }
  for (int f = 0; f < AIJT_NFORMATS; f++) {
    if (!total[3 * f] && !total[3 * f + 2]) continue;
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %-4s: %" PetscInt_FMT " strips, %" PetscInt_FMT " rows, %" PetscInt_FMT " entries\n", aijt_format_names[f], total[3 * f], total[3 * f + 1], total[3 * f + 2]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Which way MatMult's ghost values travel (the same on every rank but for host-staged ranks on host vectors). */
static PetscErrorCode ViewGhosts(Mat A, PetscViewer viewer)
{
  Mat_MPIAIJTuned *ctx;
  AIJTunedGhosts  *g;
  const char      *how;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  g = ctx->ghosts;
  if (!ctx->settings.ghost_exchange) how = "MPIAIJ's scatter (-mat_aijtuned_ghost_exchange 0)";
  else if (!g || g->nonzerostate != A->nonzerostate || g->peer_asked != ctx->settings.ghost_peer) how = "aijtuned's, its path chosen at the first product";
  else if (!g->usable) how = "MPIAIJ's scatter (a column map is not sorted)";
  else if (g->peer) how = "aijtuned's, copied between the GPUs (CUDA IPC)";
  else how = "aijtuned's, through host memory";
  PetscCall(PetscViewerASCIIPrintf(viewer, "ghost exchange: %s\n", how));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ViewDetail(Mat A, PetscViewer viewer)
{
  Mat_MPIAIJTuned *ctx;
  Mat              blocks[2];
  const PetscInt  *garray;
  const char      *names[2] = {"diagonal", "off-diagonal"};
  PetscMPIInt      rank;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  PetscCall(MatMPIAIJGetSeqAIJ(A, &blocks[0], &blocks[1], &garray));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
  PetscCall(PetscViewerASCIIPushSynchronized(viewer));
  for (int b = 0; b < 2; b++) {
    PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "[%d] %s block, %" PetscInt_FMT " x %" PetscInt_FMT ": ", rank, names[b], blocks[b]->rmap->n, blocks[b]->cmap->n));
    PetscCall(MatSeqAIJTunedViewPlan(blocks[b], viewer, PETSC_TRUE));
  }
  if (ctx->ghosts && ctx->ghosts->peer) { /* mpi/cuda/multparts.c */
    const AIJTunedGhosts *g = ctx->ghosts;
    if (g->in_parts) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "[%d] last product in parts: diagonal block rows [0, %" PetscInt_FMT ") and [%" PetscInt_FMT ", %" PetscInt_FMT ") with the off-diagonal block on the exchange's stream, its other rows beside them\n", rank, g->edge_lo, g->edge_hi, blocks[0]->rmap->n));
    else PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "[%d] last product whole: diagonal block, then the off-diagonal block\n", rank));
  }
  PetscCall(PetscViewerFlush(viewer));
  PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_MPIAIJTuned(Mat A, PetscViewer viewer)
{
  Mat_MPIAIJTuned  *ctx;
  PetscBool         iascii;
  PetscViewerFormat format;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  if (ctx->base.ops.view) PetscCall(ctx->base.ops.view(A, viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii || !A->assembled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format == PETSC_VIEWER_ASCII_INFO || format == PETSC_VIEWER_ASCII_INFO_DETAIL) {
    PetscCall(ViewSummary(A, viewer));
    PetscCall(ViewGhosts(A, viewer));
  }
  if (format == PETSC_VIEWER_ASCII_INFO_DETAIL) PetscCall(ViewDetail(A, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDuplicate_MPIAIJTuned(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_MPIAIJTuned *ctx, *bctx;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  PetscCall(ctx->base.ops.duplicate(A, op, B)); /* creates an mpiaijtuned by type name; the blocks are duplicated */
  PetscCall(GetContext(*B, &bctx));
  PetscCall(HookOps(*B, bctx));
  bctx->settings = ctx->settings;
  if ((*B)->preallocated) PetscCall(TuneBlocks(*B, bctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The state's end, when its container goes (aijtunedcontext.c) */
static PetscErrorCode FreeContext(void *p)
{
  Mat_MPIAIJTuned *ctx = (Mat_MPIAIJTuned *)p;

  PetscFunctionBegin;
  PetscCall(AIJTunedGhostsDestroy(&ctx->ghosts));
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Unconvert(Mat A)
{
  Mat_MPIAIJTuned *ctx;

  PetscFunctionBegin;
  PetscCall(GetContext(A, &ctx));
  PetscCall(PetscObjectComposeFunction((PetscObject)A, "MatMPIAIJSetPreallocation_C", ctx->base_preallocation));
  PetscCall(MatAIJTunedBaseRestore(A, CONTEXT_NAME, CONVERTERS, &ctx->base));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_MPIAIJTuned(Mat A)
{
  PetscBool merging;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedDestroyMerged(A, &merging)); /* the base's data only; the ghosts go at the next product */
  if (merging) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(Unconvert(A));
  PetscCall((*A->ops->destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* To any type: the blocks and then the matrix go back to their base types (mpiaij and seqaij, or mpiaijcusparse
   and seqaijcusparse: the blocks' base is the sequential form of the matrix's), and the base converts the rest of
   the way, with its own converters. */
static PetscErrorCode MatConvert_MPIAIJTuned_Any(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat              blocks[2];
  const PetscInt  *garray;
  PetscBool        done;
  Mat_MPIAIJTuned *ctx;
  char             block_type[64];

  PetscFunctionBegin;
  PetscCall(MatAIJTunedConvertTarget(A, reuse, newmat, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(GetContext(*newmat, &ctx));
  PetscCheck(!strncmp(ctx->base.type, "mpi", 3), PETSC_COMM_SELF, PETSC_ERR_PLIB, "aijtuned: base type %s is not an MPI type", ctx->base.type);
  PetscCall(PetscSNPrintf(block_type, sizeof(block_type), "seq%s", ctx->base.type + 3)); /* "mpi..." */
  PetscCall(MatMPIAIJGetSeqAIJ(*newmat, &blocks[0], &blocks[1], &garray));
  for (int b = 0; b < 2; b++)
    if (blocks[b]) PetscCall(MatConvert(blocks[b], block_type, MAT_INPLACE_MATRIX, &blocks[b]));
  PetscCall(Unconvert(*newmat));
  PetscCall(MatConvert(*newmat, type, MAT_INPLACE_MATRIX, newmat));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatConvert_MPIAIJ_MPIAIJTuned(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat              B;
  Mat_MPIAIJTuned *ctx;
  PetscBool        done;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedCheckScalar(A));
  PetscCall(MatAIJTunedConvertTarget(A, reuse, newmat, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  B = *newmat;
  PetscCall(MatAIJTunedGPUBase(&B));
  PetscCall(PetscNew(&ctx));
  MatAIJTunedSettingsDefault(&ctx->settings);
  PetscCall(MatAIJTunedBaseRecord(B, &ctx->base));
  PetscCall(PetscObjectQueryFunction((PetscObject)B, "MatMPIAIJSetPreallocation_C", &ctx->base_preallocation));
  PetscCheck(ctx->base_preallocation, PetscObjectComm((PetscObject)B), PETSC_ERR_PLIB, "The base type has no MatMPIAIJSetPreallocation()");
  PetscCall(MatAIJTunedContextAttach(B, CONTEXT_NAME, &ctx->base, ctx, FreeContext));
  PetscCall(HookOps(B, ctx));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatMPIAIJSetPreallocation_C", MatMPIAIJSetPreallocation_MPIAIJTuned));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, CONVERTERS[0], MatConvert_MPIAIJTuned_Any));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, CONVERTERS[1], MatConvert_MPIAIJ_MPIAIJTuned));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, CONVERTERS[2], MatConvert_MPIAIJ_MPIAIJTuned));
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, MATMPIAIJTUNED));
  if (B->preallocated) PetscCall(TuneBlocks(B, ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatCreate_MPIAIJTuned(Mat B)
{
  PetscFunctionBegin;
  PetscCall(MatAIJTunedCheckNotMatrixFree(B));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatCreate_MPIAIJCUSPARSE(B));
#else
  PetscCall(MatCreate_MPIAIJ(B));
#endif
  PetscCall(MatConvert_MPIAIJ_MPIAIJTuned(B, MATMPIAIJTUNED, MAT_INPLACE_MATRIX, &B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
