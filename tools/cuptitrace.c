/*
   A CUDA injection library that writes a timeline of what ran on the GPU and which runtime calls the host
   made: the machines here have no Nsight Systems.  Offline tool, not part of aijtuned.

     make BUILD=build-cuda cuptitrace        (needs CUDA's CUPTI; build-cuda/tools/libcuptitrace.so)
     CUDA_INJECTION64_PATH=$PWD/build-cuda/tools/libcuptitrace.so AIJT_TRACE=/tmp/trace program ...
     python3 tools/trace_products.py /tmp/trace.*.txt

   One file per process, AIJT_TRACE.<rank>.txt (the rank from OpenMPI's or MPICH's environment, else the
   process id), a line per record, times in ns on CUPTI's clock (the same clock for every process of a host):
     K start end stream corr name        a kernel
     C start end stream corr bytes kind  a copy (kind: CUPTI's copy kind; 10 = peer to peer)
     A start end thread corr name        a CUDA runtime call on the host (corr: that of what it queued)
   Records are collected in buffers and written when a buffer fills and at exit.  AIJT_TRACE_NO_API=1 leaves
   out the runtime calls, whose recording slows the host a little.
*/
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUFFER_BYTES (8u << 20)

static FILE *out;

static void CUPTIAPI BufferRequested(uint8_t **buffer, size_t *size, size_t *max_records)
{
  *buffer      = (uint8_t *)aligned_alloc(8, BUFFER_BYTES);
  *size        = *buffer ? BUFFER_BYTES : 0;
  *max_records = 0;
}

static void Write(const CUpti_Activity *r)
{
  switch (r->kind) {
  case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
    const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)r;
    fprintf(out, "K %llu %llu %u %u %s\n", (unsigned long long)k->start, (unsigned long long)k->end, k->streamId, k->correlationId, k->name);
  } break;
  case CUPTI_ACTIVITY_KIND_MEMCPY: {
    const CUpti_ActivityMemcpy6 *c = (const CUpti_ActivityMemcpy6 *)r;
    fprintf(out, "C %llu %llu %u %u %llu %u\n", (unsigned long long)c->start, (unsigned long long)c->end, c->streamId, c->correlationId, (unsigned long long)c->bytes, (unsigned)c->copyKind);
  } break;
  case CUPTI_ACTIVITY_KIND_MEMCPY2: {
    const CUpti_ActivityMemcpyPtoP4 *c = (const CUpti_ActivityMemcpyPtoP4 *)r;
    fprintf(out, "C %llu %llu %u %u %llu 10\n", (unsigned long long)c->start, (unsigned long long)c->end, c->streamId, c->correlationId, (unsigned long long)c->bytes);
  } break;
  case CUPTI_ACTIVITY_KIND_RUNTIME: {
    const CUpti_ActivityAPI *a    = (const CUpti_ActivityAPI *)r;
    const char              *name = NULL;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid, &name) != CUPTI_SUCCESS || !name) name = "?";
    fprintf(out, "A %llu %llu %u %u %s\n", (unsigned long long)a->start, (unsigned long long)a->end, a->threadId, a->correlationId, name);
  } break;
  default:
    break;
  }
}

static void CUPTIAPI BufferCompleted(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
  CUpti_Activity *r = NULL;

  (void)ctx, (void)stream, (void)size;
  while (out && cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) Write(r);
  free(buffer);
}

static void Finish(void)
{
  cuptiActivityFlushAll(1);
  if (out) fclose(out);
  out = NULL;
}

/* CUDA calls this when it loads the library named by CUDA_INJECTION64_PATH. */
int InitializeInjection(void)
{
  const char *base = getenv("AIJT_TRACE"), *rank = getenv("OMPI_COMM_WORLD_RANK");
  char        path[4096];

  if (!rank) rank = getenv("PMI_RANK");
  if (!base) base = "cuptitrace";
  if (rank) snprintf(path, sizeof(path), "%s.%s.txt", base, rank);
  else snprintf(path, sizeof(path), "%s.%d.txt", base, (int)getpid());
  if (!(out = fopen(path, "w"))) return 0;
  if (cuptiActivityRegisterCallbacks(BufferRequested, BufferCompleted) != CUPTI_SUCCESS) return 0;
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY2);
  if (!getenv("AIJT_TRACE_NO_API")) cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME); /* the host calls cost a little each */
  atexit(Finish);
  return 1;
}
