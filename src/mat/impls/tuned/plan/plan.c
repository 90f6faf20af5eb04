/* Plans as plain data: names, checks, comparison and printing. */
#include "aijtplan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *const aijt_format_names[AIJT_NFORMATS] = {"csr", "long", "ell", "sell", "coo", "dia", "panel", "stream", "bcsr"};

const char *aijt_err_string(aijt_err err)
{
  switch (err) {
  case AIJT_OK:
    return "no error";
  case AIJT_ERR_MEM:
    return "out of memory";
  case AIJT_ERR_ARG:
    return "inconsistent matrix or argument";
  case AIJT_ERR_OVERFLOW:
    return "padded layout does not fit the index type";
  case AIJT_ERR_FORMAT:
    return "unknown or disallowed format";
  case AIJT_ERR_DEVICE:
    return "a GPU call failed";
  }
  return "unknown error";
}

aijt_err aijt_format_from_name(const char *name, aijt_format *format)
{
  for (int f = 0; f < AIJT_NFORMATS; f++) {
    const char *a = name, *b = aijt_format_names[f];
    while (*a && *b && tolower((unsigned char)*a) == *b) a++, b++;
    if (!*a && !*b) {
      *format = (aijt_format)f;
      return AIJT_OK;
    }
  }
  return AIJT_ERR_FORMAT;
}

void aijt_plan_destroy(aijt_plan **plan)
{
  if (!plan || !*plan) return;
  free((*plan)->order);
  free((*plan)->col_pos);
  free((*plan)->strips);
  free(*plan);
  *plan = NULL;
}

aijt_int aijt_plan_row(const aijt_plan *plan, aijt_int k)
{
  return plan->order ? plan->order[k] : k;
}

/* AIJT_OK when p[0..n) is a permutation of [0, n). */
static aijt_err check_permutation(const aijt_int *p, aijt_int n)
{
  unsigned char *seen = (unsigned char *)calloc((size_t)n + 1, 1);
  aijt_err       err  = seen ? AIJT_OK : AIJT_ERR_MEM;

  for (aijt_int k = 0; !err && k < n; k++) {
    if (p[k] < 0 || p[k] >= n || seen[p[k]]) err = AIJT_ERR_ARG;
    else seen[p[k]] = 1;
  }
  free(seen);
  return err;
}

/* Strips tile [0, nrows) in order, the orders are permutations, and the counts add up. */
aijt_err aijt_plan_check(const aijt_plan *plan, const aijt_csr *A)
{
  aijt_int next = 0, nnz = 0, tail = 0;
  aijt_err err;

  if (plan->nrows != A->nrows || plan->ncols != A->ncols) return AIJT_ERR_ARG;
  for (int s = 0; s < plan->nstrips; s++) {
    const aijt_strip *S   = &plan->strips[s];
    aijt_int          cnt = 0;
    if (S->begin != next || S->end <= S->begin || (unsigned)S->format >= AIJT_NFORMATS) return AIJT_ERR_ARG;
    for (aijt_int k = S->begin; k < S->end; k++) {
      aijt_int r = aijt_plan_row(plan, k);
      cnt += A->rowptr[r + 1] - A->rowptr[r];
    }
    if (cnt != S->nnz + S->tail_nnz) return AIJT_ERR_ARG;
    if (S->format == AIJT_CSR && !aijt_tpr_valid(S->tpr)) return AIJT_ERR_ARG;
    if (S->format == AIJT_DIA && (plan->order || plan->col_pos || S->width < 0 || S->width > AIJT_DIA_MAX_DIAGS)) return AIJT_ERR_ARG;
    if (S->format == AIJT_PANEL && (plan->order || plan->col_pos || S->width < 1 || S->width > AIJT_PANEL_WIDTH || S->chunk < 1 || !aijt_tpr_valid(S->tpr))) return AIJT_ERR_ARG;
    if (S->format == AIJT_STREAM && (plan->order || plan->col_pos || S->max_len > AIJT_STREAM_MAX_LEN || (S->tpr != 1 && S->tpr != 4))) return AIJT_ERR_ARG;
    if (S->format == AIJT_BCSR && (plan->order || plan->col_pos || S->width < 2 || S->width > AIJT_BCSR_MAX_BS || S->begin % S->width || S->end % S->width || !aijt_tpr_valid(S->tpr))) return AIJT_ERR_ARG;
    next = S->end;
    nnz += S->nnz;
    tail += S->tail_nnz;
  }
  if (next != plan->nrows || nnz + tail != plan->nnz || tail != plan->tail_nnz) return AIJT_ERR_ARG;
  if (plan->col_pos && (plan->col_hot < 1 || plan->col_hot > plan->ncols || plan->ncols > AIJT_INT_MAX - plan->col_hot)) return AIJT_ERR_ARG;
  if (plan->col_pos && (err = check_permutation(plan->col_pos, plan->ncols))) return err;
  if (plan->order && (err = check_permutation(plan->order, plan->nrows))) return err;
  return AIJT_OK;
}

