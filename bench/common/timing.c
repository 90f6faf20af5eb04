#include "timing.h"
#include "hold.h"
#include "wallclock.h"
#include <petscdevice_cuda.h>

struct _n_BenchTimer {
  PetscInt     capacity; /* event pairs */
  PetscBool    held;     /* the device alone: calls queued behind a held stream (BenchTimerSetHeld) */
  PetscReal    host_us;  /* the last BenchTimeOp's host time per call, while it queued them */
  cudaEvent_t *events;   /* 2 * capacity: start and stop of each call */
  float       *ms;
};

PetscErrorCode BenchTimerCreate(PetscInt reps, BenchTimer *t)
{
  PetscFunctionBegin;
  PetscCheck(reps >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need at least one timed call, not %" PetscInt_FMT, reps);
  PetscCall(PetscNew(t));
  (*t)->capacity = reps;
  PetscCall(PetscMalloc2(2 * reps, &(*t)->events, reps, &(*t)->ms));
  for (PetscInt i = 0; i < 2 * reps; i++) PetscCallCUDA(cudaEventCreate(&(*t)->events[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchTimerDestroy(BenchTimer *t)
{
  PetscFunctionBegin;
  if (!*t) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < 2 * (*t)->capacity; i++) PetscCallCUDA(cudaEventDestroy((*t)->events[i]));
  PetscCall(PetscFree2((*t)->events, (*t)->ms));
  PetscCall(PetscFree(*t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareFloat(const void *a, const void *b)
{
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

PetscErrorCode BenchTimerSetHeld(BenchTimer t, PetscBool held)
{
  PetscFunctionBegin;
  t->held = held;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Median time of one call in microseconds.  Each call sits between its own pair of events, so a host
  that launches more slowly than the device runs shows up in the time (as it does in a solver), while
  the calls still go back to back with no host synchronization between them.  A held timer queues the
  calls behind a held stream, at most AIJT_HOLD_MAX_LAUNCHES at a time, and times the device alone
  (kernels/hold.h): ops that launch a few kernels each, and never wait for the device.
*/
PetscErrorCode BenchTimeOp(BenchTimer t, BenchOp op, void *ctx, PetscInt warmup, PetscInt reps, PetscReal *median_us)
{
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCheck(reps >= 1 && reps <= t->capacity, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Timed calls %" PetscInt_FMT " outside [1, %" PetscInt_FMT "]", reps, t->capacity);
  for (PetscInt i = 0; i < warmup; i++) PetscCall((*op)(ctx));
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  t->host_us = 0;
  for (PetscInt i0 = 0; i0 < reps;) {
    const PetscInt i1 = t->held ? PetscMin(reps, i0 + AIJT_HOLD_MAX_LAUNCHES / 2) : reps; /* COO's tail: two launches */
    PetscLogDouble h0, h1;

    if (t->held) PetscCallCUDA(aijt_dev_hold(stream));
    PetscCall(PetscTime(&h0));
    for (PetscInt i = i0; i < i1; i++) {
      PetscCallCUDA(cudaEventRecord(t->events[2 * i], stream));
      PetscCall((*op)(ctx));
      PetscCallCUDA(cudaEventRecord(t->events[2 * i + 1], stream));
    }
    PetscCall(PetscTime(&h1));
    t->host_us += 1e6 * (h1 - h0);
    if (t->held) aijt_dev_release();
    PetscCallCUDA(cudaEventSynchronize(t->events[2 * i1 - 1]));
    PetscCheck(!t->held || !aijt_dev_hold_timed_out(), PETSC_COMM_SELF, PETSC_ERR_LIB, "The held stream gave up waiting for the host: these times would be the host's launch rate");
    i0 = i1;
  }
  for (PetscInt i = 0; i < reps; i++) PetscCallCUDA(cudaEventElapsedTime(&t->ms[i], t->events[2 * i], t->events[2 * i + 1]));
  t->host_us /= (PetscReal)reps;
  qsort(t->ms, (size_t)reps, sizeof(float), CompareFloat);
  *median_us = 1e3 * (reps % 2 ? (PetscReal)t->ms[reps / 2] : 0.5 * ((PetscReal)t->ms[reps / 2 - 1] + (PetscReal)t->ms[reps / 2]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Median time of one call made after the device was left idle idle_ms milliseconds, as an application's
  first call after its assembly on the host: the first kernel after such an idle runs slower than the
  same kernel back to back (bench/results/2026-11-25-plan-idle: a read of 106 MB, 28 us back to back,
  62 us after 200 ms idle, 28 us again from the second).  reps calls, each after its own idle; the host
  sleeps meanwhile.
*/
PetscErrorCode BenchTimeOpAfterIdle(BenchTimer t, BenchOp op, void *ctx, PetscInt idle_ms, PetscInt reps, PetscReal *median_us)
{
  double *us;

  PetscFunctionBegin;
  PetscCheck(idle_ms >= 0 && reps >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need idle_ms >= 0 and reps >= 1");
  PetscCall(PetscMalloc1(reps, &us));
  for (PetscInt i = 0; i < reps; i++) {
    PetscReal one;
    wall_sleep_ms((long)idle_ms);
    PetscCall(BenchTimeOp(t, op, ctx, 0, 1, &one));
    us[i] = (double)one;
  }
  *median_us = (PetscReal)median_of(us, (int)reps);
  PetscCall(PetscFree(us));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The host's time per call of the last BenchTimeOp, while it queued them (the events' records included).
   Held, the device never pushes back, so it is the host's cost of a call; otherwise a device slower than
   the host makes the host wait once the launch queue is full. */
PetscErrorCode BenchTimerHostUs(BenchTimer t, PetscReal *us)
{
  PetscFunctionBegin;
  *us = t->host_us;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Host time once the device is idle: setup phases (build, first call) are timed between two of these. */
PetscErrorCode BenchWallTime(PetscLogDouble *t)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  void        *dst, *src;
  size_t       bytes;
  cudaStream_t stream;
} CopyCtx;

static PetscErrorCode CopyOp(void *ctx)
{
  CopyCtx *c = (CopyCtx *)ctx;

  PetscFunctionBegin;
  PetscCallCUDA(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, c->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Median time of one device-to-device copy of bytes, timed as BenchTimeOp times a product: what moving
  that much data once costs at that size, launch included, where a large copy's bandwidth
  (BenchCopyBandwidth) is out of reach of any single call.
*/
PetscErrorCode BenchCopyTime(BenchTimer t, size_t bytes, PetscInt warmup, PetscInt reps, PetscReal *us)
{
  CopyCtx c;

  PetscFunctionBegin;
  c.bytes = bytes ? bytes : 1;
  PetscCall(PetscGetCurrentCUDAStream(&c.stream));
  PetscCallCUDA(cudaMalloc(&c.src, c.bytes));
  PetscCallCUDA(cudaMalloc(&c.dst, c.bytes));
  PetscCallCUDA(cudaMemsetAsync(c.src, 1, c.bytes, c.stream)); /* touch both buffers before timing */
  PetscCallCUDA(cudaMemsetAsync(c.dst, 0, c.bytes, c.stream));
  PetscCall(BenchTimeOp(t, CopyOp, &c, warmup, reps, us));
  PetscCallCUDA(cudaFree(c.src));
  PetscCallCUDA(cudaFree(c.dst));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Device-to-device copy bandwidth, read plus write (2 x bytes / time), median of reps copies after two
  untimed ones: the practical ceiling for a kernel that streams its data once, measured on the same
  device in the same run.
*/
PetscErrorCode BenchCopyBandwidth(size_t bytes, PetscInt reps, PetscReal *gbs)
{
  BenchTimer t;
  PetscReal  us;

  PetscFunctionBegin;
  PetscCheck(reps >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need at least one copy");
  PetscCall(BenchTimerCreate(reps, &t));
  PetscCall(BenchCopyTime(t, bytes, 2, reps, &us));
  PetscCall(BenchTimerDestroy(&t));
  *gbs = 2.0 * (PetscReal)bytes / us / 1e3;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchDeviceMemory(size_t *free_bytes, size_t *total_bytes)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaMemGetInfo(free_bytes, total_bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchDeviceDescribe(char text[], size_t len)
{
  struct cudaDeviceProp prop;
  int                   dev, runtime, driver;

  PetscFunctionBegin;
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaGetDeviceProperties(&prop, dev));
  PetscCallCUDA(cudaRuntimeGetVersion(&runtime));
  PetscCallCUDA(cudaDriverGetVersion(&driver));
  PetscCall(PetscSNPrintf(text, len, "%s (sm_%d%d, %d SMs, %.1f GiB, %d-bit memory bus, %.0f MiB L2), CUDA runtime %d.%d, driver %d.%d", prop.name, prop.major, prop.minor, prop.multiProcessorCount, (double)prop.totalGlobalMem / 1073741824.0, prop.memoryBusWidth,
                          (double)prop.l2CacheSize / 1048576.0, runtime / 1000, (runtime % 1000) / 10, driver / 1000, (driver % 1000) / 10));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  sellcuda launches its kernels on the legacy default stream.  PETSc's default device context uses
  that stream too, so events on PETSc's stream time every format alike; with another stream type
  (-root_device_context_stream_type) sellcuda's kernels would escape the events: say so in the output.
*/
PetscErrorCode BenchCheckStream(void)
{
  cudaStream_t stream;

  PetscFunctionBegin;
  PetscCall(PetscGetCurrentCUDAStream(&stream));
  if (stream) PetscCall(PetscPrintf(PETSC_COMM_SELF, "WARNING: PETSc's current CUDA stream is not the default stream; sellcuda's kernels run on the default stream, so its times are not to be trusted\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchMatMultOp(void *ctx)
{
  BenchMatMultCtx *c = (BenchMatMultCtx *)ctx;

  PetscFunctionBegin;
  PetscCall(MatMult(c->A, c->x, c->y));
  PetscFunctionReturn(PETSC_SUCCESS);
}
