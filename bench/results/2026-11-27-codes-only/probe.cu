/* The refill that codes a DIA strip (aijt_dev_refill with codes attached, kernels/dia_codes.cu), timed through the
   library's entry points alone, so that the same file runs against the tree before the change and after it: DIA
   strips of lap3d's shape (4M rows, 7 diagonals), a 9-point stencil's (4M rows, 9) and box27's (1M rows, 27), every
   slot present, between CUDA events (median of 21), no PETSc:
     refill        aijt_dev_refill of the strip without codes attached (the floor of a refill)
     refill+code   aijt_dev_refill with codes attached
     code          aijt_dia_codes_make (the coding of val, after an upload or a GPU build)
     read          one plain read of the values
   each for few values (diagonal d holds 1 + d), many (every slot its own: the coding gives up at once) and late
   (few but in the last 1% of rows, every slot its own: the set fills late, after most threads coded all their
   rows), and on a strip of 9M rows with 7 diagonals first (every slot its own in the first 100000 rows alone: the
   set fills at once, and the threads of the other rows, whose few values still code, learn it from the overflow
   flag at their 32nd row, after coding 32 rows).  After the refill that codes, the codes are decoded on the host and compared slot by slot with the
   values through src where they are in use, else val with them.
     nvcc -std=c++17 -arch=sm_90 -O3 -Ikernels -Isrc/mat/impls/tuned/plan probe.cu OBJS -o probe && ./probe
   with OBJS the library's kernel objects (build-cuda/obj/kernels/*.o) and the planner's. */
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
    values[i * width + d] = many == 1 || (many == 2 && i >= nrows - nrows / 100) || (many == 3 && i < 100000) ? 1.0 + 1e-9 * (double)k : 1.0 + (double)d;
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

/* The codes against the values through src, slot by slot, or val against them where uncoded: "codes used, n met,
   k slots wrong". */
static void check(const aijt_dev_strip *d, const double *values_d, const aijt_int *src_d, char *out, size_t len)
{
  int    state[AIJT_CODES_STATE];
  double table[AIJT_DIA_CODES];
  const int64_t words = aijt_dia_code_words(d->width), n = d->nrows * d->width;
  std::vector<double>   val(n), values(n);
  std::vector<aijt_int> src(n);
  std::vector<uint8_t>  code(d->nrows * words * 8);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(state, d->codes_state, sizeof(state), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(table, d->table, sizeof(table), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(val.data(), d->val, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(values.data(), values_d, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(src.data(), src_d, n * sizeof(aijt_int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(code.data(), d->code, code.size(), cudaMemcpyDeviceToHost));
  int64_t bad = 0;
  for (int64_t i = 0; i < d->nrows; i++)
    for (int64_t b = 0; b < words * 8; b++) {
      if (state[AIJT_CODES_USED]) {
        const uint8_t c = code[i * words * 8 + b];
        bad += b < d->width ? (!c || memcmp(&table[c], &values[src[b * d->nrows + i]], 8)) : c != 0;
      } else if (b < d->width) bad += memcmp(&val[b * d->nrows + i], &values[src[b * d->nrows + i]], 8) != 0;
    }
  snprintf(out, len, "codes used %d, %d met, %lld slots wrong", state[AIJT_CODES_USED], state[AIJT_CODES_COUNT], (long long)bad);
}

static void run(const char *name, int64_t nrows, int64_t width, int many)
{
  static const char *kinds[] = {"few ", "many", "late", "first"};
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
  char            c[128];
  const float     refill = median_ms([&] { CHECK(aijt_dev_refill(values, &bare, srcs, 1, NULL, NULL, 0)); });
  const float     code   = median_ms([&] { CHECK(aijt_dia_codes_make(&d, 0)); });
  CHECK(cudaMemset(val, 0, n * sizeof(double)));
  const float both = median_ms([&] { CHECK(aijt_dev_refill(values, &d, srcs, 1, NULL, NULL, 0)); });
  check(&d, values, src, c, sizeof(c));
  const float read = median_ms([&] { read_all<<<4096, 256>>>(val, n, out); });
  printf("%-6s %s values: refill+code %.3f ms (%s); refill %.3f, code %.3f, read %.3f\n", name, kinds[many], both, c, refill, code, read);
  cudaFree(values), cudaFree(val), cudaFree(src), cudaFree(mask), cudaFree(out), cudaFree(mem);
}

int main()
{
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("%s; medians of %d\n", prop.name, REPS);
  for (int many = 0; many < 3; many++) {
    run("lap3d", 4096000, 7, many);
    run("9-pt", 4096000, 9, many);
    run("box27", 1000000, 27, many);
  }
  run("lap3d9M", 9000000, 7, 3); /* over 32 rows a thread */
  return 0;
}
