/* The performance model: its file, its interpolation, the locality feature and plan predictions. */
#include "aijtmodel.h"
#include "planbuild.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void aijt_say(char *why, size_t len, const char *fmt, ...)
{
  va_list ap;
  if (!why || !len) return;
  va_start(ap, fmt);
  vsnprintf(why, len, fmt, ap);
  va_end(ap);
}

const aijt_model_kernel *aijt_model_kernel_find(const aijt_model *m, aijt_format f, int param)
{
  for (int i = 0; m && i < m->nkernels; i++)
    if (m->kernels[i].format == f && m->kernels[i].param == param) return &m->kernels[i];
  return NULL;
}

aijt_model_kernel *aijt_model_kernel_add(aijt_model *m, aijt_format f, int param)
{
  if (m->nkernels == AIJT_MODEL_MAX_KERNELS) return NULL;
  aijt_model_kernel *k = &m->kernels[m->nkernels++];
  memset(k, 0, sizeof(*k));
  k->format = f;
  k->param  = param;
  return k;
}

/* A kernel's table must be usable: lengths increasing, times positive. */
static int kernel_ok(const aijt_model_kernel *k)
{
  if (k->npoints < 1) return 0;
  for (int j = 0; j < k->npoints; j++) {
    if (!(k->local_ns[j] > 0) || !(k->random_ns[j] > 0) || !(k->len[j] >= 1) || !(k->crit_us[j] >= 0)) return 0;
    if (j && !(k->len[j] > k->len[j - 1])) return 0;
  }
  return k->overhead_us >= 0;
}

aijt_err aijt_model_read(FILE *fp, aijt_model *m, char *why, size_t whylen)
{
  char               line[512];
  int                lineno = 0, version = 0;
  aijt_model_kernel *k      = NULL;

  memset(m, 0, sizeof(*m));
  aijt_say(why, whylen, "no error");
  while (fgets(line, sizeof(line), fp)) {
    char   word[32], name[32];
    int    param;
    double a, b, c, d, e, f;
    lineno++;
    if (line[0] == '#' || line[0] == '\n') continue;
    if (sscanf(line, "%31s", word) != 1) continue;
    if (lineno == 1 || !version) {
      if (sscanf(line, "aijtuned-model %d", &version) != 1) {
        aijt_say(why, whylen, "line %d: not an aijtuned model file", lineno);
        return AIJT_ERR_ARG;
      }
      if (version != AIJT_MODEL_VERSION) {
        aijt_say(why, whylen, "model version %d, this build reads version %d", version, AIJT_MODEL_VERSION);
        return AIJT_ERR_ARG;
      }
      m->version = version;
    } else if (!strcmp(word, "device")) {
      char *v = line + strlen("device");
      while (*v == ' ' || *v == '\t') v++;
      v[strcspn(v, "\r\n")] = 0;
      size_t n = strlen(v) < sizeof(m->device) - 1 ? strlen(v) : sizeof(m->device) - 1; /* a longer name is cut */
      memcpy(m->device, v, n);
      m->device[n] = 0;
    } else if (!strcmp(word, "launch_us") && sscanf(line, "%*s %lf", &a) == 1) m->launch_us = a;
    else if (!strcmp(word, "strip_us") && sscanf(line, "%*s %lf", &a) == 1) m->strip_us = a;
    else if (!strcmp(word, "long_entry_ns") && sscanf(line, "%*s %lf", &a) == 1) m->long_entry_ns = a;
    else if (!strcmp(word, "kernel") && sscanf(line, "%*s %31s %d %lf", name, &param, &a) == 3) {
      aijt_format f;
      if (k) {
        aijt_say(why, whylen, "line %d: kernel inside kernel (missing end)", lineno);
        return AIJT_ERR_ARG;
      }
      if (aijt_format_from_name(name, &f) != AIJT_OK || aijt_model_kernel_find(m, f, param) || !(k = aijt_model_kernel_add(m, f, param))) {
        aijt_say(why, whylen, "line %d: unknown, repeated or one kernel too many: %s %d", lineno, name, param);
        return AIJT_ERR_ARG;
      }
      k->overhead_us = a;
    } else if (!strcmp(word, "point") && k && sscanf(line, "%*s %lf %lf %lf %lf %lf %lf", &a, &b, &c, &d, &e, &f) == 6) {
      if (k->npoints == AIJT_MODEL_MAX_POINTS) {
        aijt_say(why, whylen, "line %d: more than %d points", lineno, AIJT_MODEL_MAX_POINTS);
        return AIJT_ERR_ARG;
      }
      k->len[k->npoints]       = a;
      k->local_ns[k->npoints]  = b;
      k->random_ns[k->npoints] = c;
      k->d_local[k->npoints]   = d;
      k->d_random[k->npoints]  = e;
      k->crit_us[k->npoints]   = f;
      k->npoints++;
    } else if (!strcmp(word, "end") && k) {
      if (!kernel_ok(k)) {
        aijt_say(why, whylen, "line %d: kernel %s %d has no usable points", lineno, aijt_format_names[k->format], k->param);
        return AIJT_ERR_ARG;
      }
      k = NULL;
    } else {
      aijt_say(why, whylen, "line %d: cannot read \"%.60s\"", lineno, line);
      return AIJT_ERR_ARG;
    }
  }
  if (!version || k || !m->nkernels) {
    aijt_say(why, whylen, "%s", !version ? "empty file" : k ? "last kernel has no end" : "no kernels");
    return AIJT_ERR_ARG;
  }
  return AIJT_OK;
}

