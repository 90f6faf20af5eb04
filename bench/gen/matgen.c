/*
   The suite's generators.  Each builds its rows in order, so the 64-bit offsets come out as the rows
   are written, and sorts only within a row (a short insertion sort, qsort for the few long rows): no
   global sort, no hash table, seconds for ~80M entries on one core.
*/
#include "matgen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- random numbers and values */

typedef struct {
  uint64_t s;
} rng;

static void rng_seed(rng *r, uint64_t seed)
{
  r->s = seed ? seed : 0x9E3779B97F4A7C15ull; /* xorshift's state must not be zero */
}

/* xorshift64* (Marsaglia's xorshift with Vigna's output multiplier: the low bits are usable too) */
static uint64_t rng_next(rng *r)
{
  uint64_t x = r->s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->s = x;
  return x * 0x2545F4914F6CDD1Dull;
}

/* uniform in [0, n) for n <= 2^32 (Lemire's multiply-shift; its bias, below n / 2^32, is irrelevant here) */
static int64_t rng_below(rng *r, int64_t n)
{
  return (int64_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* uniform in (0, 1]: a logarithm of it is finite */
static double rng_open01(rng *r)
{
  return ((double)(rng_next(r) >> 11) + 1.0) * 0x1.0p-53;
}

static uint64_t mix64(uint64_t h)
{
  h ^= h >> 30;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 27;
  h *= 0x94D049BB133111EBull;
  h ^= h >> 31;
  return h;
}

/* in [0.5, 1.5), symmetric in (i, j): a symmetric pattern gives a symmetric matrix */
static double pair_value(int64_t i, int64_t j)
{
  uint64_t a = (uint64_t)(i < j ? i : j), b = (uint64_t)(i < j ? j : i);
  return 0.5 + (double)(mix64(a * 0x9E3779B97F4A7C15ull + b + 0x632BE59BD9B4E019ull) >> 11) * 0x1.0p-53;
}

double matgen_unit(uint64_t seed, int64_t i)
{
  return 2.0 * (double)(mix64(seed * 0xD1B54A32D192ED03ull + (uint64_t)i) >> 11) * 0x1.0p-53 - 1.0;
}

/* ---------------------------------------------------------------- rows */

static int cmp_int32(const void *a, const void *b)
{
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* sort a row's columns and drop repeats; returns the new length */
static int64_t sort_unique(int32_t *c, int64_t len)
{
  int64_t w = 0;

  if (len <= 64) {
    for (int64_t k = 1; k < len; k++) {
      int32_t v = c[k];
      int64_t p = k;
      for (; p > 0 && c[p - 1] > v; p--) c[p] = c[p - 1];
      c[p] = v;
    }
  } else qsort(c, (size_t)len, sizeof(*c), cmp_int32);
  for (int64_t k = 0; k < len; k++)
    if (!w || c[k] != c[w - 1]) c[w++] = c[k];
  return w;
}

/* Column indices written row after row, grown on demand (the exact count is known only at the end). */
typedef struct {
  int32_t *col;
  int64_t  n, cap;
} colbuf;

static int colbuf_reserve(colbuf *b, int64_t extra)
{
  int64_t  cap = b->cap;
  int32_t *p;

  if (b->n + extra <= cap) return 0;
  cap = cap * 2 > b->n + extra ? cap * 2 : b->n + extra;
  p   = (int32_t *)realloc(b->col, (size_t)cap * sizeof(*p));
  if (!p) return 1;
  b->col = p;
  b->cap = cap;
  return 0;
}

static int colbuf_append(colbuf *b, const int32_t *c, int64_t len)
{
  if (colbuf_reserve(b, len)) return 1;
  memcpy(b->col + b->n, c, (size_t)len * sizeof(*c));
  b->n += len;
  return 0;
}

typedef enum {
  VALUES_OPERATOR, /* -1 off the diagonal, 'center' on it */
  VALUES_DOMINANT  /* -h(i, j) off the diagonal, 1 + sum |off| on it */
} values_kind;

/* Hand the rows over to A: trim the columns to size, allocate and fill the values. */
static matgen_err finish(int64_t nrows, int64_t ncols, int64_t *rowptr, colbuf *b, values_kind kind, double center, matgen_csr *A)
{
  int32_t *c = b->n ? (int32_t *)realloc(b->col, (size_t)b->n * sizeof(*c)) : b->col;
  double  *v = (double *)malloc((size_t)(b->n ? b->n : 1) * sizeof(*v));

  if (c) b->col = c; /* a failed shrink keeps the larger block */
  if (!v) {
    free(b->col);
    free(rowptr);
    return MATGEN_ERR_MEM;
  }
  for (int64_t i = 0; i < nrows; i++) {
    int64_t diag = -1;
    double  sum  = 0.0;
    for (int64_t k = rowptr[i]; k < rowptr[i + 1]; k++) {
      int64_t j = b->col[k];
      if (j == i) diag = k;
      else if (kind == VALUES_OPERATOR) v[k] = -1.0;
      else {
        v[k] = -pair_value(i, j);
        sum -= v[k];
      }
    }
    if (diag >= 0) v[diag] = kind == VALUES_OPERATOR ? center : 1.0 + sum;
  }
  A->nrows  = nrows;
  A->ncols  = ncols;
  A->nnz    = b->n;
  A->rowptr = rowptr;
  A->col    = b->col;
  A->val    = v;
  return MATGEN_OK;
}

static void clear(matgen_csr *A)
{
  memset(A, 0, sizeof(*A));
}

void matgen_free(matgen_csr *A)
{
  free(A->rowptr);
  free(A->col);
  free(A->val);
  clear(A);
}

const char *matgen_strerror(matgen_err err)
{
  switch (err) {
  case MATGEN_OK:
    return "no error";
  case MATGEN_ERR_MEM:
    return "out of host memory";
  case MATGEN_ERR_ARG:
    return "unknown matrix name or size out of range";
  case MATGEN_ERR_SIZE:
    return "dimensions exceed 32-bit column indices";
  }
  return "unknown error";
}

/* ---------------------------------------------------------------- stencils */

matgen_err matgen_stencil(int dim, int64_t n, int box, int dof, int operator_values, matgen_csr *A)
{
  int     off[27][3], npts = 0;
  int64_t nz = dim == 3 ? n : 1, nodes, nrows, *rowptr;
  int32_t row[81];
  colbuf  b = {NULL, 0, 0};

  clear(A);
  if ((dim != 2 && dim != 3) || n < 1 || dof < 1 || dof > 3) return MATGEN_ERR_ARG;
  nodes = n * n * nz;
  nrows = nodes * dof;
  if (n > 2000000 || nrows > INT32_MAX) return MATGEN_ERR_SIZE;
  /* neighbour offsets in increasing order of the node index x + n (y + n z): rows come out sorted */
  for (int dz = -1; dz <= 1; dz++)
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
        if (dim == 2 && dz) continue;
        if (!box && nonzero > 1) continue;
        off[npts][0] = dx;
        off[npts][1] = dy;
        off[npts][2] = dz;
        npts++;
      }
  rowptr = (int64_t *)malloc((size_t)(nrows + 1) * sizeof(*rowptr));
  if (!rowptr || colbuf_reserve(&b, nrows * npts * dof)) {
    free(rowptr);
    free(b.col);
    return MATGEN_ERR_MEM;
  }
  rowptr[0] = 0;
  for (int64_t z = 0, r = 0; z < nz; z++)
    for (int64_t y = 0; y < n; y++)
      for (int64_t x = 0; x < n; x++) {
        int len = 0;
        for (int p = 0; p < npts; p++) {
          int64_t qx = x + off[p][0], qy = y + off[p][1], qz = z + off[p][2];
          if (qx < 0 || qx >= n || qy < 0 || qy >= n || qz < 0 || qz >= nz) continue;
          for (int d = 0; d < dof; d++) row[len++] = (int32_t)(((qz * n + qy) * n + qx) * dof + d);
        }
        for (int d = 0; d < dof; d++, r++) { /* every unknown of a node couples to every unknown of its neighbours */
          memcpy(b.col + b.n, row, (size_t)len * sizeof(*row));
          b.n += len;
          rowptr[r + 1] = b.n;
        }
      }
  matgen_err err = finish(nrows, nrows, rowptr, &b, operator_values ? VALUES_OPERATOR : VALUES_DOMINANT, (double)(npts * dof - 1), A);
  if (!err && dof > 1) A->bs = dof;
  return err;
}

/* ---------------------------------------------------------------- coordinates to rows */

/* Entries (er[e], ec[e]) in any order -> sorted, merged rows.  er and ec stay with the caller. */
static matgen_err coo_rows(int64_t nrows, int64_t ne, const int32_t *er, const int32_t *ec, int64_t **rowptr_out, colbuf *b)
{
  int64_t *rowptr = (int64_t *)calloc((size_t)nrows + 1, sizeof(*rowptr));
  int64_t *next   = (int64_t *)malloc((size_t)nrows * sizeof(*next));

  if (!rowptr || !next || colbuf_reserve(b, ne)) {
    free(rowptr);
    free(next);
    return MATGEN_ERR_MEM;
  }
  for (int64_t e = 0; e < ne; e++) rowptr[er[e] + 1]++;
  for (int64_t i = 0; i < nrows; i++) {
    rowptr[i + 1] += rowptr[i];
    next[i] = rowptr[i];
  }
  for (int64_t e = 0; e < ne; e++) b->col[next[er[e]]++] = ec[e];
  /* next[i] is now the old end of row i: merge each row and close the gaps left by repeats */
  b->n = 0;
  for (int64_t i = 0; i < nrows; i++) {
    int64_t start = i ? next[i - 1] : 0, len = sort_unique(b->col + start, next[i] - start);
    memmove(b->col + b->n, b->col + start, (size_t)len * sizeof(*b->col));
    b->n += len;
    rowptr[i + 1] = b->n;
  }
  free(next);
  *rowptr_out = rowptr;
  return MATGEN_OK;
}

/* ---------------------------------------------------------------- R-MAT */

matgen_err matgen_rmat(int scale, int edge_factor, double a, double b, double c, uint64_t seed, matgen_csr *A)
{
  int64_t   n, ne;
  int32_t  *er, *ec, *perm;
  uint32_t  ta, tb, tc;
  int64_t  *rowptr = NULL;
  colbuf    cb     = {NULL, 0, 0};
  matgen_err err;
  rng       r;

  clear(A);
  if (scale < 1 || scale > 30 || edge_factor < 1 || a < 0 || b < 0 || c < 0 || a + b + c > 1) return MATGEN_ERR_ARG;
  n  = (int64_t)1 << scale;
  ne = (int64_t)edge_factor * n;
  ta = (uint32_t)(a * 65536.0);
  tb = (uint32_t)((a + b) * 65536.0);
  tc = (uint32_t)((a + b + c) * 65536.0);
  er   = (int32_t *)malloc((size_t)(ne + n) * sizeof(*er));
  ec   = (int32_t *)malloc((size_t)(ne + n) * sizeof(*ec));
  perm = (int32_t *)malloc((size_t)n * sizeof(*perm));
  if (!er || !ec || !perm) {
    free(er);
    free(ec);
    free(perm);
    return MATGEN_ERR_MEM;
  }
  rng_seed(&r, seed);
  /* Graph500 relabels the vertices at random so that the hubs do not all sit in the first rows */
  for (int64_t i = 0; i < n; i++) perm[i] = (int32_t)i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = rng_below(&r, i + 1);
    int32_t t = perm[i];
    perm[i]   = perm[j];
    perm[j]   = t;
  }
  for (int64_t e = 0; e < ne; e++) {
    uint64_t row = 0, colm = 0, w = 0;
    for (int l = 0; l < scale; l++) {
      uint32_t u;
      if (l % 4 == 0) w = rng_next(&r); /* 16 bits of probability per level: four levels per draw */
      u = (uint32_t)(w & 0xFFFF);
      w >>= 16;
      row  = row << 1 | (u >= tb);
      colm = colm << 1 | ((u >= ta && u < tb) || u >= tc);
    }
    er[e] = perm[row];
    ec[e] = perm[colm];
  }
  free(perm);
  for (int64_t i = 0; i < n; i++) er[ne + i] = ec[ne + i] = (int32_t)i; /* the diagonal */
  err = coo_rows(n, ne + n, er, ec, &rowptr, &cb);
  free(er);
  free(ec);
  if (err) {
    free(cb.col);
    return err;
  }
  return finish(n, n, rowptr, &cb, VALUES_DOMINANT, 0.0, A);
}

/* ---------------------------------------------------------------- circuit-like */

matgen_err matgen_circuit(int64_t n, int nets, int64_t net_min, int64_t net_max, uint64_t seed, matgen_csr *A)
{
  const int64_t near = 64; /* local couplings reach this far from the diagonal */
  int64_t      *moff = NULL, *xoff = NULL, *rowptr = NULL, members = 0, maxrow = 0;
  int32_t      *node = NULL, *mem = NULL, *xcol = NULL, *row = NULL;
  colbuf        b   = {NULL, 0, 0};
  rng           r;
  int           ok = 0;

  clear(A);
  if (n < 16 || n > INT32_MAX || nets < 0 || nets > 64 || net_min < 1 || net_max < net_min || net_max >= n) return MATGEN_ERR_ARG;
  rng_seed(&r, seed);
  node   = (int32_t *)malloc((size_t)(nets + 1) * sizeof(*node));
  moff   = (int64_t *)malloc((size_t)(nets + 1) * sizeof(*moff));
  xoff   = (int64_t *)calloc((size_t)n + 1, sizeof(*xoff));
  rowptr = (int64_t *)malloc((size_t)(n + 1) * sizeof(*rowptr));
  if (!node || !moff || !xoff || !rowptr) goto nomem;
  /* supply nets: a node whose row reaches tens of thousands of others, which all couple back to it */
  moff[0] = 0;
  for (int k = 0; k < nets; k++) {
    int fresh;
    do {
      node[k] = (int32_t)rng_below(&r, n);
      fresh   = 1;
      for (int q = 0; q < k; q++) fresh &= node[q] != node[k];
    } while (!fresh);
    moff[k + 1] = moff[k] + net_min + rng_below(&r, net_max - net_min + 1);
  }
  members = moff[nets];
  mem     = (int32_t *)malloc((size_t)(members + 1) * sizeof(*mem));
  xcol    = (int32_t *)malloc((size_t)(members + 1) * sizeof(*xcol));
  if (!mem || !xcol) goto nomem;
  for (int k = 0; k < nets; k++)
    for (int64_t e = moff[k]; e < moff[k + 1]; e++) {
      do mem[e] = (int32_t)rng_below(&r, n);
      while (mem[e] == node[k]);
      xoff[mem[e] + 1]++;
    }
  /* the back-couplings grouped by row: xcol[xoff[i] .. xoff[i+1]) are the nets row i belongs to */
  for (int64_t i = 0; i < n; i++) xoff[i + 1] += xoff[i];
  {
    int64_t *fill = (int64_t *)malloc((size_t)n * sizeof(*fill));
    if (!fill) goto nomem;
    memcpy(fill, xoff, (size_t)n * sizeof(*fill));
    for (int k = 0; k < nets; k++)
      for (int64_t e = moff[k]; e < moff[k + 1]; e++) xcol[fill[mem[e]]++] = node[k];
    free(fill);
  }
  for (int64_t i = 0; i < n; i++)
    if (xoff[i + 1] - xoff[i] > maxrow) maxrow = xoff[i + 1] - xoff[i];
  for (int k = 0; k < nets; k++)
    if (moff[k + 1] - moff[k] > maxrow) maxrow = moff[k + 1] - moff[k];
  row = (int32_t *)malloc((size_t)(maxrow * 2 + 16) * sizeof(*row));
  if (!row || colbuf_reserve(&b, 9 * n + 2 * members)) goto nomem;
  rowptr[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t len = 0, m = 2 + rng_below(&r, 6); /* 3 to 8 entries with the diagonal */
    row[len++] = (int32_t)i;
    for (int64_t t = 0; t < m; t++) {
      int64_t d = t == 0 ? (rng_below(&r, 2) ? 1 : -1) : rng_below(&r, 2 * near + 1) - near, j = i + (d ? d : 1);
      if (j >= 0 && j < n) row[len++] = (int32_t)j;
    }
    if (rng_below(&r, 4) == 0) row[len++] = (int32_t)rng_below(&r, n); /* a long-range coupling */
    for (int64_t e = xoff[i]; e < xoff[i + 1]; e++) row[len++] = xcol[e];
    for (int k = 0; k < nets; k++)
      if (node[k] == i) {
        memcpy(row + len, mem + moff[k], (size_t)(moff[k + 1] - moff[k]) * sizeof(*row));
        len += moff[k + 1] - moff[k];
      }
    len = sort_unique(row, len);
    if (colbuf_append(&b, row, len)) goto nomem;
    rowptr[i + 1] = b.n;
  }
  ok = 1;
nomem: /* and the way out after success: the scratch arrays go either way */
  free(node);
  free(moff);
  free(xoff);
  free(mem);
  free(xcol);
  free(row);
  if (ok) return finish(n, n, rowptr, &b, VALUES_DOMINANT, 0.0, A);
  free(rowptr);
  free(b.col);
  return MATGEN_ERR_MEM;
}

/* ---------------------------------------------------------------- LP-like and uniform random */

matgen_err matgen_lp(int64_t m, int64_t n, int64_t per_row, uint64_t seed, matgen_csr *A)
{
  int64_t *rowptr;
  colbuf   b = {NULL, 0, 0};
  double   lq;
  rng      r;

  clear(A);
  if (m < 1 || n < 1 || per_row < 1 || per_row >= n) return MATGEN_ERR_ARG;
  if (n > INT32_MAX || m > INT32_MAX) return MATGEN_ERR_SIZE;
  rowptr = (int64_t *)malloc((size_t)(m + 1) * sizeof(*rowptr));
  if (!rowptr || colbuf_reserve(&b, m * per_row + m * per_row / 16 + 1024)) {
    free(rowptr);
    free(b.col);
    return MATGEN_ERR_MEM;
  }
  rng_seed(&r, seed);
  /* Each column joins a row independently with probability p: geometric gaps between the columns give
     the row already sorted and without repeats, in O(entries) instead of a sort per row. */
  lq        = log1p(-(double)per_row / (double)n);
  rowptr[0] = 0;
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = -1;;) {
      double gap = floor(log(rng_open01(&r)) / lq);
      if (gap >= (double)(n - 1 - j)) break;
      j += 1 + (int64_t)gap;
      if (colbuf_reserve(&b, 1)) {
        free(rowptr);
        free(b.col);
        return MATGEN_ERR_MEM;
      }
      b.col[b.n++] = (int32_t)j;
    }
    rowptr[i + 1] = b.n;
  }
  return finish(m, n, rowptr, &b, VALUES_DOMINANT, 0.0, A);
}

