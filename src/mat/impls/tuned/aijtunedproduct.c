/* Products (MatMatMult, MatPtAP, ...) of aijtuned matrices: the base type's own products, on the base's data.

   PETSc picks a product's implementation by its operands' type names, and the base's products check those names
   again in their symbolic and numeric phases.  PETSc's cuSPARSE products take only operands named seqaijcusparse:
   with a seqaijtuned operand they ran on the host (PCGAMG's Galerkin products, bench/results/2026-11-26-tutorials)
   or stopped ("Not for type seqaijtuned": seqaijtuned times seqaijcusparse, or times seqdensecuda).  aijtuned
   keeps its base's data (A->data, A->spptr) and changes none of it, so the base's product works on it as it is.
   Here a product is looked up as if every aijtuned operand were of its base type, and while its set-up, its
   symbolic and its numeric phase run, the seqaijtuned operands of a GPU base carry their base's name.  The
   product is then the base's, on the GPU.  Its result, of the base's type, becomes aijtuned when the first operand
   is (ResultAsFirstOperand), as a host AIJ product's result takes its first operand's type.

   An mpiaijtuned operand carries its base's name with its two blocks (mpiaijcusparse, seqaijcusparse): PETSc's
   device backend for MPI products multiplies the blocks with cuSPARSE, and asked for seqaijcusparse blocks by
   name ("Not for type seqaijtuned", bench/results/2026-11-26-tutorials).  Operands of a host AIJ base keep
   their names: the host's product makes a result of the first operand's type, and an aijtuned result keeps
   planning its products. */
#include "aijtunedimpl.h"

/* A product's operands: A, B and, for ABC, C */
static int Operands(Mat C, Mat mats[3])
{
  Mat_Product *product = C->product;

  mats[0] = product->A;
  mats[1] = product->B;
  mats[2] = product->type == MATPRODUCT_ABC ? product->C : NULL;
  return mats[2] ? 3 : 2;
}

/* *ierr = f(C) with C's aijtuned operands, and C if aijtuned, under their base's names (host_aij: the host AIJ's),
   which come back whatever f did; *renamed (NULL if not wanted): whether any operand was renamed */
