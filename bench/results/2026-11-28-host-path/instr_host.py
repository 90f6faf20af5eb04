# Times the steps of aijtuned's MatMult on the host, inside PETSc: instr_host.py ROOT (a copy of the tree, edited in
# place).  Each step's time (clock_gettime from one mark to the next) is kept per call; at exit the process prints one
# line per step to stderr, "hostpath STEP median_ns p10_ns p90_ns calls", then the timer's own cost (two marks back
# to back).  Steps: ctx (the context's lookup), update (the plan's state check), usable (the vectors' type check),
# stream, upload (the device copy's check), arrays (the vectors' device arrays), logbegin, gather, tune, spmv (the
# strips' host work and launch: args, launch), logend, restore, flops, return (back out of Multiply); inside spmv:
# sargs (argument checks and the launch block's assembly), slaunch (the kernel launch call), stail.
import sys
root = sys.argv[1]
hdr = root + '/kernels/hostpath_prof.h'
open(hdr, 'w').write(r'''#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef __cplusplus
extern "C" {
#endif
enum { HP_CTX, HP_UPDATE, HP_USABLE, HP_STREAM, HP_UPLOAD, HP_ARRAYS, HP_LOGBEGIN, HP_GATHER, HP_TUNE, HP_SPMV, HP_LOGEND, HP_RESTORE, HP_FLOPS, HP_RETURN, HP_SARGS, HP_SLAUNCH, HP_STAIL, HP_SELF, HP_N };
#define HP_MAXS (1 << 16)
extern float *aijt_hp_samples[HP_N];
extern int aijt_hp_count[HP_N];
extern struct timespec aijt_hp_last;
static inline void aijt_hp_start(void) { clock_gettime(CLOCK_MONOTONIC, &aijt_hp_last); }
static inline void aijt_hp_mark(int i)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  if (!aijt_hp_samples[i]) aijt_hp_samples[i] = (float *)malloc(sizeof(float) * HP_MAXS);
  if (aijt_hp_count[i] < HP_MAXS) aijt_hp_samples[i][aijt_hp_count[i]++] = (float)((t.tv_sec - aijt_hp_last.tv_sec) * 1e9 + (t.tv_nsec - aijt_hp_last.tv_nsec));
  aijt_hp_last = t;
}
#ifdef __cplusplus
}
#endif
''')
# the store and the report, in the sequential type's file
p = root + '/src/mat/impls/tuned/seq/aijtuned.c'
s = open(p).read()
report = r'''
#include "../../../../../kernels/hostpath_prof.h"
float *aijt_hp_samples[HP_N];
int aijt_hp_count[HP_N];
struct timespec aijt_hp_last;
static int hp_cmp(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return x < y ? -1 : x > y; }
__attribute__((destructor)) static void hp_report(void)
{
  static const char *names[HP_N] = {"ctx", "update", "usable", "stream", "upload", "arrays", "logbegin", "gather", "tune", "spmv", "logend", "restore", "flops", "return", "sargs", "slaunch", "stail", "self"};
  for (int k = 0; k < 200; k++) { aijt_hp_start(); aijt_hp_mark(HP_SELF); }
  for (int i = 0; i < HP_N; i++) {
    int n = aijt_hp_count[i];
    if (!n) continue;
    qsort(aijt_hp_samples[i], n, sizeof(float), hp_cmp);
    fprintf(stderr, "hostpath %-8s %8.0f %8.0f %8.0f %d\n", names[i], aijt_hp_samples[i][n / 2], aijt_hp_samples[i][n / 10], aijt_hp_samples[i][9 * n / 10], n);
  }
}
'''
m = 'static const char        CONTEXT_NAME[]'
assert s.count(m) == 1; s = s.replace(m, report + m, 1)
def at(s, after, code):
    assert s.count(after) == 1, after
    return s.replace(after, after + code, 1)