matgen_err matgen_random(int64_t n, int64_t per_row, uint64_t seed, matgen_csr *A)
{
  int64_t *rowptr;
  int32_t *row;
  colbuf   b = {NULL, 0, 0};
  rng      r;

  clear(A);
  if (n < 1 || per_row < 1 || per_row > n) return MATGEN_ERR_ARG;
  if (n > INT32_MAX) return MATGEN_ERR_SIZE;
  rowptr = (int64_t *)malloc((size_t)(n + 1) * sizeof(*rowptr));
  row    = (int32_t *)malloc((size_t)per_row * 2 * sizeof(*row));
  if (!rowptr || !row || colbuf_reserve(&b, n * per_row)) {
    free(rowptr);
    free(row);
    free(b.col);
    return MATGEN_ERR_MEM;
  }
  rng_seed(&r, seed);
  rowptr[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t len = 0;
    while (len < per_row) { /* draw the missing columns again until the row has per_row distinct ones */
      while (len < per_row) row[len++] = (int32_t)rng_below(&r, n);
      len = sort_unique(row, len);
    }
    memcpy(b.col + b.n, row, (size_t)len * sizeof(*row));
    b.n += len;
    rowptr[i + 1] = b.n;
  }
  free(row);
  return finish(n, n, rowptr, &b, VALUES_DOMINANT, 0.0, A);
}