aijt_err aijt_model_load(const char *path, aijt_model *m, char *why, size_t whylen)
{
  FILE *fp = fopen(path, "r");
  if (!fp) {
    aijt_say(why, whylen, "cannot open %s", path);
    return AIJT_ERR_ARG;
  }
  aijt_err err = aijt_model_read(fp, m, why, whylen);
  fclose(fp);
  return err;
}

void aijt_model_write(const aijt_model *m, FILE *fp)
{
  fprintf(fp, "aijtuned-model %d\n", AIJT_MODEL_VERSION);
  fprintf(fp, "device %s\n", m->device);
  fprintf(fp, "launch_us %.4g\nstrip_us %.4g\nlong_entry_ns %.4g\n", m->launch_us, m->strip_us, m->long_entry_ns);
  for (int i = 0; i < m->nkernels; i++) {
    const aijt_model_kernel *k = &m->kernels[i];
    fprintf(fp, "kernel %s %d %.4g\n", aijt_format_names[k->format], k->param, k->overhead_us);
    for (int j = 0; j < k->npoints; j++) fprintf(fp, "point %g %.5g %.5g %.4f %.4f %.4g\n", k->len[j], k->local_ns[j], k->random_ns[j], k->d_local[j], k->d_random[j], k->crit_us[j]);
    fprintf(fp, "end\n");
  }
}

/* Linear interpolation of table t at length len between points j and j + 1 (w the weight of j + 1). */
static double lerp(const double *t, int j, double w)
{
  return w == 0 ? t[j] : t[j] + w * (t[j + 1] - t[j]);
}

/* Where len falls in k's table: points j and j + 1 with weight w of j + 1; 0 when k was not measured there.
   near: NULL, or where the caller's last lookup in k stopped, walked from point by point (lookups of lengths in
   order cross few points each); then where this one stops.  Either way j is the last point at or below len. */
static int locate(const aijt_model_kernel *k, double len, int *j, double *w, int *near)
{
  const int n = k->npoints;

  *j = 0;
  *w = 0;
  if (len < 1) len = 1; /* an empty row still writes its y */
  /* measured from len[0]: shorter rows cost a row of len[0] where that is a row or two, else unknown */
  if (len < k->len[0]) return k->len[0] <= 2;
  if (len >= k->len[n - 1]) {
    /* past the table: linear in the entries from the last two points; LONG rows have no upper end */
    if (k->format != AIJT_LONG && len > 2 * k->len[n - 1]) return 0;
    *j = n > 1 ? n - 2 : 0;
    *w = n > 1 ? (len - k->len[*j]) / (k->len[*j + 1] - k->len[*j]) : 0;
    return 1;
  }
  /* len[0] <= len < len[n - 1]: the last point at or below len, in [0, n - 2] */
  if (near) {
    int q = *near < 0 ? 0 : *near > n - 2 ? n - 2 : *near;
    while (q > 0 && k->len[q] > len) q--;
    while (q < n - 2 && k->len[q + 1] <= len) q++;
    *j = *near = q;
  } else { /* halving */
    int hi = n - 1;
    while (hi - *j > 1) {
      int mid = (*j + hi) / 2;
      if (k->len[mid] <= len) *j = mid;
      else hi = mid;
    }
  }
  *w = (len - k->len[*j]) / (k->len[*j + 1] - k->len[*j]);
  return 1;
}