i, j = s.index('static PetscErrorCode Multiply(Mat A'), s.index('static PetscErrorCode MatMult_SeqAIJTuned(Mat A')
head, body, tail = s[:i], s[i:j], s[j:]
body = at(body, '  PetscFunctionBegin;\n', '  aijt_hp_start();\n')
body = at(body, '  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));\n', '  aijt_hp_mark(HP_CTX);\n')
body = at(body, '  PetscCall(UpdatePlan(A, ctx));\n', '  aijt_hp_mark(HP_UPDATE);\n')
body = at(body, '    PetscCall(MatSeqAIJTunedCUDAUsable(A, ctx, x, z, y, &gpu));\n', '    aijt_hp_mark(HP_USABLE);\n')
m = '    if (gpu && room) PetscFunctionReturn(PETSC_SUCCESS);'
assert body.count(m) == 1
body = body.replace(m, '    if (gpu && room) { aijt_hp_mark(HP_RETURN); PetscFunctionReturn(PETSC_SUCCESS); }', 1)
open(p, 'w').write(head + body + tail)
# the device product
p = root + '/src/mat/impls/tuned/seq/cuda/aijtunedcuda.c'
s = open(p).read()
s = '#include "../../../../../../kernels/hostpath_prof.h"\n' + s
i = s.index('PetscErrorCode MatSeqAIJTunedMultCUDA(')
j = s.index('\n}\n', i) + 3
head, body, tail = s[:i], s[i:j], s[j:]
body = at(body, '  PetscCall(PetscGetCurrentCUDAStream(&stream));\n', '  aijt_hp_mark(HP_STREAM);\n')
body = at(body, '  PetscCall(Upload(A, ctx, stream, room));\n', '  aijt_hp_mark(HP_UPLOAD);\n')
body = at(body, '  PetscCall(MatAIJTunedGetVecArrays(&MatAIJTunedCUDAArrays, x, z, y, &xa, &za, &ya));\n', '  aijt_hp_mark(HP_ARRAYS);\n')
body = at(body, '  PetscCall(PetscLogGpuTimeBegin());\n', '  aijt_hp_mark(HP_LOGBEGIN);\n')
body = at(body, '(const double *)xa, ctx->dev->xhot, stream));\n', '  aijt_hp_mark(HP_GATHER);\n')
body = at(body, '(double *)ya, stream, &tuning));\n', '  aijt_hp_mark(HP_TUNE);\n')
body = at(body, '(const double *)za, (double *)ya, stream));\n', '  aijt_hp_mark(HP_SPMV);\n')
body = at(body, '  PetscCall(PetscLogGpuTimeEnd());\n', '  aijt_hp_mark(HP_LOGEND);\n')
body = at(body, '  PetscCall(MatAIJTunedRestoreVecArrays(&MatAIJTunedCUDAArrays, x, z, y, &xa, &za, &ya));\n', '  aijt_hp_mark(HP_RESTORE);\n')
body = at(body, '(PetscLogDouble)ctx->nonzero_rows)));\n', '  aijt_hp_mark(HP_FLOPS);\n')
open(p, 'w').write(head + body + tail)
# inside the strips' launch: the checks and the block's assembly, the launch call, the tail
p = root + '/kernels/spmv.cu'
s = open(p).read()
s = s.replace('#include "internal.cuh"', '#include "hostpath_prof.h"\n#include "internal.cuh"', 1)
m = '  if (!a.nstrips) return cudaSuccess;\n'
assert s.count(m) == 1; s = s.replace(m, m + '  aijt_hp_mark(HP_SARGS);\n', 1)
m = '  a.nstrips = 0;\n  return cudaGetLastError();\n'
assert s.count(m) == 1; s = s.replace(m, '  a.nstrips = 0;\n  { cudaError_t e_ = cudaGetLastError(); aijt_hp_mark(HP_SLAUNCH); return e_; }\n', 1)
m = '      if (S->format == AIJT_PANEL) err = launch_panel(S, x, o, stream);\n'
assert s.count(m) == 1; s = s.replace(m, '      aijt_hp_mark(HP_SARGS);\n' + m, 1)
m = '      if (err != cudaSuccess) return err;\n      continue;\n'
assert s.count(m) == 1; s = s.replace(m, '      aijt_hp_mark(HP_SLAUNCH);\n' + m, 1)
m = '  if ((err = launch(a, block, x, o, stream)) != cudaSuccess) return err;\n  return t ? aijt_cuda_tail('
assert s.count(m) == 1
s = s.replace(m, '  if ((err = launch(a, block, x, o, stream)) != cudaSuccess) return err;\n  { cudaError_t e_ = t ? aijt_cuda_tail(t, scale, x, y, stream) : cudaSuccess; aijt_hp_mark(HP_STAIL); return e_; }\n  return t ? aijt_cuda_tail(', 1)
open(p, 'w').write(s)