static PetscErrorCode CallAsBase(Mat C, PetscErrorCode (*f)(Mat), PetscBool host_aij, PetscBool *renamed, PetscErrorCode *ierr)
{
  Mat              mats[3];
  int              n = Operands(C, mats);
  MatAIJTunedNames b = {.n = 0};
  PetscErrorCode (*rename)(Mat, MatAIJTunedNames *) = host_aij ? MatAIJTunedNameAsHostAIJ : MatAIJTunedNameAsBase;

  PetscFunctionBegin;
  for (int i = 0; i < n; i++) PetscCall(rename(mats[i], &b));
  if (renamed) *renamed = (PetscBool)(b.n > 0);
  PetscCall(rename(C, &b)); /* the base's numeric phase checks its result's name too */
  *ierr = (*f)(C);
  PetscCall(MatAIJTunedNamesRestore(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What PETSc's dispatch would pick if every aijtuned operand were of its base type: the operands' common set-up
   (an aijtuned operand offers its base's), else the one composed under the type names
   ("MatProductSetFromOptions_seqdense_seqaij_C"), with the base's name for each aijtuned operand, else with the host
   AIJ's name for it: a MAIJ interpolation (a multi-component DMDA's) offers its product under seqaij's and mpiaij's
   names only, and with aijcusparse operands PETSc makes it aijcusparse instead (MatCreateMAIJ), which it does not
   for aijtuned ones; its product runs on the host, as with aij, on the host values (HostValues).  So does an MPI
   product of an aijtuned and a host AIJ operand (mpiaij offers "MatProductSetFromOptions_mpiaij_mpiaij_C"; PETSc has
   none for mpiaijcusparse times mpiaij): an aijtuned operator times a DM's AIJ interpolation under PCMG's Galerkin
   products.  *host_aij: the set-up was found so, and the product's phases run with the aijtuned operands under the
   host AIJ's names, as PETSc's host product reads them.  NULL if none. */
static PetscErrorCode BaseSetFromOptions(Mat C, PetscErrorCode (**f)(Mat), PetscBool *host_aij)
{
  Mat       mats[3];
  int       n = Operands(C, mats);
  char      fname[256] = "MatProductSetFromOptions", hname[256] = "MatProductSetFromOptions";
  PetscBool common     = PETSC_TRUE;

  PetscFunctionBegin;
  *f        = NULL;
  *host_aij = PETSC_FALSE;
  for (int i = 0; i < n; i++) {
    MatAIJTunedBase *base;
    PetscBool        seq;
    PetscErrorCode (*op)(Mat);
    const char *name = ((PetscObject)mats[i])->type_name;
    PetscCall(MatAIJTunedBaseFind(mats[i], &base, &seq));
    op = base ? base->ops.productsetfromoptions : mats[i]->ops->productsetfromoptions;
    if (i == 0) *f = op;
    common = (PetscBool)(common && op == *f);
    PetscCall(PetscStrlcat(fname, "_", sizeof(fname)));
    PetscCall(PetscStrlcat(fname, base ? base->type : name, sizeof(fname)));
    PetscCall(PetscStrlcat(hname, "_", sizeof(hname)));
    PetscCall(PetscStrlcat(hname, base ? (seq ? MATSEQAIJ : MATMPIAIJ) : name, sizeof(hname)));
  }
  if (common && *f) PetscFunctionReturn(PETSC_SUCCESS);
  *f = NULL;
  PetscCall(PetscStrlcat(fname, "_C", sizeof(fname)));
  PetscCall(PetscStrlcat(hname, "_C", sizeof(hname)));
  for (int i = 0; i < n && !*f; i++) PetscCall(PetscObjectQueryFunction((PetscObject)mats[i], fname, f));
  for (int i = 0; i < n && !*f; i++) {
    PetscCall(PetscObjectQueryFunction((PetscObject)mats[i], hname, f));
    *host_aij = (PetscBool)(*f != NULL);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base's set-up of the product, under the base's names (*host_aij: the host AIJ's, BaseSetFromOptions) */
static PetscErrorCode SetUpAsBase(Mat C, PetscBool *renamed, PetscBool *host_aij)
{
  PetscErrorCode (*f)(Mat);
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *renamed = PETSC_FALSE;
  PetscCall(BaseSetFromOptions(C, &f, host_aij));
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CallAsBase(C, f, *host_aij, renamed, &ierr));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operands' values on the host as well: PETSc's cuSPARSE MatPtAP reads them there, and gave wrong results for
   an operand whose values had changed on the GPU alone (MatScale), with aijcusparse operands too (tests/mat/ops.c).
   A copy only where the host's are stale. */
static PetscErrorCode HostValues(Mat C)
{
  Mat mats[3];
  int n = Operands(C, mats);

  PetscFunctionBegin;
  for (int i = 0; i < n; i++) {
    Mat                blocks[2] = {mats[i], NULL};
    PetscBool          mpiaij;
    const PetscScalar *values;
    PetscCall(PetscObjectBaseTypeCompare((PetscObject)mats[i], MATMPIAIJ, &mpiaij));
    if (mpiaij) {
      const PetscInt *garray;
      PetscCall(MatMPIAIJGetSeqAIJ(mats[i], &blocks[0], &blocks[1], &garray));
    }
    for (int k = 0; k < 2 && blocks[k]; k++) {
      PetscBool seqaij;
      PetscCall(PetscObjectBaseTypeCompare((PetscObject)blocks[k], MATSEQAIJ, &seqaij));
      if (!seqaij) continue;
      PetscCall(MatSeqAIJGetArrayRead(blocks[k], &values));
      PetscCall(MatSeqAIJRestoreArrayRead(blocks[k], &values));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C, made by the base's symbolic phase, of the base's type (seqaijcusparse, mpiaijcusparse), becomes aijtuned in place
   when the first operand is, as PETSc's host products give their result the first operand's type.  Left of the
   base's type, it was a cuSPARSE matrix in the program's hands: PETSc's cuSPARSE products and MPI smoothers read host
   vectors as device arrays, and SNES VI with PCMG (snes tutorial ex9), whose reduced vectors are host vectors, smoothed
   its Galerkin coarse operators with them into a wrong solution (bench/results/2026-11-26-tutorial-diff).  aijtuned
   keeps the base's data and the product's, so the base's numeric phase goes on working on C under the base's name. */
static PetscErrorCode ResultAsFirstOperand(Mat C)
{
  MatAIJTunedBase *base;
  PetscBool        named, of_base_type;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedBaseFind(C->product->A, &base, NULL));
  if (!base) PetscFunctionReturn(PETSC_SUCCESS);
  /* an inner product of PETSc's MPI back-end multiplies blocks that carry their base's name: its result stays the
     base's, as that back-end reads it */
  PetscCall(PetscObjectTypeCompareAny((PetscObject)C->product->A, &named, MATSEQAIJTUNED, MATMPIAIJTUNED, ""));
  if (!named) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectTypeCompare((PetscObject)C, base->type, &of_base_type));
  if (!of_base_type) PetscFunctionReturn(PETSC_SUCCESS); /* a dense result, or one of another type */
  PetscCall(MatAIJTunedFromBase(&C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The base's numeric phase, and the operands' states at the symbolic phase: composed on the product
   (MatAIJTunedRecordAttach), not kept in its data slot, which stays the base's: PETSc's products of three (A B C with a
   dense operand, P^T A P or R A R^T of other types: the "Unsafe" ones) call the base's numeric phase of their
   inner product directly, on that slot (mat/tests ex111 on two ranks stopped on a segmentation fault when it held
   this record instead) */
#define BASE_PRODUCT "MatAIJTunedBaseProduct"
typedef struct {
  PetscErrorCode (*numeric)(Mat);
  PetscBool        host_aij; /* the phases run with the aijtuned operands under the host AIJ's names */
  Mat              mats[3];  /* MatProductReplaceMats() may put others in their place */
  PetscObjectState state[3], nonzerostate[3];
} BaseProduct;

static PetscErrorCode RecordStates(Mat C, BaseProduct *p)
{
  Mat mats[3];
  int n = Operands(C, mats);

  PetscFunctionBegin;
  for (int i = 0; i < n; i++) {
    p->mats[i] = mats[i];
    PetscCall(PetscObjectStateGet((PetscObject)mats[i], &p->state[i]));
    p->nonzerostate[i] = mats[i]->nonzerostate;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the base's numeric phase would read what its symbolic phase kept of operands since changed, and so give
   a wrong result (with aijcusparse operands too, tests/mat/ops.c): PETSc's cuSPARSE numeric phase of A^T B (and
   of A B^T, P^T A P, R A R^T) reuses the transpose of A (B, P, R) made then, from the values of then; and a
   product of three (P^T A P) keeps its inner products' operands, which MatProductReplaceMats() (MatPtAP's reuse
   with another A) does not replace. */
static PetscErrorCode MustRemake(Mat C, const BaseProduct *p, PetscBool *remake)
{
  Mat            mats[3];
  int            n    = Operands(C, mats);
  MatProductType type = C->product->type;
  int            transposed = type == MATPRODUCT_AtB ? 0 : (type == MATPRODUCT_ABt || type == MATPRODUCT_PtAP || type == MATPRODUCT_RARt) ? 1 : -1;

  PetscFunctionBegin;
  *remake = PETSC_FALSE;
  for (int i = 0; i < n; i++) {
    PetscObjectState state;
    if (mats[i] != p->mats[i]) { /* another matrix, of the same pattern if the caller keeps PETSc's rule */
      *remake = PETSC_TRUE;
      continue;
    }
    PetscCall(PetscObjectStateGet((PetscObject)mats[i], &state));
    PetscCheck(mats[i]->nonzerostate == p->nonzerostate[i], PetscObjectComm((PetscObject)C), PETSC_ERR_ARG_INCOMP, "The nonzero pattern of an operand changed since the product's symbolic phase");
    if (i == transposed && state != p->state[i]) *remake = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The product made afresh from the operands of now (its symbolic phase makes the transposes from the values of now)
   and copied into C */
static PetscErrorCode ProductAfresh(Mat C)
{
  Mat_Product *product = C->product;
  Mat          D;

  PetscFunctionBegin;
  PetscCall(MatProductCreate(product->A, product->B, product->type == MATPRODUCT_ABC ? product->C : NULL, &D));
  PetscCall(MatProductSetType(D, product->type));
  PetscCall(MatProductSetAlgorithm(D, product->alg));
  PetscCall(MatProductSetFill(D, product->fill));
  PetscCall(MatProductSetFromOptions(D));
  PetscCall(MatProductSymbolic(D));
  PetscCall(MatProductNumeric(D));
  PetscCall(MatCopy(D, C, SAME_NONZERO_PATTERN));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ProductNumeric_AsBase(Mat C)
{
  BaseProduct   *p;
  PetscBool      remake;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(MatAIJTunedRecordFind((PetscObject)C, BASE_PRODUCT, (void **)&p));
  PetscCheck(p && p->numeric, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "aijtuned: the product has no base's numeric phase");
  PetscCall(MustRemake(C, p, &remake));
  if (remake) {
    Mat mats[3];
    int n = Operands(C, mats);
    PetscCall(ProductAfresh(C));
    /* the transposes are the values' of now; an operand replaced stays so for the base's data, made afresh each time */
    for (int i = 0; i < n; i++)
      if (mats[i] == p->mats[i]) PetscCall(PetscObjectStateGet((PetscObject)mats[i], &p->state[i]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(HostValues(C));
  PetscCall(CallAsBase(C, p->numeric, p->host_aij, NULL, &ierr));
  /* a product of three (P^T A P on the GPU) puts its own numeric phase back in C's operations after each call,
     where this one must stay to rename the operands the next time */
  if (C->ops->productnumeric != ProductNumeric_AsBase) p->numeric = C->ops->productnumeric;
  C->ops->productnumeric = ProductNumeric_AsBase;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The symbolic phase the base's set-up picks, asked again (PETSc's set-up keeps nothing but the operations), run
   under the base's names; its numeric phase is kept in the product's record. */
static PetscErrorCode ProductSymbolic_AsBase(Mat C)
{
  BaseProduct   *p;
  PetscBool      renamed, host_aij;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  C->ops->productsymbolic = NULL; /* as PETSc's dispatch leaves it for the set-up, some of which set it only where unset
                                     (MPIAIJ's device back-end for A B C, mat/tests ex111) */
  PetscCall(SetUpAsBase(C, &renamed, &host_aij));
  PetscCheck(C->ops->productsymbolic && C->ops->productsymbolic != ProductSymbolic_AsBase, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "aijtuned: the base's product set-up changed between set-up and symbolic phase");
  PetscCall(HostValues(C));
  PetscCall(CallAsBase(C, C->ops->productsymbolic, host_aij, NULL, &ierr));
  PetscCall(ierr);
  if (!host_aij) PetscCall(ResultAsFirstOperand(C)); /* the host's product makes a host AIJ result, as for aij */
  C->ops->productsymbolic = ProductSymbolic_AsBase; /* MatProductSymbolic may run again after MatProductClear */
  if (!C->ops->productnumeric) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatAIJTunedRecordAttach((PetscObject)C, BASE_PRODUCT, sizeof(*p), (void **)&p));
  p->numeric             = C->ops->productnumeric;
  p->host_aij            = host_aij;
  PetscCall(RecordStates(C, p));
  C->ops->productnumeric = ProductNumeric_AsBase;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The set-up of every product with an aijtuned operand: seqaijtuned's operation, and PETSc's last resort for
   operands of different types ("MatProductSetFromOptions_anytype_C", composed on every aijtuned matrix).
   A dense matrix times an aijtuned one had no product before it (mat/tests ex89, ex93, ex104, ex111). */
PetscErrorCode MatAIJTunedProductSetFromOptions(Mat C)
{
  PetscBool renamed, host_aij;

  PetscFunctionBegin;
  PetscCall(SetUpAsBase(C, &renamed, &host_aij));
  if (renamed && C->ops->productsymbolic) C->ops->productsymbolic = ProductSymbolic_AsBase;
  PetscFunctionReturn(PETSC_SUCCESS);
}