void aijt_model_at_len_near(const aijt_model_kernel *k, double len, int *near, aijt_model_at *a)
{
  int    j;
  double w;

  memset(a, 0, sizeof(*a));
  if (!(a->known = locate(k, len, &j, &w, near))) return;
  a->lo   = lerp(k->local_ns, j, w);
  a->hi   = lerp(k->random_ns, j, w);
  a->dl   = lerp(k->d_local, j, w);
  a->dr   = lerp(k->d_random, j, w);
  a->crit = lerp(k->crit_us, j, w);
}

void aijt_model_at_len(const aijt_model_kernel *k, double len, aijt_model_at *a)
{
  aijt_model_at_len_near(k, len, NULL, a);
}

/* The time at locality d on the reading's line: linear in d between its clamps (known readings). */
static double at_locality(const aijt_model_at *a, double d)
{
  double f = a->dr > a->dl ? (d - a->dl) / (a->dr - a->dl) : 0;
  f        = f < 0 ? 0 : f > 1 ? 1 : f;
  return a->lo + f * (a->hi - a->lo);
}

double aijt_model_at_row_ns(const aijt_model_at *a, double d)
{
  if (!a->known) return -1;
  const double ns = at_locality(a, d);
  return ns > 0 ? ns : (a->lo > 0 ? a->lo : -1);
}

double aijt_model_at_row_ns_min(const aijt_model_at *a)
{
  if (!a->known) return -1;
  return a->lo > 0 && a->hi > 0 ? (a->lo < a->hi ? a->lo : a->hi) : 0; /* past the table a line may fall below zero: no bound but 0 */
}

/* The time is linear in the locality between its clamps, so where it is above zero at both ends it is
   least at one of them. */
double aijt_model_at_row_ns_least(const aijt_model_at *a, double dlo, double dhi)
{
  if (!a->known) return -1;
  const double l = at_locality(a, dlo), h = at_locality(a, dhi);
  return l > 0 && h > 0 ? fmin(l, h) : 0; /* a line that falls below zero in the range: no bound but 0 */
}

double aijt_model_at_crit_us(const aijt_model_at *a)
{
  return a->known && a->crit > 0 ? a->crit : 0;
}

double aijt_model_row_ns(const aijt_model_kernel *k, double len, double d)
{
  aijt_model_at a;
  aijt_model_at_len(k, len, &a);
  return aijt_model_at_row_ns(&a, d);
}

void aijt_model_prefetch(const aijt_model *m)
{
#if defined(__GNUC__)
  for (int q = 0; q < m->nkernels; q++) {
    const aijt_model_kernel *k     = &m->kernels[q];
    const double            *a[6]  = {k->len, k->local_ns, k->random_ns, k->d_local, k->d_random, k->crit_us};
    const int                lines = (k->npoints * (int)sizeof(double) + 63) / 64;
    for (int t = 0; t < 6; t++)
      for (int l = 0; l < lines; l++) __builtin_prefetch((const char *)a[t] + 64 * l);
  }
#else
  (void)m;
#endif
}

double aijt_model_row_ns_min(const aijt_model_kernel *k, double len)
{
  aijt_model_at a;
  aijt_model_at_len(k, len, &a);
  return aijt_model_at_row_ns_min(&a);
}

double aijt_model_crit_us(const aijt_model_kernel *k, double len)
{
  aijt_model_at a;
  aijt_model_at_len(k, len, &a);
  return aijt_model_at_crit_us(&a);
}

