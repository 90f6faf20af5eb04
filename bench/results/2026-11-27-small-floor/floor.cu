/* What a product of lap3d40 (40^3 7-point stencil: 64,000 rows, 438,400 entries) can cost at least on one
   GPU, timed as bench_spmv times a product (a pair of CUDA events around each launch, back to back, median
   of 500), the same launches timed as a stream (one pair around 500, divided by 500), and the device alone
   (held: 50 launches at a time queued behind a spinning kernel, each between its own event pair).  No PETSc, no
   aijtuned: a measurement of the device.  The DIA kernels mirror kernels/dia.cuh's coded rows (one byte a
   slot, a value table, the diagonals' offsets in device memory, a flag saying the codes are in use).
     nvcc -arch=sm_90 -O3 -o floor floor.cu && ./floor */
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

static const int N = 40, ROWS = N * N * N, NDIAG = 7, BLOCK = 256, REPS = 500;

__global__ void empty_kernel() {}

__global__ void write_y(double *y, int n)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) y[r] = 1.0;
}

__global__ void copy_x(const double *__restrict__ x, double *y, int n)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) y[r] = __ldg(x + r);
}

/* as dia.cuh: the flag, then the row's codes, then the table, the offsets and x */
__global__ void dia_chain(const int *state, const unsigned long long *code, const double *table, const int *ptr, const double *__restrict__ x, double *y, int n)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  if (!__ldg(state)) return;
  unsigned long long w = __ldcs(code + r);
  double             s = 0;
#pragma unroll
  for (int d = 0; d < 8; d++) {
    unsigned c = (unsigned)(w >> (8 * d)) & 0xffu;
    if (c) s += __ldg(table + c) * __ldg(x + r + __ldg(ptr + d));
  }
  y[r] = s;
}

/* the codes loaded beside the flag: one dependent load fewer */
__global__ void dia_spec(const int *state, const unsigned long long *code, const double *table, const int *ptr, const double *__restrict__ x, double *y, int n)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  unsigned long long w  = __ldcs(code + r);
  int                on = __ldg(state);
  int                o[8];
#pragma unroll
  for (int d = 0; d < 8; d++) o[d] = __ldg(ptr + d);
  if (!on) return;
  double s = 0;
#pragma unroll
  for (int d = 0; d < 8; d++) {
    unsigned c = (unsigned)(w >> (8 * d)) & 0xffu;
    if (c) s += __ldg(table + c) * __ldg(x + r + o[d]);
  }
  y[r] = s;
}

struct consts { int off[8]; double table[4]; };
/* offsets and table as a kernel parameter: the codes, then x */
__global__ void dia_param(const __grid_constant__ consts k, const unsigned long long *code, const double *__restrict__ x, double *y, int n)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  unsigned long long w = __ldcs(code + r);
  double             s = 0;
#pragma unroll
  for (int d = 0; d < 8; d++) {
    unsigned c = (unsigned)(w >> (8 * d)) & 0xffu;
    if (c) s += k.table[c & 3] * __ldg(x + r + k.off[d]);
  }
  y[r] = s;
}

/* the same with a parameter block as large as aijtuned's fused launch (16 strips of 144 bytes and their
   block ranges: 2376 bytes), of which it reads the same few */
struct big_params { int nstrips; unsigned first[17]; consts k; char rest[2376 - 4 - 68 - sizeof(consts)]; };
__global__ void dia_big(const __grid_constant__ big_params a, const unsigned long long *code, const double *__restrict__ x, double *y, int n)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  unsigned long long w = __ldcs(code + r);
  double             s = 0;
#pragma unroll
  for (int d = 0; d < 8; d++) {
    unsigned c = (unsigned)(w >> (8 * d)) & 0xffu;
    if (c) s += a.k.table[c & 3] * __ldg(x + r + a.k.off[d]);
  }
  y[r] = s;
}

/* Holds a stream: spins until the host sets *flag (host-mapped), or gives up after about a second. */
__global__ void spin(volatile int *flag)
{
  const long long t0 = clock64();
  while (!*flag && clock64() - t0 < 2000000000LL) {}
}

/* The device alone: HELD launches at a time queued behind a spinning kernel, each between its own event
   pair, then released (kernels/hold.h does the same for the calibration); median of REPS. */
