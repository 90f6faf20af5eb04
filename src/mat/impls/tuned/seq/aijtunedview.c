/* The plan as -mat_view ::ascii_info shows it. */
#include "../aijtunedimpl.h"

static PetscErrorCode Print(PetscViewer viewer, PetscBool synchronized, const char *line)
{
  PetscFunctionBegin;
  if (synchronized) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "%s", line));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "%s", line));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What priced the plan: the performance model given to the planner (the one named, this GPU's, or the nearest, whose
   predictions are another GPU's), or none (the rules).  The file is in -info's line (aijtunedmodel.c).  mpiaijtuned's
   summary prints rank 0's diagonal block's, and how many ranks' differ. */
PetscErrorCode MatSeqAIJTunedPlannedWith(Mat_SeqAIJTuned *ctx, char line[], size_t len)
{
  const aijt_model *model;
  char              device[256] = "";

  PetscFunctionBegin;
  PetscCall(MatAIJTunedModelGet(&ctx->planned, &model));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatAIJTunedCUDADeviceName(device, sizeof(device)));
#endif
  if (!model) PetscCall(PetscSNPrintf(line, len, "  planned with: the rules (no performance model)\n"));
  else if (ctx->planned.model_file[0]) PetscCall(PetscSNPrintf(line, len, "  planned with: the performance model of \"%s\" (-mat_aijtuned_model %s)\n", model->device, ctx->planned.model_file));
  else if (device[0] && !strcmp(model->device, device)) PetscCall(PetscSNPrintf(line, len, "  planned with: the performance model of this GPU, \"%s\"\n", model->device));
  else if (device[0]) PetscCall(PetscSNPrintf(line, len, "  planned with: the performance model of \"%s\", the nearest to this GPU, \"%s\" (aijt_calibrate makes its own)\n", model->device, device));
  else PetscCall(PetscSNPrintf(line, len, "  planned with: the performance model of \"%s\"\n", model->device));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* synchronized: the caller holds PetscViewerASCIIPushSynchronized() and prints every rank's plan */
PetscErrorCode MatSeqAIJTunedViewPlan(Mat A, PetscViewer viewer, PetscBool synchronized)
{
  Mat_SeqAIJTuned *ctx;
  const aijt_plan *p;
  aijt_int         nstrips[AIJT_NFORMATS], rows[AIJT_NFORMATS], nnz[AIJT_NFORMATS];
  char             line[400], strip[256], cols[64] = "", gpu[64] = "";

  PetscFunctionBegin;
  PetscCall(MatSeqAIJTunedUpdate(A));
  PetscCall(MatSeqAIJTunedGetContext(A, &ctx));
  p = ctx->plan;
#if defined(PETSC_HAVE_CUDA)
  if (MatSeqAIJTunedCUDABytes(ctx)) PetscCall(PetscSNPrintf(gpu, sizeof(gpu), " (%.3g MB on the GPU)", (double)MatSeqAIJTunedCUDABytes(ctx) / 1e6));
  else if (MatSeqAIJTunedCUDANoRoom(ctx)) PetscCall(PetscStrncpy(gpu, " (no room on the GPU: the base's kernel multiplies)", sizeof(gpu)));
#endif
  if (p->col_hot) PetscCall(PetscSNPrintf(cols, sizeof(cols), ", columns by degree, %" PetscInt_FMT " hot", (PetscInt)p->col_hot));
  PetscCall(PetscSNPrintf(line, sizeof(line), "aijtuned plan: %d strips over %" PetscInt_FMT " rows (%s%s), COO tail %" PetscInt_FMT " entries, layouts %.3g MB%s, MatMult on host: %s\n", p->nstrips, (PetscInt)p->nrows, p->sorted ? "sorted by length" : "natural order", cols, (PetscInt)p->tail_nnz,
                          (double)aijt_layouts_bytes(ctx->layouts) / 1e6, gpu, (ctx->settings.host_strips || !ctx->base_host_kernel) ? "strips (host reference)" : "base kernel"));
  PetscCall(Print(viewer, synchronized, line));
  PetscCall(PetscSNPrintf(line, sizeof(line), "  row lengths: min %" PetscInt_FMT ", mean %.3g, std %.3g, max %" PetscInt_FMT ", empty rows %" PetscInt_FMT "\n", (PetscInt)p->features.min_len, p->features.mean_len, p->features.std_len, (PetscInt)p->features.max_len, (PetscInt)p->features.empty_rows));
  PetscCall(Print(viewer, synchronized, line));
  PetscCall(MatSeqAIJTunedPlannedWith(ctx, line, sizeof(line)));
  PetscCall(Print(viewer, synchronized, line));
  aijt_plan_summary(p, nstrips, rows, nnz);
  for (int f = 0; f < AIJT_NFORMATS; f++) {
    if (!nstrips[f] && !(f == AIJT_COO && nnz[f])) continue;
    PetscCall(PetscSNPrintf(line, sizeof(line), "  %-4s: %" PetscInt_FMT " strips, %" PetscInt_FMT " rows, %" PetscInt_FMT " entries\n", aijt_format_names[f], (PetscInt)nstrips[f], (PetscInt)rows[f], (PetscInt)nnz[f]));
    PetscCall(Print(viewer, synchronized, line));
  }
  for (int s = 0; s < p->nstrips; s++) {
    char note[64] = "";
    aijt_strip_describe(&p->strips[s], strip, sizeof(strip));
#if defined(PETSC_HAVE_CUDA)
    PetscCall(MatSeqAIJTunedCUDAStripNote(ctx, s, note, sizeof(note)));
#endif
    PetscCall(PetscSNPrintf(line, sizeof(line), "  strip %d: %s%s\n", s, strip, note));
    PetscCall(Print(viewer, synchronized, line));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
