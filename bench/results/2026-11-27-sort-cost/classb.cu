// The class sort (kernels/class_sort.cuh) against CUB's radix sort: wall and GPU time, and the same order.
#include "class_sort.cuh"
#include <cub/device/device_radix_sort.cuh>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>
static double ms(){timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return 1e3*t.tv_sec+1e-6*t.tv_nsec;}
struct arr { const aijt_int *v; __device__ aijt_int operator()(int64_t i) const { return v[i]; } };
__global__ void keys(const aijt_int *len,int64_t n,aijt_int top,aijt_int *k,aijt_int *idx){for(int64_t i=blockIdx.x*(int64_t)blockDim.x+threadIdx.x;i<n;i+=gridDim.x*(int64_t)blockDim.x){k[i]=top-len[i];idx[i]=(aijt_int)i;}}
typedef std::make_unsigned<aijt_int>::type ukey;
int main(){
  cudaStream_t s; cudaStreamCreateWithFlags(&s,cudaStreamNonBlocking);
  cudaMemPool_t pool; uint64_t th=UINT64_MAX; cudaDeviceGetDefaultMemPool(&pool,0); cudaMemPoolSetAttribute(pool,cudaMemPoolAttrReleaseThreshold,&th);
  cudaEvent_t a,b; cudaEventCreate(&a);cudaEventCreate(&b);
  const int64_t ns[3]={127823,1048576,4000000}; const int spreads[4]={1,40,300,1000};
  int fails=0;
  for(int64_t n: ns) for(int spread: spreads){
    std::vector<aijt_int> h(n); srand(7); for(int64_t i=0;i<n;i++){ int r=rand()%100; h[i]= spread==1? 7 : r<90? 3+rand()%8 : 11+rand()%spread; }
    aijt_int top=*std::max_element(h.begin(),h.end());
    std::vector<aijt_int> cnt(top+1,0); for(auto v:h) cnt[v]++; std::vector<aijt_int> dv; for(aijt_int v=top;v>=0;v--) if(cnt[v]) dv.push_back(v);
    std::vector<aijt_int> ref(n); for(int64_t i=0;i<n;i++) ref[i]=(aijt_int)i; std::stable_sort(ref.begin(),ref.end(),[&](aijt_int x,aijt_int y){return h[x]>h[y];});
    aijt_int *d,*out; cudaMalloc(&d,n*sizeof(aijt_int)); cudaMalloc(&out,n*sizeof(aijt_int)); cudaMemcpy(d,h.data(),n*sizeof(aijt_int),cudaMemcpyHostToDevice);
    int bits=1; while(bits<(int)(8*sizeof(aijt_int)) && ((ukey)top>>bits)) bits++;
    std::vector<double> wc,gc,wr,gr; std::vector<aijt_int> got(n);
    for(int r=0;r<31;r++){
      // class sort, its scratch allocated on the stream as the planner does
      double t0=ms(); size_t need=0; void *work=NULL;
      aijt::class_sort(arr{d},n,dv.data(),(int)dv.size(),NULL,&need,out,s); cudaMallocAsync(&work,need,s);
      cudaEventRecord(a,s); cudaError_t e=aijt::class_sort(arr{d},n,dv.data(),(int)dv.size(),work,&need,out,s); cudaEventRecord(b,s); cudaFreeAsync(work,s);
      cudaStreamSynchronize(s); wc.push_back(ms()-t0); float g; cudaEventElapsedTime(&g,a,b); gc.push_back(g);
      if(e!=cudaSuccess){printf("class_sort: %s\n",cudaGetErrorString(e));return 1;}
      if(r==0){cudaMemcpy(got.data(),out,n*sizeof(aijt_int),cudaMemcpyDeviceToHost); if(got!=ref){fails++;printf("MISMATCH n %lld spread %d\n",(long long)n,spread);}}
      // radix sort as plan_gpu.cu's sort_decreasing
      t0=ms(); need=0; const size_t part=((size_t)n*sizeof(aijt_int)+255)/256*256; char *w2=NULL;
      cub::DeviceRadixSort::SortPairs(NULL,need,(ukey*)0,(ukey*)0,(aijt_int*)0,(aijt_int*)0,n,0,bits,s); cudaMallocAsync((void**)&w2,3*part+need,s);
      aijt_int *k=(aijt_int*)w2,*k2=(aijt_int*)(w2+part),*idx=(aijt_int*)(w2+2*part);
      cudaEventRecord(a,s); keys<<<aijt::setup_blocks(n),256,0,s>>>(d,n,top,k,idx);
      cub::DeviceRadixSort::SortPairs(w2+3*part,need,(ukey*)k,(ukey*)k2,idx,out,n,0,bits,s); cudaEventRecord(b,s); cudaFreeAsync(w2,s);
      cudaStreamSynchronize(s); wr.push_back(ms()-t0); cudaEventElapsedTime(&g,a,b); gr.push_back(g);
      if(r==0){cudaMemcpy(got.data(),out,n*sizeof(aijt_int),cudaMemcpyDeviceToHost); if(got!=ref){fails++;printf("RADIX MISMATCH\n");}}
    }
    for(auto*v:{&wc,&gc,&wr,&gr}) std::sort(v->begin(),v->end());
    printf("n %8lld distinct %5zu bits %2d : class sort wall %6.1f us gpu %6.1f | radix sort wall %6.1f us gpu %6.1f\n",(long long)n,dv.size(),bits,wc[15]*1e3,gc[15]*1e3,wr[15]*1e3,gr[15]*1e3);
    cudaFree(d);cudaFree(out);
  }
  printf("%d mismatches\n",fails); return fails!=0;
}
