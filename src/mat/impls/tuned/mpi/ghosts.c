/* The ghost exchange's pattern (from MPIAIJ's column map) and its host path; ghosts.h says why. */
#include "ghosts.h"

/* The ranks owning this rank's ghosts, in rank order, and where each one's ghosts start (garray is sorted). */
static PetscErrorCode FindOwners(AIJTunedGhosts *g, const PetscInt garray[], const PetscInt ranges[])
{
  PetscMPIInt p = 0;

  PetscFunctionBegin;
  g->nfrom = 0;
  for (PetscInt k = 0, last = -1; k < g->nghost; k++) {
    while (garray[k] >= ranges[p + 1]) p++;
    if (p != last) g->nfrom++;
    last = p;
  }
  PetscCall(PetscMalloc2(g->nfrom, &g->from, g->nfrom + 1, &g->from_start));
  p = 0;
  for (PetscInt k = 0, i = -1; k < g->nghost; k++) {
    while (garray[k] >= ranges[p + 1]) p++;
    if (i < 0 || g->from[i] != p) {
      g->from[++i]     = p;
      g->from_start[i] = k;
    }
  }
  g->from_start[g->nfrom] = g->nghost;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Each owner learns which of its entries this rank needs: their global indices, turned into its local rows. */
static PetscErrorCode LearnSends(AIJTunedGhosts *g, const PetscInt garray[], PetscInt rstart, PetscInt nlocal)
{
  PetscMPIInt *need, *count = NULL;
  MPI_Request *req;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(g->nfrom, &need));
  for (PetscMPIInt i = 0; i < g->nfrom; i++) PetscCall(PetscMPIIntCast(g->from_start[i + 1] - g->from_start[i], &need[i]));
  PetscCall(PetscCommBuildTwoSided(g->comm, 1, MPI_INT, g->nfrom, g->from, need, &g->nto, &g->to, &count));
  PetscCall(PetscMalloc1(g->nto + 1, &g->to_start));
  g->to_start[0] = 0;
  for (PetscMPIInt i = 0; i < g->nto; i++) g->to_start[i + 1] = g->to_start[i] + count[i];
  PetscCall(PetscMalloc1(g->to_start[g->nto], &g->send_rows));
  PetscCall(PetscMalloc1(g->nfrom + g->nto, &req));
  for (PetscMPIInt i = 0; i < g->nto; i++) PetscCallMPI(MPI_Irecv(g->send_rows + g->to_start[i], count[i], MPIU_INT, g->to[i], g->tag, g->comm, &req[i]));
  for (PetscMPIInt i = 0; i < g->nfrom; i++) PetscCallMPI(MPI_Isend(garray + g->from_start[i], need[i], MPIU_INT, g->from[i], g->tag, g->comm, &req[g->nto + i]));
  PetscCallMPI(MPI_Waitall(g->nfrom + g->nto, req, MPI_STATUSES_IGNORE));
  for (PetscInt j = 0; j < g->to_start[g->nto]; j++) {
    g->send_rows[j] -= rstart;
    PetscCheck(g->send_rows[j] >= 0 && g->send_rows[j] < nlocal, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A rank asked for column %" PetscInt_FMT ", which this rank does not own", g->send_rows[j] + rstart);
  }
  PetscCall(PetscFree(req));
  PetscCall(PetscFree(need));
  PetscCall(PetscFree(count));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pattern for the matrix as assembled now, and the path (peer: try copies between GPUs, which every
   rank's device, its vectors on the GPU, must allow).  Collective. */
PetscErrorCode AIJTunedGhostsSetUp(Mat A, PetscBool peer, PetscBool device, AIJTunedGhosts **gp)
{
  AIJTunedGhosts *g;
  Mat             Ad, Ao;
  const PetscInt *garray, *ranges;
  PetscMPIInt     rank, sorted = 1, all_sorted;

  PetscFunctionBegin;
  PetscCall(AIJTunedGhostsDestroy(gp));
  PetscCall(PetscNew(&g));
  *gp             = g;
  g->nonzerostate = A->nonzerostate;
  g->peer_asked   = peer;
  g->comm         = PetscObjectComm((PetscObject)A);
  PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  g->nghost = Ao->cmap->n;
  for (PetscInt k = 1; k < g->nghost; k++)
    if (garray[k] <= garray[k - 1]) sorted = 0;
  PetscCallMPI(MPI_Allreduce(&sorted, &all_sorted, 1, MPI_INT, MPI_MIN, g->comm));
  if (!all_sorted) {
    PetscCall(PetscInfo(A, "A column map is not sorted: MatMult uses MPIAIJ's scatter\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectGetNewTag((PetscObject)A, &g->tag));
  PetscCall(PetscObjectGetNewTag((PetscObject)A, &g->tag_read));
  PetscCall(PetscLayoutGetRanges(A->cmap, &ranges));
  PetscCallMPI(MPI_Comm_rank(g->comm, &rank));
  PetscCall(FindOwners(g, garray, ranges));
  PetscCall(LearnSends(g, garray, ranges[rank], A->cmap->n));
  PetscCall(PetscMalloc1(g->nfrom + g->nto, &g->req));
  PetscCall(PetscMalloc1(g->to_start[g->nto], &g->send_host));
  g->usable = PETSC_TRUE;
  PetscCall(PetscInfo(A, "Ghost exchange: %" PetscInt_FMT " values from %d ranks, %" PetscInt_FMT " to %d ranks\n", g->nghost, g->nfrom, g->to_start[g->nto], g->nto));
#if defined(PETSC_HAVE_CUDA)
  if (peer) PetscCall(AIJTunedGhostsPeerSetUp(A, g, device));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AIJTunedGhostsDestroy(AIJTunedGhosts **gp)
{
  AIJTunedGhosts *g = *gp;

  PetscFunctionBegin;
  if (!g) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(PETSC_HAVE_CUDA)
  PetscCall(AIJTunedGhostsCUDAFree(g)); /* collective on the peer path */
#endif
  PetscCall(PetscFree2(g->from, g->from_start));
  PetscCall(PetscFree(g->to)); /* PetscCommBuildTwoSided's */
  PetscCall(PetscFree(g->to_start));
  PetscCall(PetscFree(g->send_rows));
  PetscCall(PetscFree(g->req));
  PetscCall(PetscFree(g->send_host));
  PetscCall(VecDestroy(&g->lvec_host));
  PetscCall(PetscFree(*gp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Post the receives (into recv, the ghosts in order) and the sends (from send, packed in send order). */
PetscErrorCode AIJTunedGhostsPost(AIJTunedGhosts *g, PetscScalar *recv, const PetscScalar *send)
{
  PetscFunctionBegin;
  for (PetscMPIInt i = 0; i < g->nfrom; i++) {
    PetscMPIInt n;
    PetscCall(PetscMPIIntCast(g->from_start[i + 1] - g->from_start[i], &n));
    PetscCallMPI(MPI_Irecv(recv + g->from_start[i], n, MPIU_SCALAR, g->from[i], g->tag, g->comm, &g->req[i]));
  }
  for (PetscMPIInt i = 0; i < g->nto; i++) {
    PetscMPIInt n;
    PetscCall(PetscMPIIntCast(g->to_start[i + 1] - g->to_start[i], &n));
    PetscCallMPI(MPI_Isend(send + g->to_start[i], n, MPIU_SCALAR, g->to[i], g->tag, g->comm, &g->req[g->nfrom + i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pack, then post the receives straight into the ghost vector and the sends: before the diagonal block's product. */
PetscErrorCode AIJTunedGhostsBeginHost(AIJTunedGhosts *g, Vec x)
{
  const PetscScalar *xa;

  PetscFunctionBegin;
  if (!g->lvec_host) PetscCall(VecCreateSeq(PETSC_COMM_SELF, g->nghost, &g->lvec_host));
  PetscCall(VecGetArrayRead(x, &xa));
  for (PetscInt j = 0; j < g->to_start[g->nto]; j++) g->send_host[j] = xa[g->send_rows[j]];
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(g->lvec_host, &g->lvec_array)); /* held until End: the receives write into it */
  PetscCall(AIJTunedGhostsPost(g, g->lvec_array, g->send_host));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Wait for the messages: after the diagonal block's product.  *lvec holds the ghosts. */
PetscErrorCode AIJTunedGhostsEndHost(AIJTunedGhosts *g, Vec *lvec)
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Waitall(g->nfrom + g->nto, g->req, MPI_STATUSES_IGNORE));
  PetscCall(VecRestoreArrayWrite(g->lvec_host, &g->lvec_array));
  *lvec = g->lvec_host;
  PetscFunctionReturn(PETSC_SUCCESS);
}
