/* aijt_model_split on the real length classes of each file, against many beats and with the bucket localities
   perturbed: prints every split's strips and prediction (to compare two trees' outputs line by line). */
#include "aijtmodel.h"
#include "readmtx.h"
#include "planbuild.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static unsigned long long rs = 88172645463325252ull;
static double rnd01(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (double)(rs >> 11) / 9007199254740992.0; }
int main(int argc, char **argv)
{
  const char *models[2] = {"/work/main/models/NVIDIA-H100-80GB-HBM3.model", "/work/main/models/NVIDIA-H200.model"};
  aijt_model M[2]; char why[256];
  for (int q = 0; q < 2; q++) aijt_model_load(models[q], &M[q], why, sizeof why);
  for (int a = 1; a < argc; a++) {
    aijt_csr A;
    if (read_mtx(argv[a], &A)) { printf("%s: cannot read\n", argv[a]); return 1; }
    const int m = (int)A.nrows, n = (int)A.ncols;
    aijt_features F; aijt_int *count, *order; aijt_bucket *b; int nb;
    aijt_features_compute(&A, &F);
    aijt_length_counts(&A, F.max_len, &count);
    aijt_order_from_counts(&A, F.max_len, count, &order);
    aijt_model_buckets(&A, order, count, F.max_len, &b, &nb);
    const char *base = strrchr(argv[a], '/'); base = base ? base + 1 : argv[a];
    for (int q = 0; q < 2; q++) {
      for (int pert = 0; pert < 4; pert++) {
        aijt_bucket *bb = malloc(sizeof(aijt_bucket) * (nb + 1)); memcpy(bb, b, sizeof(aijt_bucket) * nb);
        if (pert) for (int i = 0; i < nb; i++) bb[i].d = fmin(1.0, fmax(0.0, bb[i].d * (0.5 + rnd01())));
        aijt_rules R; aijt_rules_default(&R);
        /* the split without a cut, then against beats around its prediction */
        double full; { aijt_plan p; memset(&p, 0, sizeof p); p.nrows = m; p.ncols = n; int cap = 0; aijt_model_split(&R, &M[q], bb, nb, INFINITY, &p, &cap, &full); free(p.strips); }
        const double f[] = {INFINITY, 0.5, 0.9, 0.99, 0.999, 1.0, 1.0 + 1e-9, 1.001, 1.01, 1.05, 1.1, 1.3, 2.0, 5.0};
        for (int t = 0; t < (int)(sizeof f / sizeof f[0]); t++) {
          const double beat = isinf(f[t]) ? INFINITY : full * f[t] + M[q].launch_us * (f[t] > 1.2 ? 0 : 1);
          aijt_plan p; memset(&p, 0, sizeof p); p.nrows = m; p.ncols = n; int cap = 0; double pred;
          aijt_model_split(&R, &M[q], bb, nb, beat, &p, &cap, &pred);
          printf("%s m%d p%d f%g: %.17g %d", base, q, pert, f[t], pred, p.nstrips);
          for (int s = 0; s < p.nstrips; s++) printf(" [%d %d %d %d %d %.17g]", p.strips[s].format, p.strips[s].begin, p.strips[s].end, p.strips[s].tpr, p.strips[s].blocks_per_row, p.strips[s].predicted_us);
          printf("\n");
          free(p.strips);
        }
        free(bb);
      }
    }
    free(b); free(order); aijt_counts_free(count); free_mtx(&A);
  }
  return 0;
}
