/* Where DIA's value coding spends its time (kernels/dia_codes.cu, included whole so that its kernels can be launched
   one by one): a DIA strip of box27's shape (1M rows, 27 diagonals, every slot present, 27 distinct values), each
   kernel of aijt_dia_codes_make timed alone between CUDA events (median of 21), then the whole call, then a plain
   pass that reads every value once (the floor of a pass over them).  No PETSc.
     nvcc -std=c++17 -arch=sm_90 -O3 -Ikernels -Isrc/mat/impls/tuned/plan probe.cu -o probe && ./probe */
#include "../../../../kernels/dia_codes.cu"

#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

static const int64_t NROWS = 1000000, WIDTH = 27, REPS = 21;

__global__ void fill(double *val, uint32_t *mask, int64_t nrows, int64_t width)
{
  GRID_STRIDE(k, nrows * width) val[k] = 1.0 + (double)(k / nrows); /* diagonal d holds 1 + d */
  GRID_STRIDE(i, nrows) mask[i] = (1u << width) - 1u;
}

__global__ void read_all(const double *val, int64_t n, double *out)
{
  double s = 0;
  GRID_STRIDE(k, n) s += __ldg(val + k);
  if (s == -1.0) *out = s; /* never: keeps the loads */
}

/* Variants of insert_kernel.  B: each lane with an entry looks its value up in the block's seen values itself (lanes
   of one value read one shared word together), no __match_any_sync.  C: B, and the slots diagonal by diagonal (no
   64-bit division), the overflow flag read every 32nd pass of a warp. */
__global__ void insert_b(pieces p, const double *val, const uint32_t *mask, int64_t nrows, int64_t nslots)
{
  __shared__ unsigned long long seen[SEEN];
  const unsigned                lane = threadIdx.x & 31u;
  for (int t = threadIdx.x; t < SEEN; t += blockDim.x) seen[t] = EMPTY;
  __syncthreads();
  GRID_STRIDE(k, nslots)
  {
    const unsigned active = __activemask(), first = (unsigned)__ffs(active) - 1;
    int            over   = 0;
    if (lane == first) over = *(volatile int *)&p.state[AIJT_CODES_OVERFLOW];
    if (__shfl_sync(active, over, (int)first)) return;
    const int64_t            d = k / nrows, i = k - d * nrows;
    const bool               has  = __ldg(mask + i) >> d & 1u;
    const unsigned long long bits = has ? (unsigned long long)__double_as_longlong(__ldg(val + k)) : EMPTY;
    if (has && bits == EMPTY) p.state[AIJT_CODES_OVERFLOW] = 1;
    if (has) insert_seen(p, seen, bits);
  }
}

__global__ void insert_c(pieces p, const double *val, const uint32_t *mask, int64_t nrows, int64_t width)
{
  __shared__ unsigned long long seen[SEEN];
  const unsigned                lane = threadIdx.x & 31u;
  int                           pass = 0;
  for (int t = threadIdx.x; t < SEEN; t += blockDim.x) seen[t] = EMPTY;
  __syncthreads();
  for (int64_t d = 0; d < width; d++) {
    GRID_STRIDE(i, nrows)
    {
      if ((pass++ & 31) == 0) {
        const unsigned active = __activemask(), first = (unsigned)__ffs(active) - 1;
        int            over   = 0;
        if (lane == first) over = *(volatile int *)&p.state[AIJT_CODES_OVERFLOW];
        if (__shfl_sync(active, over, (int)first)) return;
      }
      const bool               has  = __ldg(mask + i) >> d & 1u;
      const unsigned long long bits = has ? (unsigned long long)__double_as_longlong(__ldg(val + d * nrows + i)) : EMPTY;
      if (has && bits == EMPTY) p.state[AIJT_CODES_OVERFLOW] = 1;
      if (has) insert_seen(p, seen, bits);
    }
  }
}

template <class F> static float median_ms(F launch, cudaStream_t st)
{
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  std::vector<float> ms(REPS);
  for (int r = 0; r < REPS; r++) {
    cudaEventRecord(a, st);
    launch();
    cudaEventRecord(b, st);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms[r], a, b);
  }
  std::sort(ms.begin(), ms.end());
  return ms[REPS / 2];
}