double aijt_model_long_crit_us(const aijt_model *m, double max_len, int parts)
{
  return max_len / (parts > 0 ? parts : 1) * m->long_entry_ns * 1e-3;
}

/* Distinct values among n <= AIJT_LOCALITY_WINDOW: an open-addressing set of four times that many slots
   (sorting each window cost R-MAT's planning 8 ms in qsort's comparisons). */
#define SECTOR_SLOTS (4 * AIJT_LOCALITY_WINDOW)

static double distinct_sectors(const aijt_int *buf, int n)
{
  aijt_int key[SECTOR_SLOTS];
  char     used[SECTOR_SLOTS] = {0};
  int      distinct           = 0;

  for (int i = 0; i < n; i++) {
    unsigned h = (unsigned)(((uint64_t)buf[i] * 0x9E3779B97F4A7C15ull) >> 54) & (SECTOR_SLOTS - 1);
    while (used[h] && key[h] != buf[i]) h = (h + 1) & (SECTOR_SLOTS - 1);
    if (!used[h]) used[h] = 1, key[h] = buf[i], distinct++;
  }
  return (double)distinct;
}

/* A place among the entries of plan positions [k, end): row k, whose first entry is entry 'before' of the
   range.  With count (rows sorted by length, aijt_length_counts), rows [k, run_end) have length len and
   whole runs are stepped over; without, row by row. */
typedef struct {
  const aijt_csr *A;
  const aijt_int *order, *count;
  aijt_int        k, end, len, run_end;
  int64_t         before;
} cursor;

static aijt_int row_len(const cursor *c, aijt_int k)
{
  aijt_int r = c->order ? c->order[k] : k;
  return c->A->rowptr[r + 1] - c->A->rowptr[r];
}

/* The next shorter rows after run [.., run_end) */
static void next_run(cursor *c)
{
  c->len = aijt_count_prev(c->count, c->len - 1);
  if (c->len < 0) c->k = c->run_end = c->end; /* no rows left (a range longer than the counts: stop) */
  else c->run_end += c->count[c->len];
}

/* Move to the row that holds entry pos (pos at least the cursor's 'before'). */
static void seek(cursor *c, int64_t pos)
{
  while (c->k < c->end) {
    if (!c->count) {
      aijt_int len = row_len(c, c->k);
      if (c->before + len > pos) return;
      c->before += len;
      c->k++;
      continue;
    }
    if (c->k >= c->run_end) {
      next_run(c);
      continue;
    }
    int64_t in_run = (int64_t)(c->run_end - c->k) * c->len;
    if (c->before + in_run > pos) { /* here: skip whole rows of this length */
      aijt_int q = (aijt_int)((pos - c->before) / c->len);
      c->k += q;
      c->before += (int64_t)q * c->len;
      return;
    }
    c->before += in_run;
    c->k = c->run_end;
  }
}

/* Window w starts at entry w total / nwin, or where window w - 1 ended if that is later; the last may
   be cut short by the range's end. */
static int place(cursor *c, int64_t total, int max_windows, aijt_window *w)
{
  int64_t at = 0;
  int     nwin = (int)(total / AIJT_LOCALITY_WINDOW), n = 0;

  if (!total) return 0;
  if (nwin > max_windows) nwin = max_windows;
  if (nwin < 1) nwin = 1;
  for (int q = 0; q < nwin; q++) {
    int64_t start = (int64_t)((double)q * (double)total / (double)nwin);
    if (start < at) start = at;
    if (start >= total) break;
    seek(c, start);
    w[n].k = c->k;
    w[n].e = (aijt_int)(start - c->before);
    w[n].n = (int)(total - start < AIJT_LOCALITY_WINDOW ? total - start : AIJT_LOCALITY_WINDOW);
    at     = start + w[n].n;
    if (w[n++].n < AIJT_LOCALITY_WINDOW) break;
  }
  return n;
}

