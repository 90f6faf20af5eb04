/*
   The diagonals of a matrix: the distinct offsets col - row of its entries.  Stencil and banded FEM
   matrices in natural order have a handful (5, 7, 27), which is what makes DIA pay: it stores a value
   per row and diagonal and no column index, 8 bytes per slot instead of CSR's 12 per entry.

   A small open-addressing set: the scan stops as soon as more than max distinct offsets are seen, so a
   matrix that is not banded costs a few rows, and a banded one one pass over its column indices.  In a
   banded matrix the k-th entry of a row mostly lies on the diagonal of the k-th entry of the row above:
   that offset is in the set already, and one comparison replaces the hashing, for blocks of rows at a
   time (a 5-point Laplacian of 4M rows: 25 ms to 11, then 7, on one core).
*/
#include "planbuild.h"

#include <stdlib.h>

#define SET_SLOTS 128 /* power of two, at least 2 * AIJT_DIA_MAX_DIAGS: probes stay short */

static int cmp_int(const void *a, const void *b)
{
  aijt_int x = *(const aijt_int *)a, y = *(const aijt_int *)b;
  return (x > y) - (x < y);
}

#define ROW_SLOTS AIJT_DIA_MAX_DIAGS /* a longer row has more diagonals than DIA takes */

/* Rows [r0, r1), all of length len, as is row r0 - 1, each repeat the offsets of the row above when every
   entry's column is one past the column len entries before it: one branch-free loop, which vectorizes. */
#define BLOCK_ROWS 64 /* a block that fails (a stencil's boundary) is looked at again row by row */

static int repeats_above(const aijt_csr *A, aijt_int r0, aijt_int r1, aijt_int len)
{
  const aijt_int *col = A->colidx;
  aijt_int        bad = 0;
  for (aijt_int k = A->rowptr[r0]; k < A->rowptr[r1]; k++) bad |= (col[k] - col[k - len]) ^ 1;
  return !bad;
}

/* The distinct offsets of rows [first, nrows), ascending; more than max: -1, or with 'enough' the first
   max met, row by row. */
static int scan(const aijt_csr *A, aijt_int first, int max, int enough, aijt_int *offsets)
{
  aijt_int set[SET_SLOTS], above[ROW_SLOTS], single = first + 1; /* rows before 'single': one by one */
  char     used[SET_SLOTS] = {0};
  int      n = 0, known = 0; /* above[0, known): offsets of the previous row's entries, all in the set */

  if (max > AIJT_DIA_MAX_DIAGS) max = AIJT_DIA_MAX_DIAGS;
  for (aijt_int r = first; r < A->nrows && !(enough && n == max); r++) {
    const aijt_int *col  = A->colidx + A->rowptr[r];
    const aijt_int  len  = A->rowptr[r + 1] - A->rowptr[r];
    int             same = len <= known;
    if (r >= single && r > 0 && len > 0 && A->rowptr[r] - A->rowptr[r - 1] == len) {
      aijt_int e = r + 1;
      while (e < A->nrows && e - r < BLOCK_ROWS && A->rowptr[e + 1] - A->rowptr[e] == len) e++;
      if (repeats_above(A, r, e, len)) { /* nothing new in rows [r, e), and above[] stays right */
        r = e - 1;
        continue;
      }
      single = e;
    }
    /* the whole row against the row above without a branch per entry: most rows of a band end here */
    for (aijt_int j = 0; j < len && j < known; j++) same &= col[j] - r == above[j];
    if (same) continue;
    for (aijt_int j = 0; j < len; j++) {
      aijt_int off = col[j] - r;
      if (j < known && off == above[j]) continue;
      unsigned h = ((unsigned)off * 2654435761u) & (SET_SLOTS - 1);
      while (used[h] && set[h] != off) h = (h + 1) & (SET_SLOTS - 1);
      if (!used[h]) {
        if (n == max) {
          if (enough) break;
          return -1;
        }
        used[h] = 1;
        set[h]  = off;
        n++;
      }
      if (j < ROW_SLOTS) above[j] = off;
    }
    /* entries matched from above keep their offsets: above[j] stays right for every j < len */
    known = len < ROW_SLOTS ? (int)len : ROW_SLOTS;
  }
  n = 0;
  for (int h = 0; h < SET_SLOTS; h++)
    if (used[h]) offsets[n++] = set[h];
  qsort(offsets, (size_t)n, sizeof(aijt_int), cmp_int);
  return n;
}

int aijt_diagonals(const aijt_csr *A, int max, aijt_int *offsets)
{
  return scan(A, 0, max, 0, offsets);
}

/* From the middle row on first: a stencil's first rows are its boundary, which lacks diagonals (lap3d's
   first 25600 rows lack the offset +n^2), its middle rows hold them all.  A matrix of exactly n
   diagonals gives them all either way; one of more (another pattern) gives n of them, which its layout
   then finds wrong. */
int aijt_diagonals_first(const aijt_csr *A, int n, aijt_int *offsets)
{
  const int found = A->nrows > 1 ? scan(A, A->nrows / 2, n, 1, offsets) : 0;
  return found == (n > AIJT_DIA_MAX_DIAGS ? AIJT_DIA_MAX_DIAGS : n) ? found : scan(A, 0, n, 1, offsets);
}
