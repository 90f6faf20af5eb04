static const char help[] = "Run-time tuning without a GPU: the tuner's choices on given timings (a clear winner is kept, noise\n"
                           "and winners that do not add up are not, a short budget tunes the biggest strips), and the tuning\n"
                           "cache (round trip, missing, stale and corrupt files refused with a reason and then rewritten whole,\n"
                           "fingerprints, and eight processes writing at once losing nothing).\n";

#define _DEFAULT_SOURCE /* mkdtemp, fork */
#define _POSIX_C_SOURCE 200809L

#include "aijttune.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/expect.h"

/* ---- the tuner on given timings ---- */

/* The time of a product with these parameters: a base, plus what each strip's choice adds. */
typedef double (*CostFn)(const int *params);

static double Cost_csr8_wins(const int *p) /* strip 0 is 5% faster at 8 threads per row */
{
  return 100.0 - (p[0] == 8 ? 5.0 : 0.0) + (p[0] == 2 ? 7.0 : 0.0) + (p[1] == 2 ? 3.0 : 0.0);
}
static double Cost_noise(const int *p) /* 1%: under the margin */
{
  return 100.0 - (p[0] == 8 ? 1.0 : 0.0);
}
static double Cost_no_sum(const int *p) /* each alone wins 5%, together they lose 10% */
{
  int a = p[0] == 8, b = p[1] == 2;
  return a && b ? 110.0 : 100.0 - 5.0 * (a + b);
}

static double Cost_bad_half(const int *p) /* halving strip 0 is 50% slower: timed once, not twice */
{
  return 100.0 + (p[0] == 2 ? 50.0 : 0.0) - (p[0] == 8 ? 5.0 : 0.0);
}
static double Cost_tiny(const int *p) /* a 6 us product, 5% (0.3 us) faster at 8: under the events' resolution */
{
  return 0.006 - (p[0] == 8 ? 0.0003 : 0.0);
}

/* Run the tuner to the end as the GPU would: up to inflight products queued, each timed when it completes
   (cost(params) of its parameters).  Returns the products timed. */
static int Drive(aijt_tuner *T, CostFn cost, int inflight, int *params)
{
  int    queue[8], n = 0, products = 0;
  double ms[8];

  for (;;) {
    int trial = n == inflight ? AIJT_TUNE_WAIT : aijt_tuner_next(T, params);
    if (trial == AIJT_TUNE_DONE) break;
    if (trial == AIJT_TUNE_WAIT) { /* the oldest product completes */
      EXPECT(n > 0, "the tuner waits with nothing in flight");
      if (!n) break;
      aijt_tuner_record(T, queue[0], ms[0]);
      n--;
      memmove(queue, queue + 1, (size_t)n * sizeof(int));
      memmove(ms, ms + 1, (size_t)n * sizeof(double));
      continue;
    }
    queue[n]  = trial;
    ms[n++]   = cost(params);
    products++;
  }
  return products;
}

static void MakePlan(aijt_plan *p, aijt_strip *s)
{
  memset(p, 0, sizeof(*p));
  memset(s, 0, 4 * sizeof(*s));
  s[0] = (aijt_strip){.format = AIJT_CSR, .begin = 0, .end = 1000, .nnz = 50000, .max_len = 60, .tpr = 4};
  s[1] = (aijt_strip){.format = AIJT_LONG, .begin = 1000, .end = 1010, .nnz = 90000, .max_len = 9000, .blocks_per_row = 4};
  s[2] = (aijt_strip){.format = AIJT_SELL, .begin = 1010, .end = 2000, .nnz = 5000, .max_len = 8, .chunk = 32};
  s[3] = (aijt_strip){.format = AIJT_CSR, .begin = 2000, .end = 2100, .nnz = 0, .max_len = 0, .tpr = 1}; /* empty rows */
  p->nstrips = 4;
  p->strips  = s;
}

