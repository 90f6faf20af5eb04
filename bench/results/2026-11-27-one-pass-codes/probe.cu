/* DIA's value coding in one pass (kernels/dia_codes.cu at this tree), timed through its entry points on DIA strips
   of lap3d's shape (4M rows, 7 diagonals) and box27's (1M rows, 27), every slot present, between CUDA events
   (median of 21), no PETSc:
     refill        aijt_dev_refill of the strip without codes attached (the values through src, nothing coded)
     code          aijt_dia_codes_make (the coding of val in one pass)
     refill+code   aijt_dev_refill with codes attached (narrower than 16 diagonals: both in one pass; else the
                   refill, then the coding)
     read          one plain read of the values (the floor of a pass over them)
   each for a few values (diagonal d holds 1 + d) and for many (every slot its own: the coding gives up).  After each
   coding the codes are decoded on the host and compared with val, slot by slot.
     nvcc -std=c++17 -arch=sm_90 -O3 -Ikernels -Isrc/mat/impls/tuned/plan probe.cu OBJS -o probe && ./probe
   with OBJS the library's kernel objects (build-cuda/obj/kernels/*.o). */
#include "aijtkernels.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define GRID(i, n) for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (int64_t)(n); i += (int64_t)gridDim.x * blockDim.x)

static const int REPS = 21;

/* CSR values of the strip's rows (row i's entry on diagonal d at i * width + d), the slots' places in them */
__global__ void fill(double *values, aijt_int *src, uint32_t *mask, int64_t nrows, int64_t width, int many)
{
  GRID(k, nrows * width)
  {
    const int64_t d = k / nrows, i = k % nrows;
    src[k]          = (aijt_int)(i * width + d);
    values[i * width + d] = many ? 1.0 + 1e-9 * (double)k : 1.0 + (double)d;
  }
  GRID(i, nrows) mask[i] = width == 32 ? ~0u : (1u << width) - 1u;
}

__global__ void read_all(const double *val, int64_t n, double *out)
{
  double s = 0;
  GRID(k, n) s += __ldg(val + k);
  if (s == -1.0) *out = s; /* never: keeps the loads */
}

template <class F> static float median_ms(F launch)
{
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  std::vector<float> ms(REPS);
  for (int r = 0; r < REPS; r++) {
    cudaEventRecord(a, 0);
    launch();
    cudaEventRecord(b, 0);
    CHECK(cudaEventSynchronize(b));
    cudaEventElapsedTime(&ms[r], a, b);
  }
  std::sort(ms.begin(), ms.end());
  return ms[REPS / 2];
}

/* The codes against val, slot by slot: "codes used, n distinct, all match" or what differs. */
static void check(const aijt_dev_strip *d, char *out, size_t len)
{
  int    state[AIJT_CODES_STATE];
  double table[AIJT_DIA_CODES];
  const int64_t words = aijt_dia_code_words(d->width), n = d->nrows * d->width;
  std::vector<double>  val(n);
  std::vector<uint8_t> code(d->nrows * words * 8);
  CHECK(cudaMemcpy(state, d->codes_state, sizeof(state), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(table, d->table, sizeof(table), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(val.data(), d->val, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(code.data(), d->code, code.size(), cudaMemcpyDeviceToHost));
  int64_t bad = 0;
  if (state[AIJT_CODES_USED])
    for (int64_t i = 0; i < d->nrows; i++)
      for (int64_t b = 0; b < words * 8; b++) {
        const uint8_t c = code[i * words * 8 + b];
        bad += b < d->width ? (!c || memcmp(&table[c], &val[b * d->nrows + i], 8)) : c != 0;
      }
  snprintf(out, len, "codes used %d, %d met, %lld slots wrong", state[AIJT_CODES_USED], state[AIJT_CODES_COUNT], (long long)bad);
}

static void run(const char *name, int64_t nrows, int64_t width, int many)
{
  const int64_t n = nrows * width;
  double       *values, *val, *out;
  aijt_int     *src;
  uint32_t     *mask;
  void         *mem;
  CHECK(cudaMalloc(&values, n * sizeof(double)));
  CHECK(cudaMalloc(&val, n * sizeof(double)));
  CHECK(cudaMalloc(&src, n * sizeof(aijt_int)));
  CHECK(cudaMalloc(&mask, nrows * sizeof(uint32_t)));
  CHECK(cudaMalloc(&out, sizeof(double)));
  fill<<<4096, 256>>>(values, src, mask, nrows, width, many);
  CHECK(cudaMemset(val, 0, n * sizeof(double)));
  aijt_dev_strip d;
  memset(&d, 0, sizeof(d));
  d.format = AIJT_DIA, d.nrows = nrows, d.width = width, d.nslots = n, d.ld = nrows, d.val = val, d.mask = mask;
  aijt_dev_strip bare = d; /* no codes attached */
  CHECK(cudaMalloc(&mem, aijt_dia_codes_bytes(&d)));
  aijt_dia_codes_attach(&d, mem);
  const aijt_int *srcs[1] = {src};
  char            c1[128], c2[128];
  const float refill = median_ms([&] { CHECK(aijt_dev_refill(values, &bare, srcs, 1, NULL, NULL, 0)); });
  const float code   = median_ms([&] { CHECK(aijt_dia_codes_make(&d, 0)); });
  check(&d, c1, sizeof(c1));
  CHECK(cudaMemset(val, 0, n * sizeof(double)));
  const float both = median_ms([&] { CHECK(aijt_dev_refill(values, &d, srcs, 1, NULL, NULL, 0)); });
  check(&d, c2, sizeof(c2));
  const float read = median_ms([&] { read_all<<<4096, 256>>>(val, n, out); });
  CHECK(cudaDeviceSynchronize());
  printf("%-6s %s values: refill %.3f ms, code %.3f ms, refill+code %.3f ms (%s), read %.3f ms; after code: %s; after refill+code: %s\n", name, many ? "many" : "few ", refill, code, both,
         aijt_dia_codes_refills(&d) ? "one pass" : "two", read, c1, c2);
  cudaFree(values), cudaFree(val), cudaFree(src), cudaFree(mask), cudaFree(out), cudaFree(mem);
}

int main()
{
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("%s; medians of %d\n", prop.name, REPS);
  for (int many = 0; many < 2; many++) {
    run("lap3d", 4096000, 7, many);
    run("box27", 1000000, 27, many);
  }
  return 0;
}
