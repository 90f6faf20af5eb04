// Micro benchmark: wall time of a stable decreasing sort of row lengths (cub radix sort) by parts.
#include <cub/device/device_radix_sort.cuh>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>
#include <algorithm>
static double ms(){timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return 1e3*t.tv_sec+1e-6*t.tv_nsec;}
__global__ void keys(const int *len,int n,int top,unsigned *k,int *idx){for(int i=blockIdx.x*blockDim.x+threadIdx.x;i<n;i+=gridDim.x*blockDim.x){k[i]=top-len[i];idx[i]=i;}}
__global__ void empty(){}
template<class N> double run(int n,int bits,int reps,cudaStream_t s,const int*dlen,int top,bool alloc,double *gpu){
  std::vector<double> w,gv; size_t need=0;
  cub::DeviceRadixSort::SortPairs(NULL,need,(unsigned*)0,(unsigned*)0,(int*)0,(int*)0,(N)n,0,bits,s);
  char *pre=0; size_t part=((size_t)n*4+255)/256*256; cudaMalloc(&pre,3*part+need+part);
  cudaEvent_t a,b; cudaEventCreate(&a);cudaEventCreate(&b);
  for(int r=0;r<reps;r++){
    double t0=ms(); char*work=pre;
    if(alloc){cub::DeviceRadixSort::SortPairs(NULL,need,(unsigned*)0,(unsigned*)0,(int*)0,(int*)0,(N)n,0,bits,s);cudaMallocAsync((void**)&work,4*part+need,s);}
    unsigned*k=(unsigned*)work,*k2=(unsigned*)(work+part);int*idx=(int*)(work+2*part),*out=(int*)(work+3*part);
    cudaEventRecord(a,s);
    keys<<<264,256,0,s>>>(dlen,n,top,k,idx);
    cub::DeviceRadixSort::SortPairs(work+4*part,need,k,k2,idx,out,(N)n,0,bits,s);
    cudaEventRecord(b,s);
    if(alloc)cudaFreeAsync(work,s);
    cudaStreamSynchronize(s); w.push_back(ms()-t0); float g; cudaEventElapsedTime(&g,a,b); gv.push_back(g);
  }
  std::sort(w.begin(),w.end());std::sort(gv.begin(),gv.end()); *gpu=gv[reps/2]*1e3; cudaFree(pre); return w[reps/2]*1e3;
}
int main(){
  cudaStream_t s; cudaStreamCreateWithFlags(&s,cudaStreamNonBlocking);
  cudaMemPool_t pool; uint64_t th=UINT64_MAX; cudaDeviceGetDefaultMemPool(&pool,0); cudaMemPoolSetAttribute(pool,cudaMemPoolAttrReleaseThreshold,&th);
  std::vector<double> w;
  for(int r=0;r<50;r++){double t0=ms();empty<<<1,32,0,s>>>();cudaStreamSynchronize(s);w.push_back(ms()-t0);} std::sort(w.begin(),w.end());
  printf("empty launch+sync %.1f us\n",w[25]*1e3);
  int ns[2]={127823,1048576};
  for(int ni=0;ni<2;ni++){int n=ns[ni]; std::vector<int> h(n); srand(1); for(int i=0;i<n;i++){int r=rand()%1000; h[i]= r<990? 1+rand()%12 : rand()%5000;} int top=0; for(int v:h) top=std::max(top,v);
    int*d; cudaMalloc(&d,n*4); cudaMemcpy(d,h.data(),n*4,cudaMemcpyHostToDevice);
    for(int bits: {4,8,10,13,17,20}) for(int al=0;al<2;al++){double g32,g64; double w32=run<int>(n,bits,31,s,d,top,al,&g32); double w64=run<long long>(n,bits,31,s,d,top,al,&g64);
      printf("n %8d bits %2d alloc %d : wall int32 %7.1f us (gpu %6.1f)  int64 %7.1f us (gpu %6.1f)\n",n,bits,al,w32,g32,w64,g64);}
    cudaFree(d);}
}