/* ---------------------------------------------------------------- the suite */

const char *const matgen_class_names[3] = {"regular", "irregular", "small"};

static const matgen_info suite[] = {
  {"lap2d", MATGEN_REGULAR, 2048, "grid points per side", "2-D 5-point Laplacian, n x n grid (2048: 4.2M rows)"},
  {"lap3d", MATGEN_REGULAR, 160, "grid points per side", "3-D 7-point Laplacian, n^3 grid (160: 4.1M rows)"},
  {"lap3d40", MATGEN_SMALL, 40, "grid points per side", "3-D 7-point Laplacian, small (40: 64k rows)"},
  {"box27", MATGEN_REGULAR, 100, "grid points per side", "3-D 27-point stencil, n^3 grid (100: 1M rows)"},
  {"elast", MATGEN_REGULAR, 70, "nodes per side", "3-D elasticity-like, 3 dof per node, 27-point node stencil, 81 per interior row (70: 1.03M rows)"},
  {"rmat", MATGEN_IRREGULAR, 21, "scale (2^scale rows)", "R-MAT power-law graph, edge factor 16, a,b,c = 0.57,0.19,0.19, plus the diagonal (21: 2M rows)"},
  {"circuit", MATGEN_IRREGULAR, 1000000, "rows", "circuit-like: 3-8 entries near the diagonal, random couplings, 8 supply-net rows/columns of 20k-80k (1M rows)"},
  {"lp", MATGEN_IRREGULAR, 4096, "rows (columns: 256 x rows)", "LP-like: m x 256m, ~3500 entries per row at random columns (4096: 4096 x 1048576)"},
  {"random", MATGEN_IRREGULAR, 2000000, "rows", "uniform random: 33 entries per row at uniformly random columns (2M rows)"},
};

