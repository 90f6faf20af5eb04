#include "report.h"

const char *const BenchMethodName[M_NMETHODS] = {"aijcusparse", "sellcuda", "aijtuned", "csr_alg1", "csr_alg2", "sell_alg1"};
const char *const BenchValuesWayName[BENCH_NVALUES_WAYS] = {"new values: assembly", "new values: MatScale twice", "new values: a TS step's MatShift, MatScale x2, MatShift", "new values: assembly, MatScale twice"};
const char *const BenchValuesWayKey[BENCH_NVALUES_WAYS]  = {"values", "scale", "step", "hostscale"};

static const char *const SpeedupName[3] = {"aijcusparse", "sellcuda", "best raw cuSPARSE"};

/* flag a method whose product differs from aijcusparse's by more than this, relative to max |y| */
#define BENCH_ERR_TOL 1e-10

PetscErrorCode BenchRecordInit(BenchRecord *r, const char name[], BenchClass cls, PetscReal copy_gbs)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscStrncpy(r->name, name, sizeof(r->name)));
  r->cls = cls;
  for (int m = 0; m < M_NMETHODS; m++) r->us[m] = r->err[m] = NAN;
  for (int f = 0; f < BENCH_NFORMATS; f++) {
    r->build_ms[f] = r->first_ms[f] = r->us_idle[f] = NAN;
    for (int v = 0; v < BENCH_NVALUES_WAYS; v++) r->values_ms[v][f] = r->values_err[v][f] = NAN;
  }
  r->strips   = -1;
  r->plan_ms = r->tune_ms = r->plan_first_ms = r->plan_alone_ms = NAN;
  r->copy_gbs     = copy_gbs;
  r->us_copy_same = NAN;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  GB/s count the compulsory bytes of CSR in double with 32-bit indices: 12 per entry (value + column),
  12 per row (offset + y), 8 per column (x), whatever the format really moves.

  Setup, in MatMult-equivalents of the format's own steady time:
    aijtuned:    (its build - aijcusparse's build) + its first MatMult - one steady MatMult.  Both are
                 filled by the same CSR insertion, so the difference is what aijtuned's assembly adds
                 (plan, layouts): the cost of converting to aijtuned; the first call adds the upload.
    aijcusparse: its first MatMult - one steady MatMult (its upload and cuSPARSE setup), for context.
  Within aijtuned's, from its own clocks (MatAIJTunedGetSetupTimes): planning (wall time of the planner
  and the layouts' skeleton; the median of bench_spmv's -plan_reps assemblies, the first one in the CSV)
  and run-time tuning (GPU time beyond as many products of the kept parameters).  Planning follows an
  assembly, during which the GPU sat idle, and the first kernel after an idle runs slower than back to
  back; with -idle_ms, planning is also given in products timed after such an idle (plan_idle_calls).
*/
/* The product's compulsory traffic in bytes: values and column indices, row offsets, y written, x read once. */
PetscReal BenchCSRBytes(const BenchRecord *r)
{
  return 12.0 * (PetscReal)r->nnz + 12.0 * (PetscReal)r->rows + 8.0 * (PetscReal)r->cols;
}

