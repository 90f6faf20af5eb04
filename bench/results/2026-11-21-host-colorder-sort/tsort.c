#include "aijtmodel.h"
#include "planbuild.h"
#include "matgen.h" /* bench/gen */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){
  matgen_csr M; matgen_generate("rmat", argc>1?atoi(argv[1]):21, &M);
  aijt_int *rp=malloc((M.nrows+1)*4),*ci=malloc(M.nnz*4);
  for(long i=0;i<=M.nrows;i++)rp[i]=M.rowptr[i]; for(long k=0;k<M.nnz;k++)ci[k]=M.col[k];
  aijt_csr A={M.nrows,M.ncols,rp,ci,M.val,NULL};
  aijt_model m; char why[256]; if(aijt_model_load("models/NVIDIA-H100-80GB-HBM3.model",&m,why,sizeof why)){printf("model?\n");return 1;}
  for(int c=2;c>=0;c-=1){ if(c==0)continue; aijt_rules R; aijt_rules_default(&R); R.col_order=c==2?AIJT_COLS_NATURAL:AIJT_COLS_DEGREE;
    aijt_plan*p; double t0=now(); aijt_plan_model(&A,&R,&m,&p); double t1=now(); aijt_layouts*L; aijt_layouts_build(p,&A,&L); aijt_layouts_destroy(&L); double t2=now(); aijt_layouts_build(p,&A,&L); double t3=now(); printf("second build %.0f ms\n",1e3*(t3-t2));
    printf("%s: plan %.0f ms build %.0f ms\n", c==2?"natural":"degree",1e3*(t1-t0),1e3*(t2-t1)); aijt_layouts_destroy(&L); aijt_plan_destroy(&p);}
  return 0;}
