/* Plan digests of the host model planner (strips, predictions, order, column order) with the H100 and H200 models, and
   the least planning time of REPS: plan_digests REPS FILE...  Built against a tree's src/mat/impls/tuned/plan (cc -std=gnu99
   -O3 -I$P plan_digests.c $P/*.c -lm); the models are read from /work/main/models.  Two trees' outputs compared
   line by line: the same digests, the same plans. */
#include "aijtmodel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec*1e-3;}
typedef struct {int r,c;} ent;
static int cmp(const void*a,const void*b){const ent*x=a,*y=b; return x->r!=y->r? x->r-y->r : x->c-y->c;}
static void mix(uint64_t*h,const void*p,size_t n){const unsigned char*c=p; for(size_t i=0;i<n;i++) *h=(*h^c[i])*1099511628211ull;}
#define MIX(x) mix(&h,&(x),sizeof(x))
int main(int argc,char**argv){
  aijt_model M[2]; char why[256];
  aijt_model_load("/work/main/models/NVIDIA-H100-80GB-HBM3.model",&M[0],why,sizeof why);
  aijt_model_load("/work/main/models/NVIDIA-H200.model",&M[1],why,sizeof why);
  int reps=atoi(argv[1]);
  for(int a=2;a<argc;a++){
  char cmd[512]; snprintf(cmd,sizeof cmd,"zcat %s",argv[a]); FILE*f=popen(cmd,"r"); char line[1024];
  int sym=0, pat=0; fgets(line,sizeof line,f); if(strstr(line,"symmetric")||strstr(line,"hermitian")) sym=1;
  while(fgets(line,sizeof line,f)) if(line[0]!='%') break;
  int m,n; long nz; sscanf(line,"%d %d %ld",&m,&n,&nz);
  ent*e=malloc(sizeof(ent)*nz*2+16); long k=0;
  for(long i=0;i<nz;i++){int r,c; if(!fgets(line,sizeof line,f)) break; sscanf(line,"%d %d",&r,&c); e[k++]=(ent){r-1,c-1}; if(sym&&r!=c) e[k++]=(ent){c-1,r-1};}
  pclose(f);
  qsort(e,k,sizeof(ent),cmp);
  long w=0; for(long i=0;i<k;i++) if(!w||e[i].r!=e[w-1].r||e[i].c!=e[w-1].c) e[w++]=e[i]; k=w;
  aijt_int*rp=calloc(m+1,sizeof(aijt_int)),*ci=malloc(sizeof(aijt_int)*(k+1)); double*v=malloc(sizeof(double)*(k+1));
  for(long i=0;i<k;i++){rp[e[i].r+1]++; ci[i]=e[i].c; v[i]=1;}
  for(int i=0;i<m;i++) rp[i+1]+=rp[i];
  aijt_csr A={0}; A.nrows=m;A.ncols=n;A.rowptr=rp;A.colidx=ci;A.values=v;
  aijt_rules R; aijt_rules_default(&R);
  const char*b=strrchr(argv[a],'/'); b=b?b+1:argv[a];
  printf("%-40s", b);
  for(int q=0;q<2;q++){
    double best=1e30; uint64_t h=14695981039346656037ull;
    for(int r=0;r<reps;r++){aijt_plan*p; double t=now(); aijt_plan_model(&A,&R,&M[q],&p); t=now()-t; if(t<best)best=t;
      if(r==0){ MIX(p->sorted); MIX(p->nstrips); MIX(p->tail_nnz); MIX(p->col_hot);
        for(int s=0;s<p->nstrips;s++){aijt_strip*S=&p->strips[s]; MIX(S->format);MIX(S->begin);MIX(S->end);MIX(S->nnz);MIX(S->tail_nnz);MIX(S->max_len);MIX(S->tpr);MIX(S->block);MIX(S->blocks_per_row);MIX(S->width);MIX(S->chunk);MIX(S->sigma);MIX(S->predicted_us);}
        if(p->order) mix(&h,p->order,sizeof(aijt_int)*m); if(p->col_pos) mix(&h,p->col_pos,sizeof(aijt_int)*n);}
      aijt_plan_destroy(&p);}
    printf(" %016llx %8.1f us", (unsigned long long)h, best);
  }
  printf("\n"); free(e); free(rp); free(ci); free(v);
  }
}