static void TestTuner(void)
{
  aijt_plan   p;
  aijt_strip  s[4];
  aijt_tuner *T = NULL;
  int         params[4], cand[2];

  MakePlan(&p, s);
  EXPECT(aijt_tune_candidates(&s[0], cand) == 2 && cand[0] == 2 && cand[1] == 8, "CSR tpr 4: candidates 2 and 8");
  EXPECT(aijt_tune_candidates(&s[1], cand) == 1 && cand[0] == 2, "LONG 4 blocks per row: candidate 2");
  EXPECT(aijt_tune_candidates(&s[2], cand) == 0 && aijt_tune_candidates(&s[3], cand) == 0, "SELL and empty rows: no candidates");
  {
    aijt_strip r = {.format = AIJT_STREAM, .begin = 0, .end = 1000, .nnz = 5000, .max_len = 9, .tpr = 4};
    EXPECT(aijt_tune_candidates(&r, cand) == 1 && cand[0] == 1 && aijt_tune_param(&r) == 4, "STREAM 4 lanes a row: candidate 1");
    r.tpr = 1;
    EXPECT(aijt_tune_candidates(&r, cand) == 1 && cand[0] == 4, "STREAM 1 lane a row: candidate 4");
    EXPECT(aijt_tune_param_ok(&r, 4) && !aijt_tune_param_ok(&r, 2) && !aijt_tune_param_ok(&r, 8), "STREAM takes 1 or 4 lanes from a cache, not 2 or 8");
    EXPECT(aijt_tune_param_ok(&s[0], 16) && !aijt_tune_param_ok(&s[0], 3) && !aijt_tune_param_ok(&s[0], 64), "CSR takes powers of two up to 32");
    EXPECT(aijt_tune_param_ok(&s[1], 4) && !aijt_tune_param_ok(&s[1], 5) && !aijt_tune_param_ok(&s[2], 1), "LONG at most its blocks per row, SELL nothing");
  }

  /* trials issued but not timed: the tuner waits rather than deciding */
  EXPECT(!aijt_tuner_create(&p, NULL, 100, &T) && T, "tuner created");
  for (int i = 0; i < 4; i++) EXPECT(aijt_tuner_next(T, params) == i, "trial %d of the first round issued in order", i);
  EXPECT(aijt_tuner_next(T, params) == AIJT_TUNE_WAIT, "the first round issued, none timed: wait");
  aijt_tuner_destroy(&T);

  struct {
    const char *name;
    CostFn      cost;
    int         p0, p1, products, inflight;
    double      extra, kept; /* aijt_tuner_extra_ms: the trials' sum less products x kept */
  } cases[] = {
    /* 2 x (100 + 103 + 107 + 95) + 2 x (95 + 100) - 12 x 95 */
    {"a clear winner", Cost_csr8_wins, 8, 4, 2 * 4 + 4, 1, 60.0, 95.0},
    {"a clear winner, 3 products in flight", Cost_csr8_wins, 8, 4, 2 * 4 + 4, 3, 60.0, 95.0},
    /* the plan is kept, and a candidate 1% faster ran twice: below zero */
    {"noise under the margin", Cost_noise, 4, 4, 2 * 4, 1, -2.0, 100.0},
    /* (100 + 100 + 150 + 95) + (100 + 100 + 95) + 2 x (95 + 100) - 11 x 95 */
    {"a candidate far behind is timed once", Cost_bad_half, 8, 4, 4 + 3 + 4, 1, 85.0, 95.0},
    {"a gain under the timer's resolution", Cost_tiny, 4, 4, 2 * 4, 1, -0.0006, 0.006},
    /* 2 x (100 + 95 + 100 + 95) + 2 x (110 + 100) - 12 x 100: the plan kept */
    {"winners that do not add up", Cost_no_sum, 4, 4, 2 * 4 + 4, 2, 0.0, 100.0},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    int products;
    EXPECT(!aijt_tuner_create(&p, NULL, 100, &T) && T, "%s: tuner created", cases[c].name);
    if (!T) continue;
    products = Drive(T, cases[c].cost, cases[c].inflight, params);
    const int *best = aijt_tuner_params(T);
    EXPECT(best[0] == cases[c].p0 && best[1] == cases[c].p1 && best[2] == 0 && best[3] == 1, "%s: kept tpr %d, blocks per row %d (expected %d, %d)", cases[c].name, best[0], best[1], cases[c].p0, cases[c].p1);
    EXPECT(products == cases[c].products, "%s: %d products timed, expected %d", cases[c].name, products, cases[c].products);
    {
      double kept, extra = aijt_tuner_extra_ms(T, &kept);
      EXPECT(fabs(extra - cases[c].extra) < 1e-9 && fabs(kept - cases[c].kept) < 1e-12, "%s: extra %g ms over kept %g (expected %g, %g)", cases[c].name, extra, kept, cases[c].extra, cases[c].kept);
    }
    aijt_tuner_destroy(&T);
  }

  /* a short budget: one round, then only the biggest strip's candidate (LONG, 90k entries) */
  EXPECT(!aijt_tuner_create(&p, NULL, 1 * (3 + 1) + 4, &T) && T && T->ntrials == 4, "budget 8: one round of 3 candidates");
  aijt_tuner_destroy(&T);
  EXPECT(!aijt_tuner_create(&p, NULL, 6, &T) && T && T->ntrials == 2 && T->trials[1].strip == 1, "budget 6: the LONG strip's candidate alone");
  aijt_tuner_destroy(&T);
  EXPECT(!aijt_tuner_create(&p, NULL, 5, &T) && !T, "budget 5: nothing to tune");
  {
    int only_first[4] = {1, 0, 0, 0};
    EXPECT(!aijt_tuner_create(&p, only_first, 100, &T) && T && T->ntrials == 3, "strips marked: strip 0's two candidates (first round)");
    aijt_tuner_destroy(&T);
  }
}

