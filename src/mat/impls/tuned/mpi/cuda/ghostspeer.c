/*
   The ghost exchange's peer path (ghosts.h): every rank on one node, each rank's GPU able to read its
   neighbours' (NVLink or PCIe peer access, or the same GPU).  No value goes through host memory and the
   host never waits for the GPU; MPI carries only empty notes, which order the host calls on both sides.

   Product k, with S the product's stream and T the second one:
     Ready: S: record 'ready' (x is there; the previous off-diagonal block, the last reader of the ghost
               vector, is done).   [the caller then queues the diagonal block on S]
     Begin: T: wait for 'ready' and for each receiver's 'read' of product k-1 (its note says it has been
               recorded), so the send buffer is free; pack x into the send buffer; record 'packed'
               (interprocess).  The pack kernel runs beside the diagonal block: on S it came before it,
               about 3 us of each product on 4 H200s (bench/results/2026-11-21-h200x4-scaling-v7); queued
               before it, its calls delayed the block's launch (-h200x4-trace, -h200x4-local-first).
            note 'packed' to each receiver.
            (Host vectors: no Ready; Begin packs on the host, copies up and records 'ready' on S, and the
            caller queues the diagonal block after it.)
     End:   T: wait for 'ready' (a no-op after the pack on T);
               for each sender, once its note is in: wait for its 'packed', copy its values from its GPU
               into the ghost vector; record 'read' (interprocess) and 'arrived'.  S waits for 'arrived'.
               (The product in parts, mpi/cuda/multparts.c, queues the readers of the ghosts on T first:
               End without joining, the readers, then Join records 'arrived' and S waits.)
            note 'read' to each sender.
   A note is sent after the event it announces is recorded and the event is waited for after the note
   arrives, so each wait sees the record of the same product.  Destroying is collective: every rank
   finishes its copies and closes what it opened before any rank frees what the others read.
*/
#include <stdlib.h>
#include <string.h>
#include "ghostscuda.h"

/* What a sender tells each receiver, and a receiver each sender, at set-up. */
typedef struct {
  cudaIpcMemHandle_t   buffer; /* the sender's send buffer */
  cudaIpcEventHandle_t packed;
  PetscInt             offset; /* where this receiver's values start in it */
} SenderNote;

typedef struct {
  cudaIpcEventHandle_t read;
} ReceiverNote;

/* Whether every rank can take the peer path: its vectors on the device, every rank on this node, and
   each neighbour on this GPU or one that this GPU can reach.  Collective. */
static PetscErrorCode CanPeer(AIJTunedGhosts *g, PetscBool device, PetscBool *all)
{
  MPI_Comm    node;
  PetscMPIInt size, node_size;
  int         ok = device, dev = -1, count = 0, *devs;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(g->comm, &size));
  PetscCallMPI(MPI_Comm_split_type(g->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_size(node, &node_size));
  PetscCallMPI(MPI_Comm_free(&node));
  if (node_size != size) ok = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) { /* a CUDA build on a machine without a GPU */
    (void)cudaGetLastError();
    count = 0;
  }
  if (count) {
    PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA)); /* the GPU PETSc chose for this rank */
    PetscCallCUDA(cudaGetDevice(&dev));
  } else ok = 0;
  PetscCall(PetscMalloc1(size, &devs));
  PetscCallMPI(MPI_Allgather(&dev, 1, MPI_INT, devs, 1, MPI_INT, g->comm));
  for (PetscMPIInt k = 0; k < g->nfrom + g->nto && ok; k++) {
    int peer = devs[k < g->nfrom ? g->from[k] : g->to[k - g->nfrom]], can = 1;
    if (peer < 0) can = 0;
    else if (peer != dev) PetscCallCUDA(cudaDeviceCanAccessPeer(&can, dev, peer));
    if (!can) ok = 0;
  }
  PetscCall(PetscFree(devs));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, g->comm));
  *all = ok ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Trade the handles with the neighbours and open theirs; *opened says whether every one opened here. */