PetscErrorCode BenchDerive(const BenchRecord *r, BenchDerived *d)
{
  const PetscReal bytes = BenchCSRBytes(r);
  const PetscReal tt = r->us[M_AIJTUNED], tc = r->us[M_AIJCUSPARSE];

  PetscFunctionBegin;
  d->gbs_tuned     = bytes / tt / 1e3;
  d->gbs_cusparse  = bytes / tc / 1e3;
  d->copy_fraction = d->gbs_tuned / r->copy_gbs;
  d->copy_same_fraction = r->us_copy_same / tt;
  d->best_raw      = M_NMETHODS;
  for (int m = M_CSR_ALG1; m <= M_SELL_ALG1; m++)
    if (!PetscIsNanReal(r->us[m]) && (d->best_raw == M_NMETHODS || r->us[m] < r->us[d->best_raw])) d->best_raw = (BenchMethod)m;
  d->speedup[0]     = tc / tt;
  d->speedup[1]     = r->us[M_SELLCUDA] / tt;
  d->speedup[2]     = d->best_raw == M_NMETHODS ? NAN : r->us[d->best_raw] / tt;
  d->setup_tuned    = (r->build_ms[BENCH_AIJTUNED] - r->build_ms[BENCH_AIJCUSPARSE] + r->first_ms[BENCH_AIJTUNED] - 1e-3 * tt) / (1e-3 * tt);
  d->setup_cusparse = (r->first_ms[BENCH_AIJCUSPARSE] - 1e-3 * tc) / (1e-3 * tc);
  d->plan_calls     = r->plan_ms / (1e-3 * tt);
  d->tune_calls     = r->tune_ms / (1e-3 * tt);
  d->plan_idle_calls = r->plan_ms / (1e-3 * r->us_idle[BENCH_AIJTUNED]);
  d->plan_alone_calls = r->plan_alone_ms / (1e-3 * tt);
  for (int v = 0; v < BENCH_NVALUES_WAYS; v++) d->values_speedup[v] = r->values_ms[v][BENCH_AIJCUSPARSE] / r->values_ms[v][BENCH_AIJTUNED];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v printed with fmt, or "-" where it is missing */
static PetscErrorCode Num(char buf[], size_t len, const char fmt[], PetscReal v)
{
  PetscFunctionBegin;
  if (PetscIsInfOrNanReal(v)) PetscCall(PetscStrncpy(buf, "-", len));
  else PetscCall(PetscSNPrintf(buf, len, fmt, (double)v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchReportHeader(void)
{
  PetscFunctionBegin;
  /* group titles over the column blocks of BenchReportLine(): widths 65 | 60 | 18 | 25 | 37 */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-65s |%-60s|%-18s|%-25s|%s\n", "", " time per call, median (us)", " GB/s CSR, of copy", " speedup of aijtuned vs", " setup (calls)"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-34s %9s %9s %10s | %9s %9s %9s %9s %9s %9s | %5s %5s %5s | %7s %7s %8s | %6s %7s %7s %6s %6s\n", "matrix", "rows", "cols", "nnz", "aijcusp", "sellcuda", "aijtuned", "csr_alg1", "csr_alg2", "sell_alg1", "tuned", "cusp", "copy", "cusp", "sell", "raw", "strips", "tuned", "cusp", "plan", "tune"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchReportLine(const BenchRecord *r)
{
  BenchDerived d;
  char         t[M_NMETHODS][16], g[3][16], s[3][16], set[4][16], strips[16];

  PetscFunctionBegin;
  PetscCall(BenchDerive(r, &d));
  for (int m = 0; m < M_NMETHODS; m++) PetscCall(Num(t[m], sizeof(t[m]), "%.1f", r->us[m]));
  PetscCall(Num(g[0], sizeof(g[0]), "%.0f", d.gbs_tuned));
  PetscCall(Num(g[1], sizeof(g[1]), "%.0f", d.gbs_cusparse));
  PetscCall(Num(g[2], sizeof(g[2]), "%.2f", d.copy_fraction));
  for (int k = 0; k < 3; k++) PetscCall(Num(s[k], sizeof(s[k]), "%.2f", d.speedup[k]));
  PetscCall(Num(set[0], sizeof(set[0]), "%.0f", d.setup_tuned));
  PetscCall(Num(set[1], sizeof(set[1]), "%.0f", d.setup_cusparse));
  PetscCall(Num(set[2], sizeof(set[2]), "%.1f", d.plan_calls));
  PetscCall(Num(set[3], sizeof(set[3]), "%.1f", d.tune_calls));
  PetscCall(Num(strips, sizeof(strips), "%.0f", r->strips >= 0 ? (PetscReal)r->strips : NAN));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-34s %9" PetscInt64_FMT " %9" PetscInt64_FMT " %10" PetscInt64_FMT " | %9s %9s %9s %9s %9s %9s | %5s %5s %5s | %7s %7s %8s | %6s %7s %7s %6s %6s%s\n", r->name, r->rows, r->cols, r->nnz, t[0], t[1], t[2], t[3], t[4], t[5], g[0], g[1], g[2], s[0], s[1], s[2], strips, set[0], set[1], set[2], set[3], r->done ? "" : "  (incomplete)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Geometric mean, worst and best of positive figures, one per matrix */
typedef struct {
  PetscReal   logsum, worst, best;
  const char *wname, *bname;
  PetscInt    count;
} Spread;

static void SpreadAdd(Spread *s, PetscReal v, const char *name)
{
  if (PetscIsInfOrNanReal(v) || v <= 0) return;
  if (!s->count || v < s->worst) s->worst = v, s->wname = name;
  if (!s->count || v > s->best) s->best = v, s->bname = name;
  s->logsum += PetscLogReal(v);
  s->count++;
}

static PetscReal SpreadMean(const Spread *s)
{
  return PetscExpReal(s->logsum / s->count);
}

/* Geometric mean, worst and best of one speedup (which 0-2), of the copy-bandwidth fraction (3) or of
   the fraction of a same-size copy (4) over the finished records of a class (all: cls < 0). */
static PetscErrorCode Summarize(const BenchRecord *rec, PetscInt n, int cls, int which)
{
  Spread sp = {0};

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    BenchDerived d;
    if (!rec[i].done || (cls >= 0 && (int)rec[i].cls != cls)) continue;
    PetscCall(BenchDerive(&rec[i], &d));
    SpreadAdd(&sp, which < 3 ? d.speedup[which] : which == 3 ? d.copy_fraction : d.copy_same_fraction, rec[i].name);
  }
  if (!sp.count) PetscFunctionReturn(PETSC_SUCCESS);
  if (which < 3) PetscCall(PetscPrintf(PETSC_COMM_SELF, "    vs %-20s geomean %5.2f   worst %5.2f (%s)   best %5.2f (%s)\n", SpeedupName[which], (double)SpreadMean(&sp), (double)sp.worst, sp.wname, (double)sp.best, sp.bname));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "    aijtuned's %s: geomean %.2f, lowest %.2f (%s), highest %.2f (%s)\n", which == 3 ? "GB/s / copy bandwidth" : "time of a copy of its bytes / its time", (double)SpreadMean(&sp), (double)sp.worst, sp.wname, (double)sp.best, sp.bname));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* New values, one way, and the first product (TimeNewValues): aijcusparse's time / aijtuned's over the finished
   records, geometric mean and worst; and aijtuned's time in its own products, at most. */
static PetscErrorCode SummarizeNewValues(const BenchRecord *rec, PetscInt n, BenchValuesWay way)
{
  Spread sp = {0}, calls = {0};

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    BenchDerived d;
    if (!rec[i].done) continue;
    PetscCall(BenchDerive(&rec[i], &d));
    SpreadAdd(&sp, d.values_speedup[way], rec[i].name);
    SpreadAdd(&calls, 1e3 * rec[i].values_ms[way][BENCH_AIJTUNED] / rec[i].us[M_AIJTUNED], rec[i].name);
  }
  if (!sp.count) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s and the first MatMult, aijcusparse's time / aijtuned's: geomean %.2f, worst %.2f (%s); aijtuned's at most %.1f of its products (%s)\n", BenchValuesWayName[way], (double)SpreadMean(&sp), (double)sp.worst, sp.wname, (double)(calls.count ? calls.best : NAN), calls.count ? calls.bname : "-"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The most of aijtuned's planning (which 0, over the matrices of more than 1M entries, as issue 4 asks;
   2, the same in products after an idle; 3, the planning before the values' upload instead of beside it) or
   tuning (1, over all) in its own MatMult-equivalents, and how many stay within limit. */
static PetscErrorCode SummarizeSetup(const BenchRecord *rec, PetscInt n, int which, PetscReal limit)
{
  PetscReal   most = -PETSC_MAX_REAL;
  const char *name = NULL;
  PetscInt    count = 0, within = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    BenchDerived d;
    PetscReal    v;
    if (!rec[i].done || (which != 1 && rec[i].nnz <= 1000000)) continue;
    PetscCall(BenchDerive(&rec[i], &d));
    v = which == 0 ? d.plan_calls : which == 1 ? d.tune_calls : which == 2 ? d.plan_idle_calls : d.plan_alone_calls;
    if (PetscIsInfOrNanReal(v)) continue;
    count++;
    within += v <= limit;
    if (v > most) most = v, name = rec[i].name;
  }
  if (!count) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  aijtuned's %s in its own MatMult-equivalents%s: at most %.1f (%s), %" PetscInt_FMT " of %" PetscInt_FMT " matrices%s within %g\n", which == 1 ? "tuning beyond the kept parameters" : "planning", which == 2 ? " timed after an idle, as the planning is" : which == 3 ? " before the values' upload, not beside it" : "", (double)most, name, within, count, which != 1 ? " over 1M entries" : "", (double)limit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* bench_spmv -setup_reps, over the matrices of more than 1M entries: the time from an assembled seqaij to the first
   product's result, aijtuned's / aijcusparse's, and aijtuned's time beyond aijcusparse's in its own products (below
   0: it waits less), the most of them. */
static PetscErrorCode SummarizeSetupFromAij(const BenchRecord *rec, PetscInt n)
{
  Spread      sp   = {0}; /* aijtuned's time / aijcusparse's: the highest is the worst */
  PetscReal   most = -PETSC_MAX_REAL;
  const char *mname = NULL;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal t = rec[i].setup_ms[BENCH_AIJTUNED], c = rec[i].setup_ms[BENCH_AIJCUSPARSE], extra = (t - c) / (1e-3 * rec[i].us[M_AIJTUNED]);
    if (!rec[i].done || rec[i].nnz <= 1000000 || !(t > 0) || !(c > 0)) continue;
    SpreadAdd(&sp, t / c, rec[i].name);
    if (extra > most) most = extra, mname = rec[i].name;
  }
  if (!sp.count) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  from an assembled aij to the first product's result, aijtuned's time / aijcusparse's, %" PetscInt_FMT " matrices over 1M entries: geomean %.2f, worst %.2f (%s); aijtuned's time beyond aijcusparse's at most %.1f of its products (%s)\n", sp.count, (double)SpreadMean(&sp), (double)sp.best, sp.bname, (double)most, mname));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchReportSummary(const BenchRecord *rec, PetscInt n, PetscReal copy_gbs)
{
  PetscInt flagged = 0;

  PetscFunctionBegin;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "\nSpeedup of aijtuned = time of the other method / time of aijtuned (above 1: aijtuned is faster).\n"));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "Device-to-device copy bandwidth (read + write): %.0f GB/s.\n", (double)copy_gbs));
  for (int cls = -1; cls < BENCH_NCLASSES; cls++) {
    PetscInt count = 0;
    for (PetscInt i = 0; i < n; i++) count += rec[i].done && (cls < 0 || (int)rec[i].cls == cls);
    if (!count) continue;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s: %" PetscInt_FMT " matri%s\n", cls < 0 ? "all" : BenchClassName[cls], count, count == 1 ? "x" : "ces"));
    for (int which = 0; which < 5; which++) PetscCall(Summarize(rec, n, cls, which));
  }
  PetscCall(SummarizeSetup(rec, n, 0, 5.0));
  PetscCall(SummarizeSetup(rec, n, 3, 5.0)); /* where it was measured */
  PetscCall(SummarizeSetup(rec, n, 2, 5.0)); /* with -idle_ms only: prints nothing without */
  PetscCall(SummarizeSetup(rec, n, 1, 10.0));
  PetscCall(SummarizeSetupFromAij(rec, n));
  for (int v = 0; v < BENCH_NVALUES_WAYS; v++) PetscCall(SummarizeNewValues(rec, n, (BenchValuesWay)v));
  for (PetscInt i = 0; i < n; i++)
    for (int m = 1; m < M_NMETHODS; m++)
      if (!PetscIsNanReal(rec[i].us[m]) && !(rec[i].err[m] <= BENCH_ERR_TOL)) {
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "  DIFFERS: %s on %s: max |y - y_aijcusparse| / max |y_aijcusparse| = %g\n", BenchMethodName[m], rec[i].name, (double)rec[i].err[m]));
        flagged++;
      }
  for (PetscInt i = 0; i < n; i++)
    for (int v = 0; v < BENCH_NVALUES_WAYS; v++)
      for (int f = 0; f < BENCH_NFORMATS; f++)
        if (!PetscIsNanReal(rec[i].values_err[v][f]) && !(rec[i].values_err[v][f] <= BENCH_ERR_TOL)) {
          PetscCall(PetscPrintf(PETSC_COMM_SELF, "  DIFFERS: %s on %s after %s: max |y - y_aijcusparse| / max |y_aijcusparse| = %g\n", BenchFormatName[f], rec[i].name, BenchValuesWayName[v], (double)rec[i].values_err[v][f]));
          flagged++;
        }
  for (PetscInt i = 0; i < n; i++)
    if (!rec[i].done) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  INCOMPLETE: %s (an error stopped it; see above), left out of the means\n", rec[i].name));
  if (!flagged) PetscCall(PetscPrintf(PETSC_COMM_SELF, "Correctness: every method that ran is within %g of aijcusparse (max |diff| / max |y|).\n", BENCH_ERR_TOL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchCSVOpen(const char file[], FILE **fp)
{
  PetscFunctionBegin;
  PetscCall(PetscFOpen(PETSC_COMM_SELF, file, "w", fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, "name,class,rows,cols,nnz"));
  for (int m = 0; m < M_NMETHODS; m++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",us_%s", BenchMethodName[m]));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",gbs_aijtuned,gbs_aijcusparse,copy_gbs,copy_fraction,speedup_vs_aijcusparse,speedup_vs_sellcuda,speedup_vs_best_raw,best_raw,strips,setup_aijtuned_calls,setup_aijcusparse_calls,plan_ms,plan_calls,tune_ms,tune_calls,plan_first_ms,plan_first_calls"));
  for (int f = 0; f < BENCH_NFORMATS; f++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",build_ms_%s,first_ms_%s", BenchFormatName[f], BenchFormatName[f]));
  for (int m = 1; m < M_NMETHODS; m++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",err_%s", BenchMethodName[m]));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",us_copy_same,copy_same_fraction"));
  for (int f = 0; f < BENCH_NFORMATS; f++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",us_idle_%s", BenchFormatName[f]));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",plan_idle_calls"));
  for (int v = 0; v < BENCH_NVALUES_WAYS; v++) {
    for (int f = 0; f < BENCH_NFORMATS; f++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",%s_ms_%s,%s_err_%s", BenchValuesWayKey[v], BenchFormatName[f], BenchValuesWayKey[v], BenchFormatName[f]));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",%s_speedup", BenchValuesWayKey[v]));
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, *fp, ",plan_alone_ms,plan_alone_calls,complete\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a CSV field: empty where missing, so that spreadsheet and pandas readers see a missing value */
static PetscErrorCode Field(FILE *fp, PetscReal v)
{
  PetscFunctionBegin;
  if (PetscIsInfOrNanReal(v)) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ","));
  else PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",%.6g", (double)v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchCSVLine(FILE *fp, const BenchRecord *r)
{
  BenchDerived d;

  PetscFunctionBegin;
  if (!fp) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BenchDerive(r, &d));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%s,%s,%" PetscInt64_FMT ",%" PetscInt64_FMT ",%" PetscInt64_FMT, r->name, BenchClassName[r->cls], r->rows, r->cols, r->nnz));
  for (int m = 0; m < M_NMETHODS; m++) PetscCall(Field(fp, r->us[m]));
  PetscCall(Field(fp, d.gbs_tuned));
  PetscCall(Field(fp, d.gbs_cusparse));
  PetscCall(Field(fp, r->copy_gbs));
  PetscCall(Field(fp, d.copy_fraction));
  for (int k = 0; k < 3; k++) PetscCall(Field(fp, d.speedup[k]));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",%s", d.best_raw == M_NMETHODS ? "" : BenchMethodName[d.best_raw]));
  PetscCall(Field(fp, r->strips >= 0 ? (PetscReal)r->strips : NAN));
  PetscCall(Field(fp, d.setup_tuned));
  PetscCall(Field(fp, d.setup_cusparse));
  PetscCall(Field(fp, r->plan_ms));
  PetscCall(Field(fp, d.plan_calls));
  PetscCall(Field(fp, r->tune_ms));
  PetscCall(Field(fp, d.tune_calls));
  PetscCall(Field(fp, r->plan_first_ms));
  PetscCall(Field(fp, r->plan_first_ms / (1e-3 * r->us[M_AIJTUNED])));
  for (int f = 0; f < BENCH_NFORMATS; f++) {
    PetscCall(Field(fp, r->build_ms[f]));
    PetscCall(Field(fp, r->first_ms[f]));
  }
  for (int m = 1; m < M_NMETHODS; m++) PetscCall(Field(fp, r->err[m]));
  PetscCall(Field(fp, r->us_copy_same));
  PetscCall(Field(fp, d.copy_same_fraction));
  for (int f = 0; f < BENCH_NFORMATS; f++) PetscCall(Field(fp, r->us_idle[f]));
  PetscCall(Field(fp, d.plan_idle_calls));
  for (int v = 0; v < BENCH_NVALUES_WAYS; v++) {
    for (int f = 0; f < BENCH_NFORMATS; f++) {
      PetscCall(Field(fp, r->values_ms[v][f]));
      PetscCall(Field(fp, r->values_err[v][f]));
    }
    PetscCall(Field(fp, d.values_speedup[v]));
  }
  PetscCall(Field(fp, r->plan_alone_ms));
  PetscCall(Field(fp, d.plan_alone_calls));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",%d\n", r->done ? 1 : 0));
  if (fflush(fp)) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write the CSV file");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchCSVClose(FILE **fp)
{
  PetscFunctionBegin;
  if (*fp) PetscCall(PetscFClose(PETSC_COMM_SELF, *fp));
  *fp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