int aijt_window_sectors(const aijt_csr *A, const aijt_int *order, const aijt_window *w)
{
  aijt_int        buf[AIJT_LOCALITY_WINDOW];
  const aijt_int *pos  = A->col_pos;
  int             fill = 0;

  for (aijt_int k = w->k, e = w->e; k < A->nrows && fill < w->n; k++, e = 0) {
    aijt_int r = order ? order[k] : k, a = A->rowptr[r], len = A->rowptr[r + 1] - a;
    while (e < len && fill < w->n) { /* 4 doubles to a 32-byte sector */
      aijt_int col = A->colidx[a + e++];
      buf[fill++]  = (pos ? aijt_col_label(pos, A->col_hot, col) : col) >> 2;
    }
  }
  return (int)distinct_sectors(buf, fill);
}

double aijt_locality_of(const aijt_window *w, const int *distinct, int n)
{
  double sectors = 0, entries = 0;
  for (int q = 0; q < n; q++) {
    sectors += distinct[q];
    entries += w[q].n;
  }
  return entries > 0 ? sectors / entries : 0;
}

#define MAX_WINDOWS 64 /* callers ask for 8 or 16 */

double aijt_locality(const aijt_csr *A, const aijt_int *order, aijt_int begin, aijt_int end, int max_windows)
{
  cursor      c     = {A, order, NULL, begin, end, 0, 0, 0};
  int64_t     total = 0;
  aijt_window w[MAX_WINDOWS];
  int         distinct[MAX_WINDOWS], n;

  for (aijt_int k = begin; k < end; k++) total += row_len(&c, k);
  n = place(&c, total, max_windows < MAX_WINDOWS ? max_windows : MAX_WINDOWS, w);
  for (int q = 0; q < n; q++) distinct[q] = aijt_window_sectors(A, order, &w[q]);
  return aijt_locality_of(w, distinct, n);
}

int aijt_locality_windows(const aijt_int *count, aijt_int begin, aijt_int end, aijt_int first_len, int64_t total, int max_windows, aijt_window *w)
{
  cursor c = {NULL, NULL, count, begin, end, first_len, begin + count[first_len], 0};
  return place(&c, total, max_windows, w);
}

/* The model's fastest streaming rate, ns per byte: over the CSR kernels' local points of rows of 64
   entries and more, a row's bytes (12 per entry; 16 for its offset, row index and y) over its time. */
static double stream_ns_per_byte(const aijt_model *m)
{
  double best = -1;
  for (int i = 0; i < m->nkernels; i++) {
    const aijt_model_kernel *k = &m->kernels[i];
    if (k->format != AIJT_CSR) continue;
    for (int j = 0; j < k->npoints; j++) {
      double r = k->local_ns[j] / (12.0 * k->len[j] + 16.0);
      if (k->len[j] >= 64 && k->local_ns[j] > 0 && (best < 0 || r < best)) best = r;
    }
  }
  return best;
}

/* PANEL is priced by what it streams, at the model's fastest streaming rate: its entries (12 bytes each),
   for each row and panel an offset, a partial sum written and read again (20 bytes), and each block's
   panel of x; then one more launch, the pass that adds the partial sums.  x itself costs no gathers:
   it is read from shared memory.  The CSR points are no guide here: at LP's 21 entries per row and
   panel they predicted 113 us where the kernel ran in 73 (bench/results/2026-11-21-h200-panel-experiment),
   because their short rows gather x through the caches. */
double aijt_panel_work_us(const aijt_model *m, const aijt_strip *S, aijt_int ncols)
{
  const double np     = (double)aijt_panel_count(ncols, S->width);
  const double nrows  = (double)(S->end - S->begin), parts = nrows * np;
  const double blocks = np * ceil(nrows / (double)(S->chunk > 0 ? S->chunk : 1));
  const double rate   = stream_ns_per_byte(m);

  if (rate < 0) return -1;
  if (parts <= 0) return 0;
  return rate * (12.0 * (double)S->nnz + 20.0 * parts + 8.0 * (double)S->width * blocks) * 1e-3 + m->launch_us;
}