int main()
{
  cudaStream_t st;
  CHECK(cudaStreamCreate(&st));
  double   *val, *out;
  uint32_t *mask;
  CHECK(cudaMalloc(&val, NROWS * WIDTH * sizeof(double)));
  CHECK(cudaMalloc(&mask, NROWS * sizeof(uint32_t)));
  CHECK(cudaMalloc(&out, sizeof(double)));
  fill<<<setup_blocks(NROWS * WIDTH), SETUP_BLOCK, 0, st>>>(val, mask, NROWS, WIDTH);
  aijt_dev_strip d;
  memset(&d, 0, sizeof(d));
  d.format = AIJT_DIA, d.nrows = NROWS, d.width = WIDTH, d.nslots = NROWS * WIDTH, d.ld = NROWS, d.val = val, d.mask = mask;
  void *mem;
  CHECK(cudaMalloc(&mem, aijt_dia_codes_bytes(&d)));
  aijt_dia_codes_attach(&d, mem);
  const pieces   p         = carve(mem);
  const int64_t  row_bytes = 8 * (int64_t)aijt_dia_code_words(d.width);
  /* insert_kernel as dia_codes.cu launches it: before 2026-11-27's change it took nslots and as many blocks (probe1,
     probe2: the kernel then was B with __match_any_sync, the flag read at every pass); now it is C (probe3) */
  const unsigned ib = setup_blocks(d.nrows) < INSERT_BLOCKS ? setup_blocks(d.nrows) : INSERT_BLOCKS;
  CHECK(aijt_dia_codes_make(&d, st));
  CHECK(cudaStreamSynchronize(st));
  int state[AIJT_CODES_STATE];
  CHECK(cudaMemcpy(state, d.codes_state, sizeof(state), cudaMemcpyDeviceToHost));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("%s; DIA strip %lld rows x %lld diagonals (%.0f MB of values); codes used %d, %d distinct; medians of %lld\n", prop.name, (long long)NROWS, (long long)WIDTH, NROWS * WIDTH * 8 / 1e6, state[AIJT_CODES_USED], state[AIJT_CODES_COUNT], (long long)REPS);
  /* each kernel alone, after the ones before it (the set as the previous ones leave it) */
  const float reset  = median_ms([&] { reset_kernel<<<1, HASH, 0, st>>>(p); }, st);
  const float insert = median_ms([&] { reset_kernel<<<1, HASH, 0, st>>>(p); insert_kernel<<<ib, SETUP_BLOCK, 0, st>>>(p, d.val, d.mask, d.nrows, d.width); }, st) - reset;
  const float rank   = median_ms([&] { rank_kernel<<<1, HASH, 0, st>>>(p); }, st);
  const float code   = median_ms([&] { code_kernel<<<setup_blocks(d.nrows), SETUP_BLOCK, 0, st>>>(p, d.val, d.mask, d.nrows, d.width, row_bytes); }, st);
  const float ins_b  = median_ms([&] { reset_kernel<<<1, HASH, 0, st>>>(p); insert_b<<<ib, SETUP_BLOCK, 0, st>>>(p, d.val, d.mask, d.nrows, d.nslots); }, st) - reset;
  const float ins_c  = median_ms([&] { reset_kernel<<<1, HASH, 0, st>>>(p); insert_c<<<ib, SETUP_BLOCK, 0, st>>>(p, d.val, d.mask, d.nrows, d.width); }, st) - reset;
  int set_b[AIJT_CODES_STATE];
  CHECK(cudaMemcpy(set_b, d.codes_state, sizeof(set_b), cudaMemcpyDeviceToHost)); /* after C's run: its count */
  const float whole  = median_ms([&] { (void)aijt_dia_codes_make(&d, st); }, st);
  const float pass   = median_ms([&] { read_all<<<setup_blocks(d.nslots), SETUP_BLOCK, 0, st>>>(d.val, d.nslots, out); }, st);
  CHECK(cudaGetLastError());
  printf("reset %.3f ms, insert %.3f ms (%u blocks), rank %.3f ms, code %.3f ms; the whole call %.3f ms; one read of the values %.3f ms\n", reset, insert, ib, rank, code, whole, pass);
  printf("insert B (no match_any) %.3f ms, C (B, by diagonal, the flag every 32nd pass) %.3f ms; after C: %d distinct, overflow %d\n", ins_b, ins_c, set_b[AIJT_CODES_COUNT], set_b[AIJT_CODES_OVERFLOW]);
  return 0;
}
