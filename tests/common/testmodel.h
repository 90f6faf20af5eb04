/*
   Test-only: a synthetic performance model with simple, known costs, for the planner tests (no GPU).
   CSR with t threads per row costs 1 + (t / 8) ceil(len / t) ns per row; LONG 40 + 0.2 len (from 32
   entries); SELL 0.5 + 0.3 len and ELL 0.4 + 0.3 width (up to 512); COO 2 + len (up to 32); DIA
   0.2 + 0.1 diagonals; BCSR (every block size) 0.2 + 0.1 len (up to 4096).  Random columns cost twice the local ones except for DIA.  The critical path is
   0.05 us per entry a thread works through alone (SELL, ELL, COO: the whole row; CSR: len / t).
*/
#pragma once

#include "aijtmodel.h"

#include <string.h>

static double test_model_ns(aijt_format f, int param, double len)
{
  switch (f) {
  case AIJT_CSR:
    return 1 + param / 8.0 * (double)((long long)(len + param - 1) / param);
  case AIJT_LONG:
    return 40 + 0.2 * len;
  case AIJT_SELL:
    return 0.5 + 0.3 * len;
  case AIJT_ELL:
    return 0.4 + 0.3 * len;
  case AIJT_COO:
    return 2 + len;
  default:
    return 0.2 + 0.1 * len;
  }
}

static double test_model_crit(aijt_format f, int param, double len)
{
  return 0.05 * (f == AIJT_CSR ? len / param : f == AIJT_DIA || f == AIJT_LONG ? 0 : len);
}

static void test_model_kernel(aijt_model *m, aijt_format f, int param, double lo, double hi)
{
  aijt_model_kernel *k = aijt_model_kernel_add(m, f, param);
  k->overhead_us       = 3;
  for (double len = lo; len <= hi; len *= 2) {
    int j          = k->npoints++;
    k->len[j]      = len;
    k->local_ns[j] = test_model_ns(f, param, len);
    k->random_ns[j] = f == AIJT_DIA ? k->local_ns[j] : 2 * k->local_ns[j];
    k->d_local[j]  = f == AIJT_DIA ? 0 : 0.125;
    k->d_random[j] = f == AIJT_DIA ? 0 : 1;
    k->crit_us[j]  = test_model_crit(f, param, len);
  }
}

static void test_model(aijt_model *m)
{
  memset(m, 0, sizeof(*m));
  m->version = AIJT_MODEL_VERSION;
  strcpy(m->device, "Synthetic GPU");
  m->launch_us     = 4;
  m->strip_us      = 0.5;
  m->long_entry_ns = 0.25;
  for (int t = 1; t <= 32; t *= 2) test_model_kernel(m, AIJT_CSR, t, 1, 4096);
  test_model_kernel(m, AIJT_LONG, 0, 32, 4096);
  test_model_kernel(m, AIJT_SELL, 32, 1, 512);
  test_model_kernel(m, AIJT_ELL, 0, 1, 512);
  test_model_kernel(m, AIJT_COO, 0, 1, 32);
  test_model_kernel(m, AIJT_DIA, 0, 1, 32);
  for (int bs = 2; bs <= AIJT_BCSR_MAX_BS; bs++) test_model_kernel(m, AIJT_BCSR, bs, 1, 4096);
}
