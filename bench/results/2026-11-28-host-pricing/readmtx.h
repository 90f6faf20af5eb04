/* A Matrix Market file (gzip) as a host CSR of its pattern, duplicates merged, values 1: what this folder's tools
   (pricing.c, splitcheck.c) plan.  read_mtx returns 0, or 1 if the file cannot be read; free_mtx frees A's arrays. */
#pragma once
#include "aijtmodel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int r, c; } mtx_entry;
static int mtx_cmp(const void *a, const void *b) { const mtx_entry *x = a, *y = b; return x->r != y->r ? x->r - y->r : x->c - y->c; }

static int read_mtx(const char *path, aijt_csr *A)
{
  char cmd[512], line[1024]; snprintf(cmd, sizeof cmd, "zcat %s", path); FILE *f = popen(cmd, "r");
  int  sym = 0; if (!f || !fgets(line, sizeof line, f)) return 1; if (strstr(line, "symmetric") || strstr(line, "hermitian")) sym = 1;
  while (fgets(line, sizeof line, f)) if (line[0] != '%') break;
  int m, n; long nz; if (sscanf(line, "%d %d %ld", &m, &n, &nz) != 3) return 1;
  mtx_entry *e = malloc(sizeof(mtx_entry) * nz * 2 + 16); long k = 0;
  for (long i = 0; i < nz; i++) { int r, c; if (!fgets(line, sizeof line, f)) break; sscanf(line, "%d %d", &r, &c); e[k++] = (mtx_entry){r - 1, c - 1}; if (sym && r != c) e[k++] = (mtx_entry){c - 1, r - 1}; }
  pclose(f);
  qsort(e, k, sizeof(mtx_entry), mtx_cmp);
  long w = 0; for (long i = 0; i < k; i++) if (!w || e[i].r != e[w - 1].r || e[i].c != e[w - 1].c) e[w++] = e[i]; k = w;
  aijt_int *rp = calloc(m + 1, sizeof(aijt_int)), *ci = malloc(sizeof(aijt_int) * (k + 1)); double *v = malloc(sizeof(double) * (k + 1));
  for (long i = 0; i < k; i++) { rp[e[i].r + 1]++; ci[i] = e[i].c; v[i] = 1; }
  for (int i = 0; i < m; i++) rp[i + 1] += rp[i];
  free(e);
  memset(A, 0, sizeof(*A)); A->nrows = m; A->ncols = n; A->rowptr = rp; A->colidx = ci; A->values = v;
  return 0;
}

static void free_mtx(aijt_csr *A)
{
  free((void *)A->rowptr); free((void *)A->colidx); free((void *)A->values);
}
