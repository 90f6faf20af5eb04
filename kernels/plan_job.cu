/*
   The GPU planner (plan_gpu.cu) in a host thread of its own, so that its caller does other work meanwhile.  The planner's passes are short kernels, each waited for: on matrices of more than 1M
   entries its launches and waits alone took 130-260 us on an H100, more than 5 products
   (bench/results/2026-11-27-plan-timeline).  seqaijtuned uploads the matrix's values beside it, which it
   would otherwise do at the first product: the planner then costs what it outlasts that copy.

   The thread reads only what aijt_dev_plan_job_begin was given (copies of the CSR's descriptors and of the rules;
   the model, which the caller leaves alone until aijt_dev_plan_job_end; the structure's arrays, which the caller
   does not change until then) and the set-up passes' stage (stage.cu: a mutex).  Its first pass waits for the event
   'after' where one is given (the caller's stream up to the structure's last writes), not the host.  Its stream is the device's side stream (stage.cu), non-blocking, so that work on the
   legacy default stream does not wait for it, and it is waited for before the thread ends: the order and column
   order the planner leaves on the device are complete when aijt_dev_plan_job_end returns, for any stream to read.
   The caller's copies beside it must not hold the CUDA calls of other threads: a pageable cudaMemcpyAsync did
   (copy_in.cu).
*/
#include "aijtkernels.h"

#include <pthread.h>
#include <stdlib.h>

struct aijt_dev_plan_job {
  pthread_t         thread;
  int               device; /* the caller's: a new thread starts on device 0 */
  aijt_csr          A;
  aijt_dev_csr      D;
  aijt_rules        R; /* a copy: the caller may read its settings again meanwhile */
  cudaEvent_t       after; /* NULL, or what the side stream waits for first (made by the caller, destroyed here) */
  const aijt_model *m;
  aijt_plan        *plan; /* the results, as aijt_dev_plan_model_keep's */
  aijt_int         *order, *col_pos;
  aijt_err          err;
  cudaError_t       cerr;
};

static void *plan_job_run(void *arg)
{
  aijt_dev_plan_job *j = (aijt_dev_plan_job *)arg;
  cudaStream_t       stream;

  j->err = AIJT_ERR_DEVICE;
  if ((j->cerr = cudaSetDevice(j->device)) != cudaSuccess) return NULL;
  if (!(stream = aijt_dev_side_stream())) {
    j->cerr = cudaErrorMemoryAllocation;
    return NULL;
  }
  if (j->after && (j->cerr = cudaStreamWaitEvent(stream, j->after, 0)) != cudaSuccess) return NULL;
  j->err                = aijt_dev_plan_model_keep(&j->A, &j->D, &j->R, j->m, stream, &j->plan, &j->order, &j->col_pos, &j->cerr);
  const cudaError_t end = cudaStreamSynchronize(stream);
  if (!j->err && end != cudaSuccess) {
    j->err  = AIJT_ERR_DEVICE;
    j->cerr = end;
  }
  return NULL;
}

extern "C" cudaError_t aijt_dev_plan_job_begin(const aijt_csr *A, const aijt_dev_csr *D, const aijt_rules *R, const aijt_model *m, cudaEvent_t after, aijt_dev_plan_job **job)
{
  aijt_dev_plan_job *j = (aijt_dev_plan_job *)calloc(1, sizeof(*j));
  cudaError_t        err;

  *job = NULL;
  if (!j) return cudaSuccess; /* no thread: the caller plans */
  if ((err = cudaGetDevice(&j->device)) != cudaSuccess) {
    free(j);
    return err;
  }
  j->A     = *A;
  j->D     = *D;
  j->R     = *R;
  j->m     = m;
  j->after = after;
  if (pthread_create(&j->thread, NULL, plan_job_run, j)) {
    free(j);
    return cudaSuccess; /* the caller destroys 'after' */
  }
  *job = j;
  return cudaSuccess;
}

extern "C" aijt_err aijt_dev_plan_job_end(aijt_dev_plan_job *j, aijt_plan **plan, aijt_int **order, aijt_int **col_pos, cudaError_t *cerr)
{
  aijt_err err;

  (void)pthread_join(j->thread, NULL);
  if (j->after) (void)cudaEventDestroy(j->after); /* waited for on the side stream, if at all, before the thread ended */
  *plan    = j->plan;
  *order   = j->order;
  *col_pos = j->col_pos;
  *cerr    = j->cerr;
  err      = j->err;
  free(j);
  return err;
}