static const int HELD = 50;
template <class F> static double time_held(F launch, cudaStream_t st, volatile int *flag, int *dflag)
{
  static cudaEvent_t ev[2 * REPS];
  static bool        made = false;
  if (!made) { for (auto &e : ev) cudaEventCreate(&e); made = true; }
  for (int i = 0; i < 20; i++) launch();
  for (int i0 = 0; i0 < REPS; i0 += HELD) {
    *flag = 0;
    spin<<<1, 1, 0, st>>>(dflag);
    for (int i = i0; i < i0 + HELD; i++) { cudaEventRecord(ev[2 * i], st); launch(); cudaEventRecord(ev[2 * i + 1], st); }
    *flag = 1;
    cudaStreamSynchronize(st);
  }
  std::vector<float> ms(REPS);
  for (int i = 0; i < REPS; i++) cudaEventElapsedTime(&ms[i], ev[2 * i], ev[2 * i + 1]);
  std::sort(ms.begin(), ms.end());
  return 1e3 * 0.5 * (ms[REPS / 2 - 1] + ms[REPS / 2]);
}

template <class F> static double time_each(F launch, cudaStream_t st, double *stream_us)
{
  static cudaEvent_t ev[2 * REPS];
  static bool        made = false;
  if (!made) { for (auto &e : ev) cudaEventCreate(&e); made = true; }
  for (int i = 0; i < 20; i++) launch();
  for (int i = 0; i < REPS; i++) { cudaEventRecord(ev[2 * i], st); launch(); cudaEventRecord(ev[2 * i + 1], st); }
  cudaEventSynchronize(ev[2 * REPS - 1]);
  std::vector<float> ms(REPS);
  for (int i = 0; i < REPS; i++) cudaEventElapsedTime(&ms[i], ev[2 * i], ev[2 * i + 1]);
  std::sort(ms.begin(), ms.end());
  cudaEventRecord(ev[0], st);
  for (int i = 0; i < REPS; i++) launch();
  cudaEventRecord(ev[1], st);
  cudaEventSynchronize(ev[1]);
  float all;
  cudaEventElapsedTime(&all, ev[0], ev[1]);
  *stream_us = 1e3 * all / REPS;
  return 1e3 * 0.5 * (ms[REPS / 2 - 1] + ms[REPS / 2]);
}