/* Work of a strip with the device full (us), and its time alone (us); -1 when the model lacks the kernel. */
static double strip_work_us(const aijt_model *m, const aijt_csr *A, const aijt_plan *plan, const aijt_strip *S, double *alone)
{
  int                      param = S->format == AIJT_CSR || S->format == AIJT_STREAM ? S->tpr : S->format == AIJT_SELL ? S->chunk : S->format == AIJT_BCSR ? (int)S->width : 0;
  const aijt_model_kernel *k     = aijt_model_kernel_find(m, S->format == AIJT_COO ? AIJT_COO : S->format, param);
  const aijt_csr           Ap    = {A->nrows, A->ncols, A->rowptr, A->colidx, A->values, plan->col_pos, plan->col_hot, A->bs}; /* columns as the strips read them */
  double                   d     = S->format == AIJT_DIA || S->format == AIJT_PANEL || S->format == AIJT_BCSR ? 0 : aijt_locality(&Ap, plan->order, S->begin, S->end, 16); /* BCSR: as the planner prices it (wholeplan.c) */
  double                   ns = 0, last_len = -1, last_ns = 0;

  *alone = 0;
  if (S->format == AIJT_PANEL) {
    const aijt_model_kernel *c    = aijt_model_kernel_find(m, AIJT_CSR, S->tpr);
    double                   work = aijt_panel_work_us(m, S, A->ncols);
    if (work < 0) return -1;
    *alone = (c ? c->overhead_us : m->launch_us) + work;
    return work;
  }
  if (!k) return -1;
  if (S->format == AIJT_DIA || S->format == AIJT_ELL) {
    ns = (double)(S->end - S->begin) * aijt_model_row_ns(k, (double)S->width, d);
    if (S->tail_nnz) {
      const aijt_model_kernel *c = aijt_model_kernel_find(m, AIJT_COO, 0);
      if (c) ns += (double)S->tail_nnz * aijt_model_row_ns(c, 1, d);
    }
  } else {
    for (aijt_int p = S->begin; p < S->end; p++) {
      aijt_int r   = aijt_plan_row(plan, p);
      double   len = (double)(A->rowptr[r + 1] - A->rowptr[r]);
      if (len != last_len) { /* sorted strips: a handful of distinct lengths */
        last_len = len;
        last_ns  = aijt_model_row_ns(k, len, d);
      }
      if (last_ns < 0) return -1;
      ns += last_ns;
    }
  }
  if (ns < 0) return -1;
  double work = ns * 1e-3, crit;
  /* LONG's parts shorten its path: one block's rate over the longest part (the table is for its own parts) */
  if (S->format == AIJT_LONG) crit = aijt_model_long_crit_us(m, (double)S->max_len, S->blocks_per_row);
  else crit = aijt_model_crit_us(k, (double)(S->format == AIJT_DIA || S->format == AIJT_ELL ? S->width : S->max_len));
  *alone = k->overhead_us + (work > crit ? work : crit);
  return work > crit ? work : crit;
}

double aijt_plan_predict(const aijt_model *m, const aijt_csr *A, aijt_plan *plan)
{
  double total = 0;
  int    launches = (plan->nstrips + AIJT_FUSED_MAX - 1) / AIJT_FUSED_MAX;

  for (int s = 0; s < plan->nstrips; s++) {
    aijt_strip *S    = &plan->strips[s];
    double      work = strip_work_us(m, A, plan, S, &S->predicted_us);
    if (work < 0) S->predicted_us = 0;
    total += (work > 0 ? work : 0) + m->strip_us;
  }
  if (plan->tail_nnz) launches++;
  return total + launches * m->launch_us;
}

int aijt_model_dir(const char *binary, char *dir, size_t len)
{
  const char *env = getenv("AIJTUNED_MODEL_DIR"), *slash = binary ? strrchr(binary, '/') : NULL;
  struct stat st;
  int         n;

  if (env && env[0]) {
    n = snprintf(dir, len, "%s", env);
    return n > 0 && (size_t)n < len;
  }
  if (!slash) return 0;
  n = snprintf(dir, len, "%.*s/../share/aijtuned/models", (int)(slash - binary), binary);
  return n > 0 && (size_t)n < len && !stat(dir, &st) && S_ISDIR(st.st_mode);
}
