/* The -mat_aijtuned_* options: one parser for the seq and mpi types. */
#include "aijtunedimpl.h"

void MatAIJTunedSettingsDefault(MatAIJTunedSettings *s)
{
  aijt_rules_default(&s->rules);
  s->host_strips  = PETSC_FALSE;
  s->gpu_strips   = PETSC_TRUE;
  s->gpu_build    = PETSC_TRUE;
  s->gpu_plan     = PETSC_TRUE;
  s->plan_beside  = PETSC_TRUE;
  s->dia_codes    = PETSC_TRUE;
  s->from_options = PETSC_FALSE;
  s->model_planner = PETSC_TRUE;
  s->model_file[0] = 0;
  /* off by default: strips timed one launch each picked parameters that ran slower fused on two of eight
     matrices, and the geometric mean did not move (bench/results/2026-11-21-h200-tuning-v1) */
  s->tune          = PETSC_FALSE;
  s->tune_calls    = 50; /* two rounds of up to 22 candidates and the plan's parameters, 4 trials of the winners */
  s->tune_cache[0] = 0;
  s->ghost_exchange = PETSC_TRUE;
  s->ghost_peer     = PETSC_TRUE;
  s->edge_rows      = PETSC_TRUE;
  s->pin_mib        = 8.0;
}

/* Whether two settings give the same plan (the MatMult switches do not change it). */
PetscBool MatAIJTunedSettingsSamePlan(const MatAIJTunedSettings *a, const MatAIJTunedSettings *b)
{
  return (PetscBool)(aijt_rules_equal(&a->rules, &b->rules) && a->model_planner == b->model_planner && !strcmp(a->model_file, b->model_file) && a->gpu_build == b->gpu_build && a->dia_codes == b->dia_codes);
}