int main()
{
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const int    off[NDIAG] = {-N * N, -N, -1, 0, 1, N, N * N};
  const double nnz        = 7.0 * ROWS - 6.0 * N * N; /* each face of the cube loses one neighbour a row */
  const double csr_bytes  = 12.0 * nnz + 12.0 * ROWS + 8.0 * ROWS; /* bench_spmv's compulsory CSR bytes */
  std::vector<unsigned long long> code(ROWS);
  for (int r = 0; r < ROWS; r++) {
    int i = r % N, j = r / N % N, k = r / (N * N);
    unsigned long long w = 0;
    bool has[NDIAG] = {k > 0, j > 0, i > 0, true, i < N - 1, j < N - 1, k < N - 1};
    for (int d = 0; d < NDIAG; d++)
      if (has[d]) w |= (unsigned long long)(d == 3 ? 1 : 2) << (8 * d);
    code[r] = w;
  }
  double table[4] = {0, 6, -1, 0};
  int    ptr[8]   = {off[0], off[1], off[2], off[3], off[4], off[5], off[6], 0};
  int    one      = 1;
  unsigned long long *dcode; double *dtable, *x, *y; int *dptr, *dstate;
  CHECK(cudaMalloc(&dcode, ROWS * 8)); CHECK(cudaMalloc(&dtable, 32)); CHECK(cudaMalloc(&dptr, 32)); CHECK(cudaMalloc(&dstate, 4));
  CHECK(cudaMalloc(&x, ROWS * 8)); CHECK(cudaMalloc(&y, ROWS * 8));
  CHECK(cudaMemcpy(dcode, code.data(), ROWS * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dtable, table, 32, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dptr, ptr, 32, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dstate, &one, 4, cudaMemcpyHostToDevice));
  std::vector<double> hx(ROWS, 1.0);
  CHECK(cudaMemcpy(x, hx.data(), ROWS * 8, cudaMemcpyHostToDevice));
  consts k = {};
  for (int d = 0; d < 8; d++) k.off[d] = ptr[d];
  for (int t = 0; t < 4; t++) k.table[t] = table[t];
  static big_params bp = {};
  bp.nstrips = 1, bp.first[1] = (ROWS + BLOCK - 1) / BLOCK, bp.k = k;

  const size_t big = (size_t)1 << 30, same = (size_t)(0.5 * csr_bytes);
  char *a, *b;
  CHECK(cudaMalloc(&a, big)); CHECK(cudaMalloc(&b, big));
  CHECK(cudaMemset(a, 1, big)); CHECK(cudaMemset(b, 0, big));
  CHECK(cudaDeviceSynchronize());
  const int grid = (ROWS + BLOCK - 1) / BLOCK;
  double    s_us, e_us;

  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  printf("%s; lap3d40: %d rows, %.0f entries, %.2f MB of compulsory CSR bytes; each time: median of %d, event pair around each launch (as bench_spmv) | one pair around %d launches, per launch\n", p.name, ROWS, nnz, csr_bytes / 1e6, REPS, REPS);
  // the copy rate bench_spmv divides by: 1 GiB, read + write
  e_us = time_each([&] { cudaMemcpyAsync(b, a, big, cudaMemcpyDeviceToDevice, st); }, st, &s_us);
  const double copy_gbs = 2.0 * big / e_us / 1e3;
  printf("%-44s %8.2f us | %8.2f us   (%.0f GB/s read + write)\n", "copy 1 GiB", e_us, s_us, copy_gbs);
  const double need = csr_bytes / (0.85 * copy_gbs) / 1e3;
  printf("85%% of that rate over lap3d40's CSR bytes: a product of %.2f us at most\n", need);
  int *hflag, *dflag;
  CHECK(cudaHostAlloc(&hflag, sizeof(int), cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(&dflag, hflag, 0));
  struct row { const char *name; double e, s, h; };
  std::vector<row> rows;
  auto run = [&](const char *name, auto launch) { double e = time_each(launch, st, &s_us); double h = time_held(launch, st, (volatile int *)hflag, dflag); rows.push_back({name, e, s_us, h}); };
  run("copy of half the CSR bytes (bench's same)", [&] { cudaMemcpyAsync(b, a, same, cudaMemcpyDeviceToDevice, st); });
  run("empty kernel, 1 block of 32", [&] { empty_kernel<<<1, 32, 0, st>>>(); });
  run("empty kernel, 250 blocks of 256", [&] { empty_kernel<<<grid, BLOCK, 0, st>>>(); });
  run("write y (64,000 doubles)", [&] { write_y<<<grid, BLOCK, 0, st>>>(y, ROWS); });
  run("y = x", [&] { copy_x<<<grid, BLOCK, 0, st>>>(x, y, ROWS); });
  run("DIA coded, as dia.cuh (flag, codes, table)", [&] { dia_chain<<<grid, BLOCK, 0, st>>>(dstate, dcode, dtable, dptr, x, y, ROWS); });
  run("DIA coded, codes beside the flag", [&] { dia_spec<<<grid, BLOCK, 0, st>>>(dstate, dcode, dtable, dptr, x, y, ROWS); });
  run("DIA coded, offsets and table as parameters", [&] { dia_param<<<grid, BLOCK, 0, st>>>(k, dcode, x, y, ROWS); });
  run("DIA coded, parameters in a 2376-byte block", [&] { dia_big<<<grid, BLOCK, 0, st>>>(bp, dcode, x, y, ROWS); });
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  std::vector<double> hy(ROWS);
  CHECK(cudaMemcpy(hy.data(), y, ROWS * 8, cudaMemcpyDeviceToHost));
  double maxerr = 0; /* x = 1: a row's sum is 6 less its neighbours */
  for (int r = 0; r < ROWS; r++) {
    int i = r % N, j = r / N % N, kk = r / (N * N);
    double want = 6.0 - (kk > 0) - (j > 0) - (i > 0) - (i < N - 1) - (j < N - 1) - (kk < N - 1);
    maxerr = std::max(maxerr, std::abs(hy[r] - want));
  }
  printf("%-44s %8s | %8s | %8s   the copy rate's fraction in CSR bytes, each way\n", "", "events", "stream", "held");
  for (auto &r : rows) printf("%-44s %8.2f | %8.2f | %8.2f   %.2f | %.2f | %.2f\n", r.name, r.e, r.s, r.h, csr_bytes / r.e / 1e3 / copy_gbs, csr_bytes / r.s / 1e3 / copy_gbs, csr_bytes / r.h / 1e3 / copy_gbs);
  printf("last DIA kernel's y: max error %.1e\n", maxerr);
  return maxerr == 0 ? 0 : 1;
}
