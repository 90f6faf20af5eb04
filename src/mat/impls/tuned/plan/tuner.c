/* The run-time tuner's policy (aijttune.h): which parameters each product tries, and what is kept. */
#include "aijttune.h"

#include <stdlib.h>
#include <string.h>

#define TRY_PLAN    (-1)
#define TRY_WINNERS (-2)

/* Formats whose parameter is their threads (lanes) per row */
static int by_threads(aijt_format f)
{
  return f == AIJT_CSR || f == AIJT_PANEL || f == AIJT_STREAM || f == AIJT_BCSR;
}

/* Formats whose threads per row (BCSR: per block row) may be any power of two up to a warp (aijt_tpr_valid) */
static int pow2_threads(aijt_format f)
{
  return f == AIJT_CSR || f == AIJT_PANEL || f == AIJT_BCSR;
}

int aijt_tune_param(const aijt_strip *P)
{
  if (by_threads(P->format)) return P->tpr;
  if (P->format == AIJT_LONG) return P->blocks_per_row;
  return 0;
}

void aijt_tune_set_param(aijt_strip *P, int value)
{
  if (by_threads(P->format)) P->tpr = value;
  else if (P->format == AIJT_LONG) P->blocks_per_row = value;
}

int aijt_tune_candidates(const aijt_strip *P, int cand[2])
{
  int n = 0;

  cand[0] = cand[1] = 0;
  if (P->end <= P->begin || !P->max_len) return 0; /* empty rows: nothing runs */
  if (pow2_threads(P->format)) {
    if (P->tpr > 1) cand[n++] = P->tpr / 2;
    if (P->tpr < 32) cand[n++] = P->tpr * 2;
  } else if (P->format == AIJT_STREAM && (P->tpr == 1 || P->tpr == 4)) cand[n++] = 5 - P->tpr; /* its other kernel: 1 or 4 lanes a row */
  else if (P->format == AIJT_LONG && P->blocks_per_row > 1) cand[n++] = P->blocks_per_row / 2;
  return n;
}

int aijt_tune_param_ok(const aijt_strip *P, int value)
{
  if (pow2_threads(P->format)) return aijt_tpr_valid(value);
  if (P->format == AIJT_STREAM) return value == 1 || value == 4;
  if (P->format == AIJT_LONG) return value >= 1 && value <= P->blocks_per_row;
  return 0;
}

static aijt_err AddTrial(aijt_tuner *T, int strip, int value)
{
  if (T->ntrials == T->cap) {
    int              cap  = T->cap ? 2 * T->cap : 16;
    aijt_tune_trial *more = (aijt_tune_trial *)realloc(T->trials, (size_t)cap * sizeof(*more));
    if (!more) return AIJT_ERR_MEM;
    T->trials = more;
    T->cap    = cap;
  }
  T->trials[T->ntrials++] = (aijt_tune_trial){strip, value, -1.0};
  return AIJT_OK;
}

void aijt_tuner_destroy(aijt_tuner **T)
{
  if (!*T) return;
  free((*T)->base);
  free((*T)->best);
  free((*T)->trials);
  free(*T);
  *T = NULL;
}

/* The candidates of the strips to tune, the biggest strips first so that a small budget goes where the
   time is. */
typedef struct {
  int      strip, value;
  aijt_int nnz;
} Change;

static int ByNnz(const void *a, const void *b)
{
  const Change *x = (const Change *)a, *y = (const Change *)b;
  if (x->nnz != y->nnz) return x->nnz > y->nnz ? -1 : 1;
  if (x->strip != y->strip) return x->strip - y->strip;
  return x->value - y->value;
}

aijt_err aijt_tuner_create(const aijt_plan *plan, const int *tune, int max_trials, aijt_tuner **T)
{
  aijt_tuner *t;
  Change     *ch;
  int         n = 0, rounds = AIJT_TUNE_ROUNDS;

  *T = NULL;
  ch = (Change *)malloc((size_t)(2 * plan->nstrips + 1) * sizeof(*ch));
  if (!ch) return AIJT_ERR_MEM;
  for (int s = 0; s < plan->nstrips; s++) {
    int cand[2], k = (!tune || tune[s]) ? aijt_tune_candidates(&plan->strips[s], cand) : 0;
    for (int c = 0; c < k; c++) ch[n++] = (Change){s, cand[c], plan->strips[s].nnz};
  }
  qsort(ch, (size_t)n, sizeof(*ch), ByNnz);
  /* rounds of (plan + candidates), then 4 trials for the winners: fewer rounds, then fewer candidates,
     when max_trials is short */
  while (rounds > 1 && rounds * (n + 1) + 4 > max_trials) rounds--;
  while (n > 0 && rounds * (n + 1) + 4 > max_trials) n--;
  if (!n) {
    free(ch);
    return AIJT_OK;
  }
  t = (aijt_tuner *)calloc(1, sizeof(*t));
  if (!t) goto nomem;
  t->nstrips = plan->nstrips;
  t->base    = (int *)malloc((size_t)plan->nstrips * sizeof(int));
  t->best    = (int *)malloc((size_t)plan->nstrips * sizeof(int));
  if (!t->base || !t->best) goto nomem;
  for (int s = 0; s < plan->nstrips; s++) t->base[s] = t->best[s] = aijt_tune_param(&plan->strips[s]);
  t->rounds_left = rounds - 1; /* the first round now, the others for the candidates still in the race */
  if (AddTrial(t, TRY_PLAN, 0)) goto nomem;
  for (int c = 0; c < n; c++)
    if (AddTrial(t, ch[c].strip, ch[c].value)) goto nomem;
  t->first_round = t->ntrials;
  free(ch);
  *T = t;
  return AIJT_OK;
nomem:
  free(ch);
  aijt_tuner_destroy(&t);
  return AIJT_ERR_MEM;
}

