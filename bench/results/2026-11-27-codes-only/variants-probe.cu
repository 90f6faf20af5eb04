/* The refill that codes a DIA strip (kernels/dia_codes.cu), its variants timed through aijt_dev_refill with codes
   attached, on DIA strips of lap3d's shape (4M rows, 7 diagonals) and box27's (1M rows, 27), every slot present,
   between CUDA events (median of 21), no PETSc.  The variants are the experiment's knobs (aijt_codes_knob_*):
     write     1: every slot's value written to val as it is coded; 0: none unless the strip proves uncodable
               (a second kernel then refills val, and returns at once otherwise)
     prefetch  1: the next row's places (src) loaded before this row's values (strips of at most 8 diagonals)
     blocks    the coding pass's blocks at most (grid-stride over the rows)
   and write 2: the coding by tiles (code_tile_kernel), then settle_kernel (its blocks: fix_blocks), which says
   whether the codes hold and refills val by tiles where they do not.
   plus the plain refill (no codes attached) and one read of the values, the floors.  After each variant the codes
   are decoded on the host and compared slot by slot with the values through src (coded), or val with them
   (uncoded).
     nvcc -std=c++17 -arch=sm_90 -O3 -Ikernels -Isrc/mat/impls/tuned/plan probe.cu OBJS -o probe && ./probe [NAME]
   NAME (lap3d or box27, few values, the base variant and the tiles once each, no repeats) for ncu. */
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

extern "C" int      aijt_codes_knob_write, aijt_codes_knob_prefetch;
extern "C" unsigned aijt_codes_knob_blocks, aijt_codes_knob_fix_blocks;

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

struct variant {
  const char *name;
  int         write, prefetch;
  unsigned    blocks, fix_blocks;
};
static const variant variants[] = {
  {"base (write, 1024 blocks)", 1, 0, 1024, 1024},
  {"write, prefetch", 1, 1, 1024, 1024},
  {"no write, prefetch", 0, 1, 1024, 1024},
  {"tiles, 1024 blocks", 2, 0, 1024, 1024},
  {"tiles, 528 blocks", 2, 0, 528, 1024},
  {"tiles, 2048 blocks", 2, 0, 2048, 1024},
  {"tiles, 4096 blocks", 2, 0, 4096, 1024},
  {"tiles, a block a tile", 2, 0, 1u << 30, 1024},
  {"tiles, 1024, settle 264", 2, 0, 1024, 264},
  {"tiles, 1024, settle 4096", 2, 0, 1024, 4096},
};
static void run(const char *name, int64_t nrows, int64_t width, int many, int ncu)
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
  char            c[128];
  if (ncu) {
    for (int v = 0; v < 4; v += 3) { /* the base and the tiles */
      aijt_codes_knob_write = variants[v].write, aijt_codes_knob_prefetch = variants[v].prefetch, aijt_codes_knob_blocks = variants[v].blocks, aijt_codes_knob_fix_blocks = variants[v].fix_blocks;
      CHECK(aijt_dev_refill(values, &d, srcs, 1, NULL, NULL, 0));
    }
    CHECK(aijt_dev_refill(values, &bare, srcs, 1, NULL, NULL, 0));
    CHECK(cudaDeviceSynchronize());
    return;
  }
  const float refill = median_ms([&] { CHECK(aijt_dev_refill(values, &bare, srcs, 1, NULL, NULL, 0)); });
  const float read   = median_ms([&] { read_all<<<4096, 256>>>(val, n, out); });
  printf("%-6s %s values: plain refill %.3f ms, read %.3f ms\n", name, many ? "many" : "few ", refill, read);
  for (const variant &v : variants) {
    aijt_codes_knob_write = v.write, aijt_codes_knob_prefetch = v.prefetch, aijt_codes_knob_blocks = v.blocks, aijt_codes_knob_fix_blocks = v.fix_blocks;
    if (v.prefetch && width > 8) continue;
    CHECK(cudaMemset(val, 0, n * sizeof(double)));
    const float t = median_ms([&] { CHECK(aijt_dev_refill(values, &d, srcs, 1, NULL, NULL, 0)); });
    check(&d, values, src, c, sizeof(c));
    printf("   refill+code %-26s %.3f ms  (%s)\n", v.name, t, c);
  }
  aijt_codes_knob_write = 1, aijt_codes_knob_prefetch = 0, aijt_codes_knob_blocks = 1024, aijt_codes_knob_fix_blocks = 1024;
  cudaFree(values), cudaFree(val), cudaFree(src), cudaFree(mask), cudaFree(out), cudaFree(mem);
}

int main(int argc, char **argv)
{
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (argc > 1) {
    if (!strcmp(argv[1], "lap3d")) run("lap3d", 4096000, 7, 0, 1);
    else run("box27", 1000000, 27, 0, 1);
    return 0;
  }
  printf("%s; medians of %d\n", prop.name, REPS);
  for (int many = 0; many < 2; many++) {
    run("lap3d", 4096000, 7, many, 0);
    run("box27", 1000000, 27, many, 0);
  }
  return 0;
}
