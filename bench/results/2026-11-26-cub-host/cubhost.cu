/* What the planner's runtime calls cost the host, apart from the GPU's work: cub's radix sort of n (key, index)
   pairs as plan_gpu.cu's sort_decreasing calls it (a size query, then the sort), a stream-ordered allocation
   and free, a small kernel's launch, and a wait for an idle stream.  Each is timed on the host around the
   call alone (no wait inside the timing, except the wait's own), median of 21 after 5.
     nvcc -O2 -arch=sm_90 -std=c++17 cubhost.cu -o cubhost && ./cubhost 128000 1000000 */
#include <cub/cub.cuh>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

static double now_us() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
__global__ void fill(int *k, int *i, int n) { int t = blockIdx.x * blockDim.x + threadIdx.x; if (t < n) k[t] = (t * 2654435761u) % 1000, i[t] = t; }
__global__ void nothing() {}

int main(int argc, char **argv)
{
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaMemPool_t pool; uint64_t big = ~0ull;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &big); /* as PETSc sets it */
  for (int a = 1; a < argc; a++) {
    const int n = atoi(argv[a]);
    int *k, *k2, *i, *i2; void *tmp = NULL; size_t need = 0;
    cudaMalloc(&k, n * 4); cudaMalloc(&k2, n * 4); cudaMalloc(&i, n * 4); cudaMalloc(&i2, n * 4);
    cub::DeviceRadixSort::SortPairs(NULL, need, (unsigned *)k, (unsigned *)k2, i, i2, (int64_t)n, 0, 10, s);
    cudaMalloc(&tmp, need);
    std::vector<double> q, r, al, fr, l, w, wk;
    for (int rep = 0; rep < 26; rep++) {
      fill<<<(n + 255) / 256, 256, 0, s>>>(k, i, n);
      cudaStreamSynchronize(s);
      double t0 = now_us();
      size_t need2 = 0;
      cub::DeviceRadixSort::SortPairs(NULL, need2, (unsigned *)k, (unsigned *)k2, i, i2, (int64_t)n, 0, 10, s);
      double t1 = now_us();
      cub::DeviceRadixSort::SortPairs(tmp, need, (unsigned *)k, (unsigned *)k2, i, i2, (int64_t)n, 0, 10, s);
      double t2 = now_us();
      cudaStreamSynchronize(s);
      double t3 = now_us();
      void *p; cudaMallocAsync(&p, 3 * (size_t)n * 4 + need, s);
      double t4 = now_us();
      cudaFreeAsync(p, s);
      double t5 = now_us();
      nothing<<<1, 32, 0, s>>>();
      double t6 = now_us();
      cudaStreamSynchronize(s);
      double t7 = now_us();
      nothing<<<1, 32, 0, s>>>();
      cudaStreamSynchronize(s);
      double t8 = now_us();
      if (rep >= 5) q.push_back(t1 - t0), r.push_back(t2 - t1), al.push_back(t4 - t3), fr.push_back(t5 - t4), l.push_back(t6 - t5), w.push_back(t7 - t6), wk.push_back(t8 - t7);
    }
    printf("n %8d: cub size query %6.1f us, cub sort call %6.1f us (host only), alloc %5.1f, free %5.1f, empty launch %5.1f, wait after it %5.1f, launch+wait %5.1f us\n",
           n, median(q), median(r), median(al), median(fr), median(l), median(w), median(wk));
    cudaFree(k); cudaFree(k2); cudaFree(i); cudaFree(i2); cudaFree(tmp);
  }
  return 0;
}