/* The fastest time of the trials in [from, to) that match (strip, value); a negative value if none. */
static double Fastest(const aijt_tuner *T, int from, int to, int strip, int value)
{
  double best = -1.0;
  for (int i = from; i < to; i++) {
    const aijt_tune_trial *x = &T->trials[i];
    if (x->strip != strip || (strip >= 0 && x->value != value) || x->ms < 0) continue;
    if (best < 0 || x->ms < best) best = x->ms;
  }
  return best;
}

/* Whether ms beats base_ms clearly: by the relative margin and by the timer's resolution. */
static int Beats(double ms, double base_ms)
{
  double gain = AIJT_TUNE_MARGIN * base_ms;
  return ms >= 0 && base_ms - ms > (gain > AIJT_TUNE_MIN_GAIN_MS ? gain : AIJT_TUNE_MIN_GAIN_MS);
}

/* Another round for the candidates of the first that came within AIJT_TUNE_PRUNE of the plan: a clearly
   slower one cannot win, and timing it again costs its extra time again.  0 when none is left. */
static int NextRound(aijt_tuner *T)
{
  const int n       = T->ntrials;
  double    plan_ms = Fastest(T, 0, n, TRY_PLAN, 0);
  int       added   = 0;

  T->rounds_left--;
  for (int i = 0; i < T->first_round; i++) {
    const aijt_tune_trial x = T->trials[i];
    if (x.strip < 0 || !(Fastest(T, 0, n, x.strip, x.value) < (1.0 + AIJT_TUNE_PRUNE) * plan_ms)) continue;
    if (!added && AddTrial(T, TRY_PLAN, 0)) return 0;
    if (AddTrial(T, x.strip, x.value)) return added;
    added++;
  }
  return added;
}

/* The candidates are all timed: the winners of each strip, and whether to try them together. */
static void ChooseWinners(aijt_tuner *T)
{
  const int n       = T->ntrials;
  double    plan_ms = Fastest(T, 0, n, TRY_PLAN, 0);
  double   *won     = (double *)malloc((size_t)T->nstrips * sizeof(double));
  int       any     = 0;

  T->phase = 2;
  if (!won) return; /* out of memory: keep the plan */
  for (int s = 0; s < T->nstrips; s++) won[s] = plan_ms;
  for (int i = 0; i < n; i++) {
    const aijt_tune_trial *x = &T->trials[i];
    double                 ms;
    if (x->strip < 0) continue;
    ms = Fastest(T, 0, n, x->strip, x->value);
    if (Beats(ms, plan_ms) && ms < won[x->strip]) {
      won[x->strip]     = ms;
      T->best[x->strip] = x->value;
      any               = 1;
    }
  }
  free(won);
  if (!any) return;
  /* the winners side by side may not add up: time them together against the plan, twice */
  for (int r = 0; r < 2; r++)
    if (AddTrial(T, TRY_WINNERS, 0) || AddTrial(T, TRY_PLAN, 0)) {
      memcpy(T->best, T->base, (size_t)T->nstrips * sizeof(int)); /* out of memory: keep the plan */
      return;
    }
  T->phase = 1;
}

int aijt_tuner_next(aijt_tuner *T, int *params)
{
  if (T->issued == T->ntrials) {
    if (T->recorded < T->ntrials) return AIJT_TUNE_WAIT;
    if (T->phase == 0 && !(T->rounds_left > 0 && NextRound(T))) ChooseWinners(T);
    else if (T->phase == 1) {
      int first = T->ntrials - 4;
      if (!Beats(Fastest(T, first, T->ntrials, TRY_WINNERS, 0), Fastest(T, first, T->ntrials, TRY_PLAN, 0))) memcpy(T->best, T->base, (size_t)T->nstrips * sizeof(int));
      T->phase = 2;
    }
    if (T->issued == T->ntrials) return AIJT_TUNE_DONE;
  }
  {
    const aijt_tune_trial *x = &T->trials[T->issued];
    memcpy(params, x->strip == TRY_WINNERS ? T->best : T->base, (size_t)T->nstrips * sizeof(int));
    if (x->strip >= 0) params[x->strip] = x->value;
  }
  return T->issued++;
}

void aijt_tuner_record(aijt_tuner *T, int trial, double ms)
{
  if (trial < 0 || trial >= T->issued || T->trials[trial].ms >= 0) return;
  T->trials[trial].ms = ms < 0 ? 0 : ms;
  T->recorded++;
}

const int *aijt_tuner_params(const aijt_tuner *T)
{
  return T->best;
}

double aijt_tuner_extra_ms(const aijt_tuner *T, double *kept_ms)
{
  const int kept = memcmp(T->best, T->base, (size_t)T->nstrips * sizeof(int)) ? TRY_WINNERS : TRY_PLAN;
  double    sum  = 0.0, fastest = Fastest(T, 0, T->ntrials, kept, 0);

  for (int i = 0; i < T->ntrials; i++) sum += T->trials[i].ms > 0 ? T->trials[i].ms : 0.0;
  *kept_ms = fastest > 0 ? fastest : 0.0;
  return sum - T->recorded * *kept_ms;
}
