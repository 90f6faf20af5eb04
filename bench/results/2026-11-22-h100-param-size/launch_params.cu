/* How a launch's cost grows with its parameter block: a tiny kernel (132 blocks of 256 threads, each
   reading one word of its __grid_constant__ parameter) launched back to back between event pairs, as
   aijtuned's products and the calibration time them, for parameter blocks of 64 B to 4 KiB.
   Also the host time per launch alone (no events), measured over 2000 launches.
     nvcc -O3 -arch=sm_90 -std=c++17 launch_params.cu -o launch_params && ./launch_params */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <chrono>
#include <algorithm>

template <int BYTES>
struct blob {
  int w[BYTES / 4];
};

template <int BYTES>
__global__ void touch(const __grid_constant__ blob<BYTES> b, int *out)
{
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = b.w[BYTES / 4 - 1];
}

#define REPS 200
template <int BYTES>
void run(int *out, cudaStream_t s)
{
  blob<BYTES> b;
  for (int i = 0; i < BYTES / 4; i++) b.w[i] = i;
  cudaEvent_t ev[2 * REPS];
  for (auto &e : ev) cudaEventCreate(&e);
  for (int i = 0; i < 20; i++) touch<BYTES><<<132, 256, 0, s>>>(b, out);
  for (int r = 0; r < REPS; r++) {
    cudaEventRecord(ev[2 * r], s);
    touch<BYTES><<<132, 256, 0, s>>>(b, out);
    cudaEventRecord(ev[2 * r + 1], s);
  }
  cudaEventSynchronize(ev[2 * REPS - 1]);
  float t[REPS];
  for (int r = 0; r < REPS; r++) cudaEventElapsedTime(&t[r], ev[2 * r], ev[2 * r + 1]);
  std::sort(t, t + REPS);
  cudaStreamSynchronize(s);
  auto h0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 2000; i++) touch<BYTES><<<132, 256, 0, s>>>(b, out);
  auto h1 = std::chrono::steady_clock::now();
  cudaStreamSynchronize(s);
  auto h2 = std::chrono::steady_clock::now();
  printf("params %5d B: events median %.2f us (p10 %.2f, p90 %.2f); host per launch %.2f us, device per launch %.2f us\n", BYTES, 1e3 * t[REPS / 2], 1e3 * t[REPS / 10], 1e3 * t[9 * REPS / 10],
         std::chrono::duration<double, std::micro>(h1 - h0).count() / 2000, std::chrono::duration<double, std::micro>(h2 - h0).count() / 2000);
  for (auto &e : ev) cudaEventDestroy(e);
}

int main()
{
  int         *out;
  cudaStream_t s;
  cudaMalloc(&out, 4);
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (int round = 0; round < 2; round++) {
    run<64>(out, s);
    run<256>(out, s);
    run<512>(out, s);
    run<1024>(out, s);
    run<2048>(out, s);
    run<2688>(out, s);
    run<4096>(out, s);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
