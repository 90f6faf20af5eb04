/*
   matgen: the benchmark suite's sparse matrices, generated in plain C (no PETSc), so that every
   benchmark program, and a check that needs nothing but a C compiler, builds the same matrices.

   A matrix is CSR with 64-bit row offsets (the largest has ~80M entries, and offsets of that size are
   one step from overflowing int32 when sizes are raised), 32-bit column indices (what cuSPARSE and
   PETSc's default build use) and double values.  Within each row the columns are strictly increasing:
   sorted, without duplicates.

   Values are reproducible: structure comes from a fixed-seed xorshift stream, values from a hash of
   (row, column).  The stencils carry their operator's coefficients (-1 off the diagonal, the number of
   neighbours on it: an SPD Poisson matrix for CG).  Every other matrix gets off-diagonal values
   -h(i, j), h in [0.5, 1.5) and symmetric in (i, j), and a diagonal entry, where present, of
   1 + the row's sum of |off-diagonal|: strictly diagonally dominant, so Jacobi-preconditioned Krylov
   methods converge on it, and symmetric positive definite where the pattern is symmetric (elasticity).
*/
#pragma once

#include <stddef.h>
#include <stdint.h>

typedef struct {
  int64_t  nrows, ncols, nnz;
  int64_t *rowptr; /* nrows + 1 */
  int32_t *col;    /* nnz, strictly increasing within each row */
  double  *val;    /* nnz */
  int      bs;     /* the unknowns per node (rows and columns come in whole bs x bs blocks), 0: none; what an
                      application gives PETSc with MatSetBlockSize */
} matgen_csr;

typedef enum {
  MATGEN_OK = 0,
  MATGEN_ERR_MEM,  /* an allocation failed; the output matrix is left empty */
  MATGEN_ERR_ARG,  /* unknown name or a size out of range */
  MATGEN_ERR_SIZE, /* the matrix would not fit 32-bit column indices */
} matgen_err;

/* The suite's groups as the issues name them: the regular matrices are "the four stencil/FEM ones", the
   irregular four as listed, and the small 3-D stencil stands apart (a launch, not the memory, sets its time). */
typedef enum {
  MATGEN_REGULAR,   /* stencils and stencil-like blocks at sizes that fill the device */
  MATGEN_IRREGULAR, /* power law, circuit, LP, random */
  MATGEN_SMALL      /* a stencil small enough that a product costs about a launch */
} matgen_class;

extern const char *const matgen_class_names[3]; /* "regular", "irregular", "small" */

/* One entry of the suite: matgen_generate(name, size) builds it; size 0 means the default. */
typedef struct {
  const char  *name;
  matgen_class cls;
  int64_t      size;      /* default size parameter */
  const char  *size_is;   /* what the size parameter is */
  const char  *describe;  /* one line, for -help and the README */
} matgen_info;

int                matgen_suite_count(void);
const matgen_info *matgen_suite(int i);
const matgen_info *matgen_find(const char *name);
matgen_err         matgen_generate(const char *name, int64_t size, matgen_csr *A);

/* The generators behind the suite. */
matgen_err matgen_stencil(int dim, int64_t n, int box, int dof, int operator_values, matgen_csr *A); /* n^dim grid, star (2*dim+1) or box (3^dim) stencil, dof unknowns per node */
matgen_err matgen_rmat(int scale, int edge_factor, double a, double b, double c, uint64_t seed, matgen_csr *A);
matgen_err matgen_circuit(int64_t n, int nets, int64_t net_min, int64_t net_max, uint64_t seed, matgen_csr *A);
matgen_err matgen_lp(int64_t m, int64_t n, int64_t per_row, uint64_t seed, matgen_csr *A);
matgen_err matgen_random(int64_t n, int64_t per_row, uint64_t seed, matgen_csr *A);

void        matgen_free(matgen_csr *A);
const char *matgen_strerror(matgen_err err);

/* Structural check: sizes, offsets, columns in range and strictly increasing; 0 if valid, else the first bad row + 1. */
int64_t matgen_validate(const matgen_csr *A);

/* y = A x on the host (references, right-hand sides). */
void matgen_spmv(const matgen_csr *A, const double *x, double *y);

/* Reproducible value in [-1, 1) for index i: vectors that every program builds alike. */
double matgen_unit(uint64_t seed, int64_t i);
