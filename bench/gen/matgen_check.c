/*
   Generates suite matrices and checks them without PETSc or a GPU: the CSR is well formed, the
   generation time, the row-length spread, a checksum (the same on every machine and run), and the
   cuSPARSE SELL layout built from it multiplies like the CSR does.

     matgen_check                 every suite matrix at its default size
     matgen_check lap3d:20 rmat   some of them, name[:size]
*/
#include "matgen.h"
#include "sellpack.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int check(const char *arg)
{
  char       name[64];
  const char *colon = strchr(arg, ':');
  int64_t    size   = colon ? atoll(colon + 1) : 0, lo = INT64_MAX, hi = 0, bad;
  matgen_csr A;
  matgen_err err;
  sellpack   S;
  double     t0, t1, sum = 0.0, diff = 0.0, ymax = 0.0, *x, *y, *z;
  uint64_t   colsum = 0;
  int        sp;

  snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - arg) : (int)strlen(arg), arg);
  t0  = now();
  err = matgen_generate(name, size, &A);
  t1  = now();
  if (err) {
    printf("%-10s FAIL: %s\n", name, matgen_strerror(err));
    return 1;
  }
  bad = matgen_validate(&A);
  for (int64_t i = 0; i < A.nrows; i++) {
    int64_t len = A.rowptr[i + 1] - A.rowptr[i];
    lo          = len < lo ? len : lo;
    hi          = len > hi ? len : hi;
  }
  for (int64_t k = 0; k < A.nnz; k++) {
    sum += A.val[k];
    colsum = colsum * 31 + (uint64_t)A.col[k];
  }
  x = (double *)malloc((size_t)(A.ncols ? A.ncols : 1) * sizeof(*x));
  y = (double *)malloc((size_t)(A.nrows ? A.nrows : 1) * sizeof(*y));
  z = (double *)malloc((size_t)(A.nrows ? A.nrows : 1) * sizeof(*z));
  if (!x || !y || !z) {
    printf("%-10s FAIL: out of memory for the check\n", name);
    return 1;
  }
  for (int64_t j = 0; j < A.ncols; j++) x[j] = matgen_unit(1, j);
  matgen_spmv(&A, x, y);
  sp = sellpack_build(&A, 32, &S);
  if (!sp) {
    sellpack_spmv(&S, A.nrows, x, z);
    for (int64_t i = 0; i < A.nrows; i++) {
      diff = fmax(diff, fabs(y[i] - z[i]));
      ymax = fmax(ymax, fabs(y[i]));
    }
  }
  printf("%-10s %10lld x %-10lld nnz %11lld  rows %lld..%lld (mean %.1f)  %.2f s  checksum %.6e %016llx  SELL-32 %s", name, (long long)A.nrows, (long long)A.ncols, (long long)A.nnz, (long long)lo, (long long)hi,
         A.nrows ? (double)A.nnz / (double)A.nrows : 0.0, t1 - t0, sum, (unsigned long long)colsum, sp ? (sp == 1 ? "out of memory" : "too large") : "");
  if (!sp) printf("%.1f%% padding, |diff|/|y| %.1e", 100.0 * (double)(S.size - A.nnz) / (double)(S.size ? S.size : 1), ymax > 0 ? diff / ymax : diff);
  printf("  %s\n", bad ? "INVALID CSR" : "ok");
  sellpack_free(&S);
  free(x);
  free(y);
  free(z);
  matgen_free(&A);
  return bad != 0 || (!sp && diff > 1e-12 * (ymax > 1 ? ymax : 1));
}

int main(int argc, char **argv)
{
  int fails = 0;

  if (argc > 1)
    for (int a = 1; a < argc; a++) fails += check(argv[a]);
  else
    for (int i = 0; i < matgen_suite_count(); i++) fails += check(matgen_suite(i)->name);
  printf("%s\n", fails ? "FAILED" : "all valid");
  return fails != 0;
}