/* ---- the cache ---- */

static char dir[256];

static int WriteText(const char *path, const char *text)
{
  FILE *fp = fopen(path, "w");
  if (!fp) return 0;
  fputs(text, fp);
  return fclose(fp) == 0;
}

static aijt_tune_entry Entry(const char *device, uint64_t fp, int param)
{
  aijt_tune_entry e;
  memset(&e, 0, sizeof(e));
  snprintf(e.device, sizeof(e.device), "%s", device);
  snprintf(e.model, sizeof(e.model), "m2-0badcafe");
  e.fingerprint = fp;
  e.format      = AIJT_CSR;
  e.param       = param;
  e.tuned_us    = 12.5;
  return e;
}

/* Files left in dir besides the cache and its lock (temporary files of a failed or torn write) */
static int Leftovers(void)
{
  DIR           *d = opendir(dir);
  struct dirent *e;
  int            n = 0;
  if (!d) return -1;
  while ((e = readdir(d)))
    if (strstr(e->d_name, ".tmp.")) n++;
  closedir(d);
  return n;
}

static void TestCacheFile(void)
{
  char            path[512], why[512];
  aijt_tune_cache c = {0}, back = {0};

  snprintf(path, sizeof(path), "%s/sub/dir/tune-cache", dir); /* the directories do not exist yet */
  EXPECT(aijt_tune_cache_read(path, &back, why, sizeof(why)) && strstr(why, "cannot open"), "a missing file is refused: %s", why);
  aijt_tune_entry a = Entry("NVIDIA H200", 0x0123456789abcdefull, 8), b = Entry("NVIDIA H100 80GB HBM3", 42, 2);
  b.format = AIJT_LONG;
  EXPECT(!aijt_tune_cache_put(&c, &a) && !aijt_tune_cache_put(&c, &b) && c.n == 2, "two entries put");
  EXPECT(!aijt_tune_cache_update(path, &c, why, sizeof(why)), "written, with its directories: %s", why);
  EXPECT(!aijt_tune_cache_read(path, &back, why, sizeof(why)) && back.n == 2, "read back: %s", why);
  {
    const aijt_tune_entry *x = aijt_tune_cache_find(&back, "NVIDIA H200", "m2-0badcafe", 0x0123456789abcdefull);
    const aijt_tune_entry *y = aijt_tune_cache_find(&back, "NVIDIA H100 80GB HBM3", "m2-0badcafe", 42);
    EXPECT(x && x->param == 8 && x->format == AIJT_CSR && fabs(x->tuned_us - 12.5) < 1e-9, "entry a round trip");
    EXPECT(y && y->param == 2 && y->format == AIJT_LONG, "entry b round trip (a device name with spaces)");
    EXPECT(!aijt_tune_cache_find(&back, "NVIDIA H200", "rules", 0x0123456789abcdefull), "another model is another key");
  }
  /* another process's entries are merged, not lost; a new value replaces the old */
  {
    aijt_tune_cache other = {0};
    aijt_tune_entry d = Entry("NVIDIA H200", 7, 16), a2 = Entry("NVIDIA H200", 0x0123456789abcdefull, 32);
    aijt_tune_cache_put(&other, &d);
    aijt_tune_cache_put(&other, &a2);
    EXPECT(!aijt_tune_cache_update(path, &other, why, sizeof(why)) && other.n == 3, "merged into a cache of 3 (the process's copy has them all)");
    EXPECT(!aijt_tune_cache_read(path, &back, why, sizeof(why)) && back.n == 3 && aijt_tune_cache_find(&back, "NVIDIA H200", "m2-0badcafe", 0x0123456789abcdefull)->param == 32, "the newer value replaced the old");
    aijt_tune_cache_free(&other);
  }
  /* bad files: each refused with its reason, then rewritten whole by the next update */
  struct {
    const char *text, *reason;
  } bad[] = {
    {"", "not a tuning cache"},
    {"aijtuned-model 2\n", "not a tuning cache"},
    {"aijtuned-tune-cache 0\n", "version 0"},
    {"aijtuned-tune-cache 1\nNVIDIA H200\tm2-1\t0123456789abcdef\tcsr\t8\t1.5", "cut or too long"},
    {"aijtuned-tune-cache 1\nNVIDIA H200\tm2-1\t0123456789abcdeg\tcsr\t8\t1.5\n", "line 2 is not an entry"},
    {"aijtuned-tune-cache 1\nNVIDIA H200\tm2-1\t0123456789abcdef\thyb\t8\t1.5\n", "line 2 is not an entry"},
    {"aijtuned-tune-cache 1\nNVIDIA H200\tm2-1\t0123456789abcdef\tcsr\t0\t1.5\n", "line 2 is not an entry"},
    {"aijtuned-tune-cache 1\nNVIDIA H200\tm2-1\t0123456789abcdef\tcsr\t8\t1.5\textra\n", "line 2 is not an entry"},
    {"aijtuned-tune-cache 1\nNVIDIA H200\tm2-1\t0123456789abcdef\tcsr\t8\n", "line 2 is not an entry"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    aijt_tune_cache mine = {0};
    EXPECT(WriteText(path, bad[i].text), "bad file %zu written", i);
    why[0] = 0;
    EXPECT(aijt_tune_cache_read(path, &back, why, sizeof(why)) && back.n == 0 && strstr(why, bad[i].reason), "bad file %zu refused (\"%s\"): %s", i, bad[i].reason, why);
    aijt_tune_cache_put(&mine, &a);
    EXPECT(!aijt_tune_cache_update(path, &mine, why, sizeof(why)) && !aijt_tune_cache_read(path, &back, why, sizeof(why)) && back.n == 1, "bad file %zu rewritten with the new entry alone", i);
    aijt_tune_cache_free(&mine);
  }
  EXPECT(Leftovers() == 0, "no temporary files left");
  aijt_tune_cache_free(&c);
  aijt_tune_cache_free(&back);
}

/* Eight processes each add 40 entries, 5 at a time: every entry is in the file at the end. */
static void TestCacheConcurrent(void)
{
  char            path[512], why[512];
  const int       nproc = 8, per = 40;
  aijt_tune_cache back = {0};
  int             missing = 0;

  snprintf(path, sizeof(path), "%s/shared-cache", dir);
  for (int p = 0; p < nproc; p++) {
    if (fork() == 0) {
      aijt_tune_cache mine = {0};
      int             ok   = 1;
      for (int i = 0; i < per; i++) {
        aijt_tune_entry e = Entry("NVIDIA H200", (uint64_t)(p * 1000 + i), 1 + i % 32);
        aijt_tune_cache_put(&mine, &e);
        if (i % 5 == 4) ok &= aijt_tune_cache_update(path, &mine, why, sizeof(why)) == AIJT_OK;
      }
      _exit(ok ? 0 : 1);
    }
  }
  int all_ok = 1;
  for (int p = 0; p < nproc; p++) {
    int status = 1;
    wait(&status);
    all_ok &= WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  EXPECT(all_ok, "every writer succeeded");
  EXPECT(!aijt_tune_cache_read(path, &back, why, sizeof(why)), "the shared file reads: %s", why);
  for (int p = 0; p < nproc; p++)
    for (int i = 0; i < per; i++) {
      const aijt_tune_entry *e = aijt_tune_cache_find(&back, "NVIDIA H200", "m2-0badcafe", (uint64_t)(p * 1000 + i));
      missing += !e || e->param != 1 + i % 32;
    }
  EXPECT(back.n == nproc * per && !missing, "%d entries, %d missing or wrong (expected %d, 0)", back.n, missing, nproc * per);
  EXPECT(Leftovers() == 0, "no temporary files left");
  aijt_tune_cache_free(&back);
}

static void TestFingerprints(void)
{
  /* a small matrix: rows of lengths 1..40, columns spread */
  const aijt_int n = 300;
  aijt_int      *rp = malloc((n + 1) * sizeof(aijt_int)), *col = malloc(40 * n * sizeof(aijt_int)), k = 0;
  aijt_plan     *p = NULL, *q = NULL;
  aijt_layouts  *L = NULL, *M = NULL;
  aijt_rules     R;

  rp[0] = 0;
  for (aijt_int i = 0; i < n; i++) {
    for (aijt_int j = 0; j < 1 + i % 40; j++) col[k++] = (i + 7 * j) % n;
    rp[i + 1] = k;
  }
  aijt_csr A = {n, n, rp, col, NULL, NULL, 0, 0};
  aijt_rules_default(&R);
  R.allowed = AIJT_FORMAT_BIT(AIJT_CSR);
  EXPECT(!aijt_plan_rules(&A, &R, &p) && !aijt_layouts_build(p, &A, &L), "CSR plan built");
  EXPECT(!aijt_plan_rules(&A, &R, &q) && !aijt_layouts_build(q, &A, &M), "the same plan again");
  if (L && M) {
    uint64_t      f = aijt_strip_fingerprint(&p->strips[0], &L->strips[0], &A);
    aijt_layouts *K = NULL;
    EXPECT(f == aijt_strip_fingerprint(&q->strips[0], &M->strips[0], &A), "the same strip, the same fingerprint");
    EXPECT(!aijt_layouts_skeleton(q, &A, &K) && f == aijt_strip_fingerprint(&q->strips[0], &K->strips[0], &A), "the same fingerprint from the skeleton the GPU build fills");
    aijt_layouts_destroy(&K);
    q->strips[0].tpr = q->strips[0].tpr == 32 ? 16 : 2 * q->strips[0].tpr;
    EXPECT(f != aijt_strip_fingerprint(&q->strips[0], &M->strips[0], &A), "another planned parameter, another fingerprint");
    q->strips[0].tpr = p->strips[0].tpr;
    col[rp[M->strips[0].rows[M->strips[0].nrows / 2]]] ^= 1;
    EXPECT(f != aijt_strip_fingerprint(&q->strips[0], &M->strips[0], &A), "another column, another fingerprint");
  }
  {
    aijt_model m;
    char       k1[48], k2[48], k3[48];
    memset(&m, 0, sizeof(m));
    m.version  = 2;
    m.launch_us = 4.0;
    snprintf(m.device, sizeof(m.device), "NVIDIA H200");
    aijt_model_key(NULL, k1, sizeof(k1));
    aijt_model_key(&m, k2, sizeof(k2));
    m.launch_us = 4.1;
    aijt_model_key(&m, k3, sizeof(k3));
    EXPECT(!strcmp(k1, "rules") && !strncmp(k2, "m2-", 3) && strcmp(k2, k3), "model keys: %s, %s, %s", k1, k2, k3);
  }
  aijt_layouts_destroy(&L), aijt_layouts_destroy(&M);
  aijt_plan_destroy(&p), aijt_plan_destroy(&q);
  free(rp), free(col);
}

int main(void)
{
  (void)help;
  snprintf(dir, sizeof(dir), "/tmp/aijt-tune-test-XXXXXX");
  if (!mkdtemp(dir)) {
    printf("cannot make a temporary directory\n");
    return 1;
  }
  TestTuner();
  TestCacheFile();
  TestCacheConcurrent();
  TestFingerprints();
  {
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    if (system(cmd)) printf("could not remove %s\n", dir);
  }
  printf("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}

/*TEST

   test:
      suffix: 0

TEST*/
