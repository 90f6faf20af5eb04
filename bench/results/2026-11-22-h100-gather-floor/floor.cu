/* Floors of the random matrix's product (2M rows, 33 uniform columns per row, as bench's `random`) on one
   GPU: what the streamed arrays alone cost, what the gathers of x alone cost, and a CSR-vector product
   with both, each the median of 50 CUDA-event-timed launches.  No PETSc, no aijtuned: a measurement of
   the device.
     nvcc -arch=sm_90 -O3 -o floor floor.cu && ./floor */
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__device__ uint32_t mix(uint64_t h)
{
  h ^= h >> 33; h *= 0xff51afd7ed558ccdull; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ull; h ^= h >> 33;
  return (uint32_t)h;
}

__global__ void fill(int *col, double *val, int64_t nnz, int n)
{
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < nnz; k += (int64_t)gridDim.x * blockDim.x) {
    col[k] = (int)(mix((uint64_t)k * 0x9E3779B97F4A7C15ull + 1) % (uint32_t)n);
    val[k] = 1.0 + (double)(mix(k + 7) & 1023) / 1024.0;
  }
}

/* one thread per row, 33 slots, SELL-like column-major layout: slot s of row r at s * n + r */
__global__ void stream_only(const int *col, const double *val, int n, int per, double *y)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  double s = 0; int c = 0;
  for (int k = 0; k < per; k++) { s += __ldcs(val + (int64_t)k * n + r); c ^= __ldcs(col + (int64_t)k * n + r); }
  y[r] = s + (double)c;
}

__global__ void gather_only(const double *x, int n, int per, double *y)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  double s = 0;
  for (int k = 0; k < per; k++) s += __ldg(x + mix((uint64_t)((int64_t)k * n + r) * 0x9E3779B97F4A7C15ull + 1) % (uint32_t)n);
  y[r] = s;
}

__global__ void gather_cols(const int *col, const double *x, int n, int per, double *y)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  double s = 0;
  for (int k = 0; k < per; k++) s += __ldg(x + __ldcs(col + (int64_t)k * n + r));
  y[r] = s;
}

__global__ void product(const int *col, const double *val, const double *x, int n, int per, double *y)
{
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  double s = 0;
  for (int k = 0; k < per; k++) s += __ldcs(val + (int64_t)k * n + r) * __ldg(x + __ldcs(col + (int64_t)k * n + r));
  y[r] = s;
}

template <class F> float median_us(F launch)
{
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int i = 0; i < 60; i++) {
    cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); if (i >= 10) t.push_back(1e3f * ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main()
{
  const int n = 2000000, per = 33; const int64_t nnz = (int64_t)n * per;
  int *col; double *val, *x, *y;
  CHECK(cudaMalloc(&col, nnz * sizeof(int))); CHECK(cudaMalloc(&val, nnz * sizeof(double)));
  CHECK(cudaMalloc(&x, n * sizeof(double))); CHECK(cudaMalloc(&y, n * sizeof(double)));
  fill<<<4096, 256>>>(col, val, nnz, n); CHECK(cudaMemset(x, 0, n * sizeof(double))); CHECK(cudaDeviceSynchronize());
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  printf("device %s, n %d, %d per row, nnz %lld, x %.1f MB, streamed %.1f MB\n", p.name, n, per, (long long)nnz, n * 8e-6, nnz * 12e-6);
  const int B = 256, G = (n + B - 1) / B;
  printf("stream_only  (col + val, no x)        %8.1f us\n", median_us([&] { stream_only<<<G, B>>>(col, val, n, per, y); }));
  printf("gather_only  (x at hashed columns)    %8.1f us\n", median_us([&] { gather_only<<<G, B>>>(x, n, per, y); }));
  printf("gather_cols  (col streamed, x gather) %8.1f us\n", median_us([&] { gather_cols<<<G, B>>>(col, x, n, per, y); }));
  printf("product      (col + val + x)          %8.1f us\n", median_us([&] { product<<<G, B>>>(col, val, x, n, per, y); }));
  CHECK(cudaGetLastError());
  return 0;
}