static PetscErrorCode OpenNeighbours(AIJTunedGhosts *g, PetscBool *opened)
{
  AIJTunedGhostsCUDA c = g->cuda;
  AIJTunedGhostsPeer *P = c->peer;
  SenderNote        *sent, *got;
  ReceiverNote       mine, *theirs;
  MPI_Request       *req;
  PetscMPIInt        nreq = 0;

  PetscFunctionBegin;
  *opened = PETSC_TRUE;
  PetscCall(PetscMalloc4(g->nto, &sent, g->nfrom, &got, g->nto, &theirs, 2 * (g->nfrom + g->nto), &req));
  PetscCallCUDA(cudaIpcGetEventHandle(&mine.read, P->read));
  if (g->nto) { /* a rank that sends has a send buffer */
    PetscCallCUDA(cudaIpcGetMemHandle(&sent[0].buffer, c->send_dev));
    PetscCallCUDA(cudaIpcGetEventHandle(&sent[0].packed, P->packed));
  }
  for (PetscMPIInt i = 0; i < g->nto; i++) {
    sent[i]        = sent[0];
    sent[i].offset = g->to_start[i];
  }
  for (PetscMPIInt j = 0; j < g->nfrom; j++) PetscCallMPI(MPI_Irecv(&got[j], sizeof(SenderNote), MPI_BYTE, g->from[j], g->tag, g->comm, &req[nreq++]));
  for (PetscMPIInt i = 0; i < g->nto; i++) PetscCallMPI(MPI_Irecv(&theirs[i], sizeof(ReceiverNote), MPI_BYTE, g->to[i], g->tag_read, g->comm, &req[nreq++]));
  for (PetscMPIInt i = 0; i < g->nto; i++) PetscCallMPI(MPI_Isend(&sent[i], sizeof(SenderNote), MPI_BYTE, g->to[i], g->tag, g->comm, &req[nreq++]));
  for (PetscMPIInt j = 0; j < g->nfrom; j++) PetscCallMPI(MPI_Isend(&mine, sizeof(ReceiverNote), MPI_BYTE, g->from[j], g->tag_read, g->comm, &req[nreq++]));
  PetscCallMPI(MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE));
  /* a handle that does not open (a container without IPC, GPUs hidden from each other) is not an error: the exchange then stages through the host */
  for (PetscMPIInt j = 0; j < g->nfrom && *opened; j++) {
    if (cudaIpcOpenMemHandle(&P->from_base[j], got[j].buffer, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) P->from_base[j] = NULL;
    else if (cudaIpcOpenEventHandle(&P->from_packed[j], got[j].packed) != cudaSuccess) P->from_packed[j] = NULL;
    if (!P->from_base[j] || !P->from_packed[j]) *opened = PETSC_FALSE;
    else P->from_src[j] = (const double *)P->from_base[j] + got[j].offset;
  }
  for (PetscMPIInt i = 0; i < g->nto && *opened; i++)
    if (cudaIpcOpenEventHandle(&P->to_read[i], theirs[i].read) != cudaSuccess) {
      P->to_read[i] = NULL;
      *opened       = PETSC_FALSE;
    }
  if (!*opened) (void)cudaGetLastError();
  PetscCall(PetscFree4(sent, got, theirs, req));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Choose the peer path for every rank or for none.  Collective. */
PetscErrorCode AIJTunedGhostsPeerSetUp(Mat A, AIJTunedGhosts *g, PetscBool device)
{
  AIJTunedGhostsPeer *P;
  PetscBool           can = PETSC_FALSE, opened;
  int                 ok;

  PetscFunctionBegin;
  PetscCall(CanPeer(g, device, &can));
  if (!can) {
    PetscCall(PetscInfo(A, "Ghosts staged through host memory: vectors on the host, ranks on several nodes, or GPUs that cannot reach each other\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(AIJTunedGhostsCUDACreate(g, PETSC_FALSE));
  PetscCall(PetscNew(&g->cuda->peer));
  P = g->cuda->peer;
  PetscCallCUDA(cudaEventCreateWithFlags(&P->packed, cudaEventInterprocess | cudaEventDisableTiming));
  PetscCallCUDA(cudaEventCreateWithFlags(&P->read, cudaEventInterprocess | cudaEventDisableTiming));
  PetscCall(PetscCalloc4(g->nfrom, &P->from_src, g->nfrom, &P->from_base, g->nfrom, &P->from_packed, g->nto, &P->to_read));
  PetscCall(PetscMalloc1(2 * (g->nfrom + g->nto), &P->req));
  PetscCall(OpenNeighbours(g, &opened));
  ok = opened;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, g->comm));
  if (!ok) {
    PetscCall(PetscInfo(A, "Ghosts staged through host memory: a rank could not open its neighbours' GPU buffers (CUDA IPC)\n"));
    PetscCall(AIJTunedGhostsCUDAFree(g)); /* the host-staged path makes its own at its first product */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  g->peer = PETSC_TRUE;
  PetscCall(PetscInfo(A, "Ghosts copied between GPUs: each rank reads its neighbours' GPU memory (CUDA IPC)\n"));
  { /* the two streams' waits on each other and on the neighbours' events cost several us a product unless
       CUDA feeds every stream through one queue (bench/results/2026-11-21-h200x4-local-first) */
    const char *connections = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    if (!connections || strcmp(connections, "1")) PetscCall(PetscInfo(A, "CUDA_DEVICE_MAX_CONNECTIONS=1 in the environment may make these products faster (4 H200s, Poisson weak scaling, product in parts: 59-62 -> 58 us per product)\n"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* S waits for what T has queued up to now: the ghosts' copies, and whatever read them after. */
PetscErrorCode AIJTunedGhostsJoinPeer(AIJTunedGhosts *g)
{
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaEventRecord(g->cuda->arrived, g->cuda->side));
  PetscCallCUDA(cudaStreamWaitEvent(stream, g->cuda->arrived, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the caller has finished this rank's copies (its second stream is synchronized). */
PetscErrorCode AIJTunedGhostsPeerFree(AIJTunedGhosts *g)
{
  AIJTunedGhostsPeer *P = g->cuda->peer;

  PetscFunctionBegin;
  if (!P) PetscFunctionReturn(PETSC_SUCCESS);
  if (P->started) PetscCallMPI(MPI_Waitall(g->nto, P->req + g->nfrom + g->nto, MPI_STATUSES_IGNORE)); /* the receivers' last 'read' notes */
  for (PetscMPIInt j = 0; j < g->nfrom; j++) {
    if (P->from_base[j]) PetscCallCUDA(cudaIpcCloseMemHandle(P->from_base[j]));
    if (P->from_packed[j]) PetscCallCUDA(cudaEventDestroy(P->from_packed[j]));
  }
  for (PetscMPIInt i = 0; i < g->nto; i++)
    if (P->to_read[i]) PetscCallCUDA(cudaEventDestroy(P->to_read[i]));
  PetscCallMPI(MPI_Barrier(g->comm)); /* nobody reads this rank's buffer any more */
  PetscCallCUDA(cudaEventDestroy(P->packed));
  PetscCallCUDA(cudaEventDestroy(P->read));
  PetscCall(PetscFree4(P->from_src, P->from_base, P->from_packed, P->to_read));
  PetscCall(PetscFree(P->req));
  PetscCall(PetscFree(g->cuda->peer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A rank given host vectors: its values packed on the host and copied up on S. */
static PetscErrorCode PackOnHost(AIJTunedGhosts *g, Vec x, cudaStream_t stream)
{
  const PetscScalar *xa;
  aijt_int           nsend = (aijt_int)g->to_start[g->nto];

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &xa));
  for (PetscInt j = 0; j < nsend; j++) g->send_host[j] = xa[g->send_rows[j]];
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCallCUDA(cudaMemcpyAsync(g->cuda->send_dev, g->send_host, (size_t)nsend * sizeof(double), cudaMemcpyHostToDevice, stream));
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)nsend * sizeof(double)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device vectors, before the diagonal block is queued: x is there (S's work up to now). */
PetscErrorCode AIJTunedGhostsReadyPeer(AIJTunedGhosts *g)
{
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaEventRecord(g->cuda->ready, stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pack (on the GPU from a CUDA vector, after AIJTunedGhostsReadyPeer; else on the host and copied up) and
   tell the receivers. */
PetscErrorCode AIJTunedGhostsBeginPeer(AIJTunedGhosts *g, Vec x, PetscBool device)
{
  AIJTunedGhostsCUDA  c = g->cuda;
  AIJTunedGhostsPeer *P = c->peer;
  MPI_Request        *packed_in = P->req, *packed_out = packed_in + g->nfrom, *read_in = packed_out + g->nto;
  aijt_int            nsend = (aijt_int)g->to_start[g->nto];
  cudaStream_t        stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (P->started) PetscCallMPI(MPI_Waitall(g->nto, read_in, MPI_STATUSES_IGNORE));
  if (device) { /* the pack kernel on T, beside the diagonal block, once x is there */
    PetscCallCUDA(cudaStreamWaitEvent(c->side, c->ready, 0));
    for (PetscMPIInt i = 0; P->started && i < g->nto; i++) PetscCallCUDA(cudaStreamWaitEvent(c->side, P->to_read[i], 0));
    if (nsend) {
      const PetscScalar *xa;
      PetscCall(VecCUDAGetArrayRead(x, &xa));
      PetscCallCUDA(aijt_cuda_gather(nsend, c->send_rows, (const double *)xa, c->send_dev, c->side));
      PetscCall(VecCUDARestoreArrayRead(x, &xa));
    }
    PetscCallCUDA(cudaEventRecord(P->packed, c->side));
  } else {
    for (PetscMPIInt i = 0; P->started && i < g->nto; i++) PetscCallCUDA(cudaStreamWaitEvent(stream, P->to_read[i], 0));
    if (nsend) PetscCall(PackOnHost(g, x, stream));
    PetscCallCUDA(cudaEventRecord(P->packed, stream));
    PetscCallCUDA(cudaEventRecord(c->ready, stream));
  }
  for (PetscMPIInt j = 0; j < g->nfrom; j++) PetscCallMPI(MPI_Irecv(NULL, 0, MPI_BYTE, g->from[j], g->tag, g->comm, &packed_in[j]));
  for (PetscMPIInt i = 0; i < g->nto; i++) PetscCallMPI(MPI_Isend(NULL, 0, MPI_BYTE, g->to[i], g->tag, g->comm, &packed_out[i]));
  for (PetscMPIInt i = 0; i < g->nto; i++) PetscCallMPI(MPI_Irecv(NULL, 0, MPI_BYTE, g->to[i], g->tag_read, g->comm, &read_in[i]));
  P->started = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copy each sender's values as its note comes in; *lvec holds the ghosts (on the host for host vectors).
   join: S waits for them; else T holds them, for the caller to queue their readers on T and then join
   (AIJTunedGhostsJoinPeer; device vectors only). */
PetscErrorCode AIJTunedGhostsEndPeer(AIJTunedGhosts *g, PetscBool device, PetscBool join, Vec *lvec)
{
  AIJTunedGhostsCUDA  c = g->cuda;
  AIJTunedGhostsPeer *P = c->peer;
  MPI_Request        *packed_in = P->req, *packed_out = packed_in + g->nfrom, *read_out = packed_out + 2 * g->nto;
  PetscScalar        *l;

  PetscFunctionBegin;
  PetscCallCUDA(cudaStreamWaitEvent(c->side, c->ready, 0));
  PetscCall(VecCUDAGetArrayWrite(c->lvec, &l));
  for (PetscMPIInt n = 0; n < g->nfrom; n++) {
    PetscMPIInt j;
    PetscCallMPI(MPI_Waitany(g->nfrom, packed_in, &j, MPI_STATUS_IGNORE));
    PetscCallCUDA(cudaStreamWaitEvent(c->side, P->from_packed[j], 0));
    PetscCallCUDA(cudaMemcpyAsync(l + g->from_start[j], P->from_src[j], (size_t)(g->from_start[j + 1] - g->from_start[j]) * sizeof(double), cudaMemcpyDefault, c->side));
  }
  PetscCallCUDA(cudaEventRecord(P->read, c->side));
  for (PetscMPIInt j = 0; j < g->nfrom; j++) PetscCallMPI(MPI_Isend(NULL, 0, MPI_BYTE, g->from[j], g->tag_read, g->comm, &read_out[j]));
  PetscCheck(join || device, PETSC_COMM_SELF, PETSC_ERR_PLIB, "aijtuned: ghosts for host vectors must join the product's stream");
  if (join) PetscCall(AIJTunedGhostsJoinPeer(g));
  PetscCall(VecCUDARestoreArrayWrite(c->lvec, &l));
  PetscCallMPI(MPI_Waitall(g->nto, packed_out, MPI_STATUSES_IGNORE));
  PetscCallMPI(MPI_Waitall(g->nfrom, read_out, MPI_STATUSES_IGNORE));
  if (device) *lvec = c->lvec;
  else { /* a rank given host vectors: the ghosts to the host */
    const PetscScalar *d;
    PetscScalar       *h;
    if (!g->lvec_host) PetscCall(VecCreateSeq(PETSC_COMM_SELF, g->nghost, &g->lvec_host));
    PetscCall(VecGetArrayRead(c->lvec, &d));
    PetscCall(VecGetArrayWrite(g->lvec_host, &h));
    PetscCall(PetscArraycpy(h, d, g->nghost));
    PetscCall(VecRestoreArrayWrite(g->lvec_host, &h));
    PetscCall(VecRestoreArrayRead(c->lvec, &d));
    *lvec = g->lvec_host;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