int aijt_plan_equal(const aijt_plan *a, const aijt_plan *b)
{
  if (a->nrows != b->nrows || a->ncols != b->ncols || a->nnz != b->nnz || a->nstrips != b->nstrips || a->tail_nnz != b->tail_nnz) return 0;
  for (int s = 0; s < a->nstrips; s++)
    if (memcmp(&a->strips[s], &b->strips[s], sizeof(aijt_strip))) return 0;
  for (aijt_int k = 0; k < a->nrows; k++)
    if (aijt_plan_row(a, k) != aijt_plan_row(b, k)) return 0;
  if (!a->col_pos != !b->col_pos || (a->col_pos && a->col_hot != b->col_hot)) return 0;
  for (aijt_int j = 0; a->col_pos && j < a->ncols; j++)
    if (a->col_pos[j] != b->col_pos[j]) return 0;
  return 1;
}

size_t aijt_strip_describe(const aijt_strip *s, char *buf, size_t len)
{
  int n = snprintf(buf, len, "rows [%lld, %lld) %lld rows, nnz %lld, max row %lld: %-4s", (long long)s->begin, (long long)s->end, (long long)(s->end - s->begin), (long long)s->nnz, (long long)s->max_len, aijt_format_names[s->format]);
  if (n < 0) return 0;
  size_t used = (size_t)n, rest = used < len ? len - used : 0;
  char  *p    = buf ? buf + (used < len ? used : len) : NULL;
  switch (s->format) {
  case AIJT_CSR:
    n = snprintf(p, rest, " threads/row %d, block %d", s->tpr, s->block);
    break;
  case AIJT_LONG:
    n = snprintf(p, rest, " blocks/row %d, block %d", s->blocks_per_row, s->block);
    break;
  case AIJT_ELL:
    n = snprintf(p, rest, " width %lld, tail %lld, block %d", (long long)s->width, (long long)s->tail_nnz, s->block);
    break;
  case AIJT_SELL:
    n = snprintf(p, rest, " C %d, sigma %d, block %d", s->chunk, s->sigma, s->block);
    break;
  case AIJT_COO:
    n = snprintf(p, rest, " in tail %lld", (long long)s->tail_nnz);
    break;
  case AIJT_DIA:
    n = snprintf(p, rest, " diagonals %lld, block %d", (long long)s->width, s->block);
    break;
  case AIJT_PANEL:
    n = snprintf(p, rest, " panels of %lld columns, threads/row %d, rows/block %d, block %d", (long long)s->width, s->tpr, s->chunk, s->block);
    break;
  case AIJT_STREAM:
    n = snprintf(p, rest, " row blocks of %d entries, threads/row %d, block %d", AIJT_STREAM_SHARE, s->tpr, s->block);
    break;
  case AIJT_BCSR:
    n = snprintf(p, rest, " blocks of %lld x %lld, threads/block row %d, block %d", (long long)s->width, (long long)s->width, s->tpr, s->block);
    break;
  default:
    n = 0;
  }
  used += n > 0 ? (size_t)n : 0;
  if (s->predicted_us > 0) {
    rest = used < len ? len - used : 0;
    n    = snprintf(buf ? buf + (used < len ? used : len) : NULL, rest, ", predicted %.3g us", s->predicted_us);
    used += n > 0 ? (size_t)n : 0;
  }
  if (s->tuned_us > 0) {
    rest = used < len ? len - used : 0;
    n    = snprintf(buf ? buf + (used < len ? used : len) : NULL, rest, ", tuned %.3g us", s->tuned_us);
    used += n > 0 ? (size_t)n : 0;
  }
  return used;
}

void aijt_plan_print(const aijt_plan *plan, FILE *fp)
{
  char line[256];
  const aijt_features *f = &plan->features;
  fprintf(fp, "plan: %lld x %lld, nnz %lld, %s", (long long)plan->nrows, (long long)plan->ncols, (long long)plan->nnz, plan->sorted ? "rows sorted by length" : "rows in natural order");
  if (plan->col_pos) fprintf(fp, ", columns by degree (%lld hot)", (long long)plan->col_hot);
  fprintf(fp, ", %d strips, COO tail %lld\n", plan->nstrips, (long long)plan->tail_nnz);
  fprintf(fp, "  row lengths: min %lld, mean %.3g, std %.3g, max %lld, empty rows %lld\n", (long long)f->min_len, f->mean_len, f->std_len, (long long)f->max_len, (long long)f->empty_rows);
  for (int s = 0; s < plan->nstrips; s++) {
    aijt_strip_describe(&plan->strips[s], line, sizeof(line));
    fprintf(fp, "  strip %d: %s\n", s, line);
  }
}

int aijt_plan_empty_tail(const aijt_plan *plan)
{
  int n = 0;
  for (int s = plan->nstrips - 1; s >= 0 && plan->strips[s].max_len == 0 && !plan->strips[s].tail_nnz && plan->strips[s].format != AIJT_COO; s--) n++;
  return n;
}

void aijt_plan_summary(const aijt_plan *plan, aijt_int nstrips[AIJT_NFORMATS], aijt_int rows[AIJT_NFORMATS], aijt_int nnz[AIJT_NFORMATS])
{
  for (int f = 0; f < AIJT_NFORMATS; f++) nstrips[f] = rows[f] = nnz[f] = 0;
  for (int s = 0; s < plan->nstrips; s++) {
    const aijt_strip *S = &plan->strips[s];
    nstrips[S->format]++;
    rows[S->format] += S->end - S->begin;
    nnz[S->format] += S->nnz;
  }
  nnz[AIJT_COO] = plan->tail_nnz; /* COO strips and the excess of HYB strips */
}