PetscErrorCode MatAIJTunedCheck(aijt_err err)
{
  PetscFunctionBegin;
  switch (err) {
  case AIJT_OK:
    break;
  case AIJT_ERR_MEM:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "aijtuned planner: %s", aijt_err_string(err));
  case AIJT_ERR_OVERFLOW:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "aijtuned planner: %s; allow csr in -mat_aijtuned_formats", aijt_err_string(err));
  case AIJT_ERR_DEVICE:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_GPU, "aijtuned planner: %s", aijt_err_string(err));
  case AIJT_ERR_FORMAT:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "aijtuned planner: the formats in -mat_aijtuned_formats cannot hold this matrix (dia alone needs at most %d diagonals, stream alone rows of at most %d entries, bcsr alone whole blocks of the block size); allow csr", AIJT_DIA_MAX_DIAGS, AIJT_STREAM_MAX_LEN);
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "aijtuned planner: %s", aijt_err_string(err));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ParseFormats(char **names, PetscInt n, unsigned *allowed)
{
  PetscFunctionBegin;
  *allowed = 0;
  for (PetscInt i = 0; i < n; i++) {
    aijt_format f;
    PetscCheck(aijt_format_from_name(names[i], &f) == AIJT_OK, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown aijtuned format \"%s\" in -mat_aijtuned_formats; known: csr, long, ell, sell, coo, dia, panel, stream, bcsr", names[i]);
    *allowed |= AIJT_FORMAT_BIT(f);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatAIJTunedSettingsFromOptions(AIJTunedOptionItems PetscOptionsObject, MatAIJTunedSettings *s)
{
  char       *names[AIJT_NFORMATS + 8];
  PetscInt    n = AIJT_NFORMATS + 8, ival;
  PetscReal   rval;
  PetscBool   flg, bval;
  aijt_rules *R = &s->rules;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "AIJTUNED options");
  PetscCall(PetscOptionsStringArray("-mat_aijtuned_formats", "Layouts the planner may choose (csr, long, ell, sell, coo, dia, panel, stream, bcsr: whole blocks of the matrix's block size)", "MATAIJTUNED", names, &n, &flg));
  if (flg) {
    unsigned allowed = 0;
    PetscErrorCode ierr = ParseFormats(names, n, &allowed);
    for (PetscInt i = 0; i < n; i++) PetscCall(PetscFree(names[i]));
    PetscCall(ierr);
    PetscCheck(allowed, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-mat_aijtuned_formats must name at least one format");
    R->allowed = allowed;
  }
  {
    const char *planners[] = {"rules", "model"};
    PetscInt    which      = s->model_planner ? 1 : 0;
    PetscCall(PetscOptionsEList("-mat_aijtuned_planner", "Plan with the performance model (the rules where it has none) or with the rules", "MATAIJTUNED", planners, 2, planners[which], &which, NULL));
    s->model_planner = which ? PETSC_TRUE : PETSC_FALSE;
  }
  { /* read where a DM makes its interpolations (aijtunedinterp.c); listed here for -help */
    PetscInt as = 0;
    PetscCall(PetscOptionsEList("-mat_aijtuned_dm_interpolation", "With CUDA vectors, what a DM's interpolation of several fields (a MAIJ matrix around an aijtuned one, as a DMDA's) becomes: aijtuned, base (the base type, aijcusparse) or maij (PETSc's host MAIJ)", "MATAIJTUNED", MatAIJTunedInterpolationTypes, 3, MatAIJTunedInterpolationTypes[0], &as, NULL));
  }
  PetscCall(PetscOptionsString("-mat_aijtuned_model", "Performance model file (default: the model of this GPU in the models directory)", "MATAIJTUNED", s->model_file, s->model_file, sizeof(s->model_file), NULL));
  PetscCall(PetscOptionsBool("-mat_aijtuned_tune", "Tune each strip's threads per row (CSR, PANEL) or block row (BCSR), lanes per row (STREAM) or blocks per row (LONG) on the GPU during the first products, timing whole products", "MATAIJTUNED", s->tune, &s->tune, NULL));
  PetscCall(PetscOptionsBoundedInt("-mat_aijtuned_tune_calls", "Products that tuning may time (each tries one candidate of one strip)", "MATAIJTUNED", s->tune_calls, &s->tune_calls, NULL, 1));
  PetscCall(PetscOptionsString("-mat_aijtuned_tune_cache", "Tuning cache file, none for no cache (default: $AIJTUNED_TUNE_CACHE, else $XDG_CACHE_HOME/aijtuned/tune-cache or ~/.cache/aijtuned/tune-cache)", "MATAIJTUNED", s->tune_cache, s->tune_cache, sizeof(s->tune_cache), NULL));
  PetscCall(PetscOptionsBool("-mat_aijtuned_ghost_exchange", "On several ranks, MatMult exchanges ghost values itself (pinned host buffers, a second stream) instead of through MPIAIJ's scatter", "MATAIJTUNED", s->ghost_exchange, &s->ghost_exchange, NULL));
  PetscCall(PetscOptionsBool("-mat_aijtuned_ghost_peer", "With ranks on one node whose GPUs reach each other, that exchange copies ghost values between the GPUs (CUDA IPC), not through host memory", "MATAIJTUNED", s->ghost_peer, &s->ghost_peer, NULL));
  PetscCall(PetscOptionsBool("-mat_aijtuned_edge_rows", "With ghost values copied between GPUs, the diagonal block's first and last rows (those the off-diagonal block also writes) run with the off-diagonal block on the exchange's stream once the ghosts are in, beside the other rows", "MATAIJTUNED", s->edge_rows, &s->edge_rows, NULL));
  PetscCall(PetscOptionsReal("-mat_aijtuned_pin_mib", "Page-lock the host's value array (cudaHostRegister) at its first copy of new values to the GPU when it holds at least this many MiB, for copies at the link's speed (from 1 MiB: at its 16th copy in a row; negative: never)", "MATAIJTUNED", s->pin_mib, &s->pin_mib, NULL));
  PetscCheck(!PetscIsNanReal(s->pin_mib), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_aijtuned_pin_mib must be a number of MiB (negative: never), not NaN"); /* NaN passed every threshold test: it pinned every array */
  bval = R->sort ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscOptionsBool("-mat_aijtuned_sort", "Order rows by decreasing length before cutting strips", "MATAIJTUNED", bval, &bval, NULL));
  R->sort = bval ? 1 : 0;
  PetscCall(PetscOptionsBool("-mat_aijtuned_host_strips", "With host vectors, run MatMult through the strips' host reference", "MATAIJTUNED", s->host_strips, &s->host_strips, NULL));
  PetscCall(PetscOptionsBool("-mat_aijtuned_gpu_strips", "With CUDA vectors, run MatMult through the strips' kernels (false: the base type's kernel)", "MATAIJTUNED", s->gpu_strips, &s->gpu_strips, NULL));
  PetscCall(PetscOptionsBool("-mat_aijtuned_gpu_build", "Build the strips' layouts on the GPU from the uploaded matrix (false: on the host, then upload them)", "MATAIJTUNED", s->gpu_build, &s->gpu_build, NULL));
  PetscCall(PetscOptionsBool("-mat_aijtuned_gpu_plan", "With the GPU build and a model, the model planner reads the matrix on the GPU (the same plan; false: on the host)", "MATAIJTUNED", s->gpu_plan, &s->gpu_plan, NULL));
  PetscCall(PetscOptionsBool("-mat_aijtuned_plan_beside_upload", "The GPU planner runs in a thread of its own while the matrix's values (from 1 MiB) go up to the GPU, which the GPU build then takes, or while MatSetValuesCOO assembles them on the GPU (the same plan; false: planning first, the values at the first product)", "MATAIJTUNED", s->plan_beside, &s->plan_beside, NULL));
  PetscCall(PetscOptionsBool("-mat_aijtuned_dia_codes", "On the GPU, a DIA strip whose entries hold at most 255 distinct values reads a one-byte code per entry instead of the value (the same sums)", "MATAIJTUNED", s->dia_codes, &s->dia_codes, NULL));
  ival = (PetscInt)R->long_row;
  PetscCall(PetscOptionsBoundedInt("-mat_aijtuned_long_row", "Rules planner: Rows with at least this many entries are long (T_LONG)", "MATAIJTUNED", ival, &ival, NULL, 1));
  R->long_row = (aijt_int)ival;
  ival = (PetscInt)R->min_strip_rows;
  PetscCall(PetscOptionsBoundedInt("-mat_aijtuned_min_strip_rows", "Rules planner: Strips smaller than this join a neighbour", "MATAIJTUNED", ival, &ival, NULL, 1));
  R->min_strip_rows = (aijt_int)ival;
  rval = (PetscReal)R->min_strip_share;
  PetscCall(PetscOptionsReal("-mat_aijtuned_min_strip_share", "Rules planner: A strip needs at least this fraction of the matrix's entries", "MATAIJTUNED", rval, &rval, &flg));
  PetscCheck(!flg || (rval >= 0 && rval <= 1), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_aijtuned_min_strip_share %g must be in [0, 1]", (double)rval);
  R->min_strip_share = (double)rval;
  rval = (PetscReal)R->ell_max_pad;
  PetscCall(PetscOptionsReal("-mat_aijtuned_ell_max_pad", "Rules planner: ELL for strips whose padding is at most this fraction of their entries", "MATAIJTUNED", rval, &rval, &flg));
  PetscCheck(!flg || rval >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_aijtuned_ell_max_pad %g must be >= 0", (double)rval);
  R->ell_max_pad = (double)rval;
  ival = (PetscInt)R->sell_max_len;
  PetscCall(PetscOptionsBoundedInt("-mat_aijtuned_sell_max_len", "Rules planner: SELL and ELL for strips whose longest row has at most this many entries", "MATAIJTUNED", ival, &ival, NULL, 0));
  R->sell_max_len = (aijt_int)ival;
  ival = (PetscInt)R->sell_big_rows;
  PetscCall(PetscOptionsBoundedInt("-mat_aijtuned_sell_big_rows", "Rules planner: SELL also for rows up to 8 times sell_max_len in strips of at least this many rows (0: never)", "MATAIJTUNED", ival, &ival, NULL, 0));
  R->sell_big_rows = (aijt_int)ival;
  ival = R->sell_chunk;
  PetscCall(PetscOptionsRangeInt("-mat_aijtuned_sell_chunk", "Rows per SELL slice (C)", "MATAIJTUNED", ival, &ival, NULL, 1, 1024));
  R->sell_chunk = (int)ival;
  ival = R->sell_sigma;
  PetscCall(PetscOptionsRangeInt("-mat_aijtuned_sell_sigma", "Rules planner: SELL sorting window for plans in natural order (sigma)", "MATAIJTUNED", ival, &ival, NULL, 1, 1 << 20));
  R->sell_sigma = (int)ival;
  rval = (PetscReal)R->dia_min_fill;
  PetscCall(PetscOptionsReal("-mat_aijtuned_dia_min_fill", "Rules planner: DIA for matrices whose entries fill at least this share of their diagonals", "MATAIJTUNED", rval, &rval, &flg));
  PetscCheck(!flg || (rval >= 0 && rval <= 1), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_aijtuned_dia_min_fill %g must be in [0, 1]", (double)rval);
  R->dia_min_fill = (double)rval;
  rval = (PetscReal)R->panel_min_len;
  PetscCall(PetscOptionsReal("-mat_aijtuned_panel_min_len", "PANEL (column panels of x in shared memory) for matrices of at least 4 panels whose rows hold at least this many entries per panel on average", "MATAIJTUNED", rval, &rval, &flg));
  PetscCheck(!flg || rval >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_aijtuned_panel_min_len %g must be >= 0", (double)rval);
  R->panel_min_len = (double)rval;
  ival = (PetscInt)R->col_order;
  PetscCall(PetscOptionsEList("-mat_aijtuned_col_order", "Relabel the columns by decreasing number of entries, each product first copying the most popular ones' x values together: auto (matrices of at least 262144 columns whose most popular sixteenth of the columns holds half the entries), degree (always, unless the plan has DIA or PANEL strips) or natural", "MATAIJTUNED", aijt_col_order_names, 3, aijt_col_order_names[ival], &ival, NULL));
  R->col_order = (aijt_col_order)ival;
  ival = (PetscInt)R->col_hot_degree;
  PetscCall(PetscOptionsBoundedInt("-mat_aijtuned_col_hot_degree", "With a column order: columns of at least this many entries are hot, their x values copied together at the start of each product, the others read from x (at least one column is hot; 0: all)", "MATAIJTUNED", ival, &ival, NULL, 0));
  R->col_hot_degree = (aijt_int)ival;
  PetscOptionsHeadEnd();
  s->from_options = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The options read now, under a title of their own rather than the object's: -help lists a title once,
   and a matrix's own title may have been listed before its type became aijtuned (loaded as AIJ, then
   -mat_type aijtuned inside MatSetFromOptions()), which left aijtuned's options out of the listing. */
PetscErrorCode MatAIJTunedSettingsReadNow(Mat A, MatAIJTunedSettings *s)
{
  const char *prefix;

  PetscFunctionBegin;
  PetscCall(MatGetOptionsPrefix(A, &prefix));
  PetscOptionsBegin(PetscObjectComm((PetscObject)A), prefix, "Matrix aijtuned (MATAIJTUNED) options", "Mat");
  PetscCall(MatAIJTunedSettingsFromOptions(PetscOptionsObject, s));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* For matrices whose program never calls MatSetFromOptions(): read the options once, before the first plan. */
PetscErrorCode MatAIJTunedSettingsRead(Mat A, MatAIJTunedSettings *s)
{
  PetscFunctionBegin;
  if (!s->from_options) PetscCall(MatAIJTunedSettingsReadNow(A, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}
