/* The tuning cache (aijttune.h): strip fingerprints, and the file of tuned parameters. */
/* POSIX and BSD calls (flock, gethostname, mkdir): the planner is otherwise plain C99 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include "aijttune.h"
#include "aijtrowprint.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER "aijtuned-tune-cache"

/* FNV-1a, 64 bits */
static uint64_t Hash(uint64_t h, const void *data, size_t bytes)
{
  const unsigned char *p = (const unsigned char *)data;
  for (size_t i = 0; i < bytes; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}
#define HASH_START 14695981039346656037ull
#define HASH_VALUE(h, v) Hash(h, &(v), sizeof(v))

uint64_t aijt_strip_pattern(const aijt_layout *S, const aijt_csr *A)
{
  uint64_t sum = 0;
  for (aijt_int i = 0; S->rows && i < S->nrows; i++) {
    const aijt_int r = S->rows[i], a = A->rowptr[r], b = A->rowptr[r + 1];
    sum += aijt_row_print(i, r, a, b, a < b ? A->colidx[a] : -1, a < b ? A->colidx[b - 1] : -1);
  }
  return sum;
}

uint64_t aijt_strip_fingerprint_of(const aijt_strip *P, const aijt_layout *S, uint64_t pattern)
{
  uint64_t h = HASH_START;
  int      ints[7] = {(int)P->format, P->tpr, P->blocks_per_row, P->block, P->chunk, P->sigma, (int)sizeof(aijt_int)};
  aijt_int sizes[5] = {S->nrows, S->nslots, P->nnz, P->max_len, P->width};

  h = Hash(h, ints, sizeof(ints));
  h = Hash(h, sizes, sizeof(sizes));
  return HASH_VALUE(h, pattern);
}

uint64_t aijt_strip_fingerprint(const aijt_strip *P, const aijt_layout *S, const aijt_csr *A)
{
  return aijt_strip_fingerprint_of(P, S, aijt_strip_pattern(S, A));
}

void aijt_model_key(const aijt_model *m, char *key, size_t len)
{
  uint64_t h = HASH_START;

  if (!m) {
    snprintf(key, len, "rules");
    return;
  }
  h = Hash(h, m->device, strlen(m->device));
  h = HASH_VALUE(h, m->launch_us);
  h = HASH_VALUE(h, m->strip_us);
  h = HASH_VALUE(h, m->long_entry_ns);
  for (int i = 0; i < m->nkernels; i++) {
    const aijt_model_kernel *k = &m->kernels[i];
    int                      n = k->npoints;
    h                          = HASH_VALUE(h, k->format);
    h                          = HASH_VALUE(h, k->param);
    h                          = HASH_VALUE(h, k->overhead_us);
    h                          = Hash(h, k->len, (size_t)n * sizeof(double));
    h                          = Hash(h, k->local_ns, (size_t)n * sizeof(double));
    h                          = Hash(h, k->random_ns, (size_t)n * sizeof(double));
    h                          = Hash(h, k->d_local, (size_t)n * sizeof(double));
    h                          = Hash(h, k->d_random, (size_t)n * sizeof(double));
    h                          = Hash(h, k->crit_us, (size_t)n * sizeof(double));
  }
  snprintf(key, len, "m%d-%08" PRIx32, m->version, (uint32_t)(h ^ (h >> 32)));
}

void aijt_tune_cache_free(aijt_tune_cache *c)
{
  free(c->e);
  c->e   = NULL;
  c->n   = 0;
  c->cap = 0;
}

static int SameKey(const aijt_tune_entry *a, const char *device, const char *model, uint64_t fingerprint)
{
  return a->fingerprint == fingerprint && !strcmp(a->device, device) && !strcmp(a->model, model);
}

const aijt_tune_entry *aijt_tune_cache_find(const aijt_tune_cache *c, const char *device, const char *model, uint64_t fingerprint)
{
  for (int i = 0; i < c->n; i++)
    if (SameKey(&c->e[i], device, model, fingerprint)) return &c->e[i];
  return NULL;
}

aijt_err aijt_tune_cache_put(aijt_tune_cache *c, const aijt_tune_entry *e)
{
  for (int i = 0; i < c->n; i++)
    if (SameKey(&c->e[i], e->device, e->model, e->fingerprint)) {
      c->e[i] = *e;
      return AIJT_OK;
    }
  if (c->n == c->cap) {
    int              cap  = c->cap ? 2 * c->cap : 32;
    aijt_tune_entry *more = (aijt_tune_entry *)realloc(c->e, (size_t)cap * sizeof(*more));
    if (!more) return AIJT_ERR_MEM;
    c->e   = more;
    c->cap = cap;
  }
  c->e[c->n++] = *e;
  return AIJT_OK;
}

/* Copy field f (ending at a tab or the line's end) into out[len]; 0 when it does not fit or is empty. */
static int Field(char **at, char *out, size_t len)
{
  char  *end = strchr(*at, '\t');
  size_t n   = end ? (size_t)(end - *at) : strlen(*at);

  if (!n || n >= len) return 0;
  memcpy(out, *at, n);
  out[n] = 0;
  *at += n + (end ? 1 : 0);
  return 1;
}

/* One entry line (no newline); 0 when it is not one. */
static int ParseEntry(char *line, aijt_tune_entry *e)
{
  char  fp[32], fmt[16], param[16], us[48], *at = line, *end;
  long  p;

  memset(e, 0, sizeof(*e));
  if (!Field(&at, e->device, sizeof(e->device)) || !Field(&at, e->model, sizeof(e->model)) || !Field(&at, fp, sizeof(fp)) || !Field(&at, fmt, sizeof(fmt)) || !Field(&at, param, sizeof(param)) || !Field(&at, us, sizeof(us)) || *at) return 0;
  if (strlen(fp) != 16) return 0;
  e->fingerprint = strtoull(fp, &end, 16);
  if (*end) return 0;
  if (aijt_format_from_name(fmt, &e->format) != AIJT_OK) return 0;
  p = strtol(param, &end, 10);
  if (*end || p < 1 || p > 1 << 20) return 0;
  e->param    = (int)p;
  e->tuned_us = strtod(us, &end);
  return !*end && e->tuned_us >= 0;
}

aijt_err aijt_tune_cache_read(const char *path, aijt_tune_cache *c, char *why, size_t whylen)
{
  FILE    *fp;
  char     line[512];
  int      version = 0, lineno = 1;
  aijt_err err = AIJT_OK;

  c->n = 0;
  if (!(fp = fopen(path, "r"))) {
    aijt_say(why, whylen, "cannot open %s (%s)", path, strerror(errno));
    return AIJT_ERR_ARG;
  }
  if (!fgets(line, sizeof(line), fp) || sscanf(line, HEADER " %d", &version) != 1) {
    aijt_say(why, whylen, "%s is not a tuning cache", path);
    err = AIJT_ERR_ARG;
  } else if (version != AIJT_TUNE_CACHE_VERSION) {
    aijt_say(why, whylen, "%s has version %d, this library writes %d", path, version, AIJT_TUNE_CACHE_VERSION);
    err = AIJT_ERR_ARG;
  }
  while (!err && fgets(line, sizeof(line), fp)) {
    size_t          n = strlen(line);
    aijt_tune_entry e;
    lineno++;
    if (!n || line[n - 1] != '\n') { /* a line longer than any entry, or a file cut short */
      aijt_say(why, whylen, "%s line %d is cut or too long", path, lineno);
      err = AIJT_ERR_ARG;
      break;
    }
    line[n - 1] = 0;
    if (!ParseEntry(line, &e)) {
      aijt_say(why, whylen, "%s line %d is not an entry", path, lineno);
      err = AIJT_ERR_ARG;
    } else err = aijt_tune_cache_put(c, &e);
  }
  if (!err && ferror(fp)) {
    aijt_say(why, whylen, "cannot read %s", path);
    err = AIJT_ERR_ARG;
  }
  fclose(fp);
  if (err) c->n = 0;
  return err;
}

/* mkdir -p of the directory that holds path */
static void MakeParent(const char *path)
{
  char dir[4096];
  size_t n = strlen(path);

  if (n >= sizeof(dir)) return;
  memcpy(dir, path, n + 1);
  for (char *p = dir + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    (void)mkdir(dir, 0755); /* exists already, mostly */
    *p = '/';
  }
}

static aijt_err WriteFile(const char *path, const aijt_tune_cache *c, char *why, size_t whylen)
{
  char  tmp[4200], host[64] = "";
  FILE *fp;
  int   ok;

  (void)gethostname(host, sizeof(host) - 1);
  snprintf(tmp, sizeof(tmp), "%s.tmp.%s.%ld", path, host, (long)getpid());
  if (!(fp = fopen(tmp, "w"))) {
    aijt_say(why, whylen, "cannot write %s (%s)", tmp, strerror(errno));
    return AIJT_ERR_ARG;
  }
  ok = fprintf(fp, HEADER " %d\n", AIJT_TUNE_CACHE_VERSION) > 0;
  for (int i = 0; ok && i < c->n; i++) {
    const aijt_tune_entry *e = &c->e[i];
    ok = fprintf(fp, "%s\t%s\t%016" PRIx64 "\t%s\t%d\t%.4g\n", e->device, e->model, e->fingerprint, aijt_format_names[e->format], e->param, e->tuned_us) > 0;
  }
  /* no fsync: it cost milliseconds, and a file torn by a crash reads as corrupt and is rewritten */
  ok = (fclose(fp) == 0) && ok;
  if (!ok || rename(tmp, path)) {
    aijt_say(why, whylen, "cannot write %s (%s)", path, strerror(errno));
    (void)unlink(tmp);
    return AIJT_ERR_ARG;
  }
  return AIJT_OK;
}

aijt_err aijt_tune_cache_update(const char *path, aijt_tune_cache *mine, char *why, size_t whylen)
{
  aijt_tune_cache file = {0};
  char            lock[4200];
  int             fd;
  aijt_err        err = AIJT_OK;

  MakeParent(path);
  snprintf(lock, sizeof(lock), "%s.lock", path);
  fd = open(lock, O_RDWR | O_CREAT, 0644);
  if (fd >= 0) (void)flock(fd, LOCK_EX); /* without it (no lock file possible) the rename still keeps the file whole */
  if (aijt_tune_cache_read(path, &file, NULL, 0) == AIJT_OK) {
    for (int i = 0; i < file.n && !err; i++)
      if (!aijt_tune_cache_find(mine, file.e[i].device, file.e[i].model, file.e[i].fingerprint)) err = aijt_tune_cache_put(mine, &file.e[i]);
  }
  if (!err) err = WriteFile(path, mine, why, whylen);
  else aijt_say(why, whylen, "out of memory");
  if (fd >= 0) {
    (void)flock(fd, LOCK_UN);
    close(fd);
  }
  aijt_tune_cache_free(&file);
  return err;
}
