// Host time of the CUDA calls the GPU planner makes, each repeated 200 times on an otherwise idle stream.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>
static double us(){timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return 1e6*t.tv_sec+1e-3*t.tv_nsec;}
__global__ void empty(){}
struct P4k { int v[1000]; };
__global__ void big_param(P4k p, int *o){ if(threadIdx.x==0&&p.v[blockIdx.x]==-1) *o=1; }
#define COST(name, setup, ...) { std::vector<double> t; for(int r=0;r<200;r++){ setup; double t0=us(); __VA_ARGS__; t.push_back(us()-t0); cudaStreamSynchronize(s);} std::sort(t.begin(),t.end()); printf("%-48s median %6.2f us  p90 %6.2f us\n", name, t[100], t[180]); }
int main(){
  cudaStream_t s; cudaStreamCreateWithFlags(&s,cudaStreamNonBlocking);
  cudaMemPool_t pool; uint64_t th=UINT64_MAX; cudaDeviceGetDefaultMemPool(&pool,0); cudaMemPoolSetAttribute(pool,cudaMemPoolAttrReleaseThreshold,&th);
  int n=1<<20; int *a,*b,*c,*d,*o; cudaMalloc(&a,4*n);cudaMalloc(&b,4*n);cudaMalloc(&c,4*n);cudaMalloc(&d,4*n);cudaMalloc(&o,4); cudaMemset(a,0,4*n); cudaMemset(c,0,4*n);
  void *tmp; cudaMalloc(&tmp,64<<20); size_t need=0; std::vector<int> h(1024); int *pin; cudaHostAlloc(&pin,4096,0); void *p=0; int dev; cudaEvent_t e; cudaEventCreate(&e);
  P4k P={};
  COST("launch empty<<<1,32>>>",,empty<<<1,32,0,s>>>())
  COST("launch + cudaStreamSynchronize",,(empty<<<1,32,0,s>>>(),cudaStreamSynchronize(s)))
  COST("launch kernel with 4 KB of parameters",,big_param<<<1,32,0,s>>>(P,o))
  COST("cudaGetLastError",,cudaGetLastError())
  COST("cudaGetDevice",,cudaGetDevice(&dev))
  COST("cudaEventRecord",,cudaEventRecord(e,s))
  COST("cudaMemcpyAsync H2D 4 KB pageable",,cudaMemcpyAsync(d,h.data(),4096,cudaMemcpyHostToDevice,s))
  COST("cudaMemcpyAsync H2D 4 KB pinned",,cudaMemcpyAsync(d,pin,4096,cudaMemcpyHostToDevice,s))
  COST("cudaMemsetAsync 4 KB",,cudaMemsetAsync(d,0,4096,s))
  COST("cudaMallocAsync 4 MB",,cudaMallocAsync(&p,4<<20,s); cudaFreeAsync(p,s))
  COST("cudaMallocAsync+cudaFreeAsync 4 MB",,(cudaMallocAsync(&p,4<<20,s),cudaFreeAsync(p,s)))
  COST("cub ExclusiveSum query",,cub::DeviceScan::ExclusiveSum(NULL,need,a,b,(int64_t)300*512,s))
  COST("cub ExclusiveSum 153600",need=64<<20,cub::DeviceScan::ExclusiveSum(tmp,need,a,b,(int64_t)300*512,s))
  COST("cub SortPairs query",,cub::DeviceRadixSort::SortPairs(NULL,need,(unsigned*)a,(unsigned*)b,c,d,(int64_t)n,0,10,s))
  COST("cub SortPairs 1M 10 bits (launches only)",need=64<<20,cub::DeviceRadixSort::SortPairs(tmp,need,(unsigned*)a,(unsigned*)b,c,d,(int64_t)n,0,10,s))
  COST("cub SortPairs 128k 4 bits (launches only)",need=64<<20,cub::DeviceRadixSort::SortPairs(tmp,need,(unsigned*)a,(unsigned*)b,c,d,(int64_t)127823,0,4,s))
  COST("cub SortPairs 128k 4 bits, launches + sync",need=64<<20,(cub::DeviceRadixSort::SortPairs(tmp,need,(unsigned*)a,(unsigned*)b,c,d,(int64_t)127823,0,4,s),cudaStreamSynchronize(s)))
  COST("5 empty launches + sync",,(empty<<<1,32,0,s>>>(),empty<<<1,32,0,s>>>(),empty<<<1,32,0,s>>>(),empty<<<1,32,0,s>>>(),empty<<<1,32,0,s>>>(),cudaStreamSynchronize(s)))
  return 0;
}