int matgen_suite_count(void)
{
  return (int)(sizeof(suite) / sizeof(suite[0]));
}

const matgen_info *matgen_suite(int i)
{
  return i >= 0 && i < matgen_suite_count() ? &suite[i] : NULL;
}

const matgen_info *matgen_find(const char *name)
{
  for (int i = 0; i < matgen_suite_count(); i++)
    if (!strcmp(suite[i].name, name)) return &suite[i];
  return NULL;
}

matgen_err matgen_generate(const char *name, int64_t size, matgen_csr *A)
{
  const matgen_info *info = matgen_find(name);
  const uint64_t     seed = 20261121; /* one fixed seed: every run and every program builds the same matrices */

  clear(A);
  if (!info || size < 0) return MATGEN_ERR_ARG;
  if (!size) size = info->size;
  if (!strcmp(name, "lap2d")) return matgen_stencil(2, size, 0, 1, 1, A);
  if (!strcmp(name, "lap3d") || !strcmp(name, "lap3d40")) return matgen_stencil(3, size, 0, 1, 1, A);
  if (!strcmp(name, "box27")) return matgen_stencil(3, size, 1, 1, 1, A);
  if (!strcmp(name, "elast")) return matgen_stencil(3, size, 1, 3, 0, A);
  if (!strcmp(name, "rmat")) return size > 30 ? MATGEN_ERR_ARG : matgen_rmat((int)size, 16, 0.57, 0.19, 0.19, seed, A);
  if (!strcmp(name, "circuit")) {
    int64_t hi = size / 12 < 80000 ? size / 12 : 80000, lo = hi / 4; /* 20k-80k, scaled down for small tests */
    return matgen_circuit(size, 8, lo > 0 ? lo : 1, hi > 0 ? hi : 1, seed, A);
  }
  if (!strcmp(name, "lp")) return matgen_lp(size, 256 * size, 256 * size / 8 < 3500 ? 256 * size / 8 : 3500, seed, A);
  if (!strcmp(name, "random")) return matgen_random(size, size < 33 ? size : 33, seed, A);
  return MATGEN_ERR_ARG;
}

/* ---------------------------------------------------------------- checks and references */

int64_t matgen_validate(const matgen_csr *A)
{
  if (A->nrows < 0 || A->ncols < 0 || !A->rowptr || A->rowptr[0] != 0 || A->rowptr[A->nrows] != A->nnz) return 1;
  for (int64_t i = 0; i < A->nrows; i++) {
    if (A->rowptr[i + 1] < A->rowptr[i]) return i + 1;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
      if (A->col[k] < 0 || A->col[k] >= A->ncols || (k > A->rowptr[i] && A->col[k] <= A->col[k - 1])) return i + 1;
  }
  return 0;
}

void matgen_spmv(const matgen_csr *A, const double *x, double *y)
{
  for (int64_t i = 0; i < A->nrows; i++) {
    double s = 0.0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) s += A->val[k] * x[A->col[k]];
    y[i] = s;
  }
}
