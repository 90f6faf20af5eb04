/*
   The ghost exchange on the device (ghosts.h): pack in the product's stream, copy to pinned host memory
   and back on a second stream while the diagonal block runs, MPI from and into the pinned buffers.
   Everything is allocated on the first product; later products allocate nothing.

   Order, with S the product's stream and T the second one:
     Begin: S: pack (x -> device send buffer), record 'ready'.   [the caller then queues the diagonal block on S]
            T: wait for 'ready', copy the send buffer to pinned host memory, record 'packed'.
     End:   host waits for 'packed' (the pack and its copy, not the diagonal block);
            MPI receives into the pinned receive buffer and sends the pinned send buffer;
            T: copy the receive buffer into the ghost vector, record 'arrived'; S waits for 'arrived'.
   The copies use the copy engines, so the diagonal block waits only for the small packing kernel (an
   earlier version packed straight into mapped host memory: the kernel then ran at the bus's speed,
   ahead of the diagonal block).  Reuse is safe because T's work is ordered after S's up to 'ready', which
   comes after the previous product's off-diagonal block (the last reader of the ghost vector), and the
   host's wait for 'packed' comes after the previous copy out of the receive buffer on T.
*/
#include "ghostscuda.h"

/* Collective when the peer path is on (AIJTunedGhostsPeerFree). */
PetscErrorCode AIJTunedGhostsCUDAFree(AIJTunedGhosts *g)
{
  AIJTunedGhostsCUDA c = g->cuda;

  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  if (c->side) PetscCallCUDA(cudaStreamSynchronize(c->side));
  PetscCall(AIJTunedGhostsPeerFree(g));
  if (c->send_rows) PetscCallCUDA(cudaFree(c->send_rows));
  if (c->send_dev) PetscCallCUDA(cudaFree(c->send_dev));
  if (c->send_buf) PetscCallCUDA(cudaFreeHost(c->send_buf));
  if (c->recv_buf) PetscCallCUDA(cudaFreeHost(c->recv_buf));
  if (c->side) PetscCallCUDA(cudaStreamDestroy(c->side));
  if (c->ready) PetscCallCUDA(cudaEventDestroy(c->ready));
  if (c->packed) PetscCallCUDA(cudaEventDestroy(c->packed));
  if (c->arrived) PetscCallCUDA(cudaEventDestroy(c->arrived));
  PetscCall(VecDestroy(&c->lvec));
  PetscCall(PetscFree(g->cuda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The buffers, the ghost vector, the second stream and its events; staged: the pinned host buffers too. */
PetscErrorCode AIJTunedGhostsCUDACreate(AIJTunedGhosts *g, PetscBool staged)
{
  AIJTunedGhostsCUDA c;
  size_t             nsend = (size_t)g->to_start[g->nto];

  PetscFunctionBegin;
  PetscCall(PetscNew(&g->cuda));
  c = g->cuda;
  if (nsend) {
    PetscCallCUDA(cudaMalloc((void **)&c->send_rows, nsend * sizeof(aijt_int)));
    PetscCallCUDA(cudaMemcpy(c->send_rows, g->send_rows, nsend * sizeof(aijt_int), cudaMemcpyHostToDevice));
    PetscCall(PetscLogCpuToGpu((PetscLogDouble)(nsend * sizeof(aijt_int))));
    PetscCallCUDA(cudaMalloc((void **)&c->send_dev, nsend * sizeof(double)));
    if (staged) PetscCallCUDA(cudaHostAlloc((void **)&c->send_buf, nsend * sizeof(double), cudaHostAllocDefault));
  }
  if (g->nghost && staged) PetscCallCUDA(cudaHostAlloc((void **)&c->recv_buf, (size_t)g->nghost * sizeof(double), cudaHostAllocDefault));
  PetscCall(VecCreateSeqCUDA(PETSC_COMM_SELF, g->nghost, &c->lvec));
  { /* its device array now, allocated in PETSc's stream, before the second stream ever writes it */
    PetscScalar *l;
    cudaStream_t stream;
    PetscCall(VecCUDAGetArrayWrite(c->lvec, &l));
    PetscCall(VecCUDARestoreArrayWrite(c->lvec, &l));
    PetscCall(PetscGetCurrentCUDAStream(&stream));
    PetscCallCUDA(cudaStreamSynchronize(stream));
  }
  { /* the highest priority: its pack kernel and copies must not wait for the diagonal block's blocks to
       drain, or the neighbours' off-diagonal blocks wait for them (back-to-back products on 4 H200s: 61 ->
       79 us with the peer pack moved here at the default priority, bench/results/2026-11-21-h200x4-scaling-v8) */
    int least, greatest;
    PetscCallCUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    PetscCallCUDA(cudaStreamCreateWithPriority(&c->side, cudaStreamNonBlocking, greatest));
  }
  PetscCallCUDA(cudaEventCreateWithFlags(&c->ready, cudaEventDisableTiming));
  PetscCallCUDA(cudaEventCreateWithFlags(&c->packed, cudaEventDisableTiming));
  PetscCallCUDA(cudaEventCreateWithFlags(&c->arrived, cudaEventDisableTiming));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AIJTunedGhostsBeginCUDA(AIJTunedGhosts *g, Vec x)
{
  AIJTunedGhostsCUDA c;
  cudaStream_t       stream;
  aijt_int           nsend = (aijt_int)g->to_start[g->nto];

  PetscFunctionBegin;
  if (!g->cuda) PetscCall(AIJTunedGhostsCUDACreate(g, PETSC_TRUE));
  c = g->cuda;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (nsend) {
    const PetscScalar *xa;
    PetscCall(VecCUDAGetArrayRead(x, &xa));
    PetscCallCUDA(aijt_cuda_gather(nsend, c->send_rows, (const double *)xa, c->send_dev, stream));
    PetscCall(VecCUDARestoreArrayRead(x, &xa));
  }
  PetscCallCUDA(cudaEventRecord(c->ready, stream));
  PetscCallCUDA(cudaStreamWaitEvent(c->side, c->ready, 0));
  if (nsend) {
    PetscCallCUDA(cudaMemcpyAsync(c->send_buf, c->send_dev, (size_t)nsend * sizeof(double), cudaMemcpyDeviceToHost, c->side));
    PetscCall(PetscLogGpuToCpu((PetscLogDouble)nsend * sizeof(double)));
  }
  PetscCallCUDA(cudaEventRecord(c->packed, c->side));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode AIJTunedGhostsEndCUDA(AIJTunedGhosts *g, Vec *lvec)
{
  AIJTunedGhostsCUDA c = g->cuda;
  cudaStream_t       stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  PetscCallCUDA(cudaEventSynchronize(c->packed)); /* host-staged MPI sends from host memory */
  PetscCall(AIJTunedGhostsPost(g, c->recv_buf, c->send_buf));
  PetscCallMPI(MPI_Waitall(g->nfrom + g->nto, g->req, MPI_STATUSES_IGNORE));
  if (g->nghost) {
    PetscScalar *l;
    PetscCall(VecCUDAGetArrayWrite(c->lvec, &l));
    PetscCallCUDA(cudaMemcpyAsync(l, c->recv_buf, (size_t)g->nghost * sizeof(double), cudaMemcpyHostToDevice, c->side));
    PetscCallCUDA(cudaEventRecord(c->arrived, c->side));
    PetscCallCUDA(cudaStreamWaitEvent(stream, c->arrived, 0));
    PetscCall(VecCUDARestoreArrayWrite(c->lvec, &l));
    PetscCall(PetscLogCpuToGpu((PetscLogDouble)g->nghost * sizeof(double)));
  }
  *lvec = c->lvec;
  PetscFunctionReturn(PETSC_SUCCESS);
}
