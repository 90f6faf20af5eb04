/* The host part of aijt_plan_model_from with its passes replayed from cached results (as the GPU source
   gives them): cc -std=c99 -O2 -D_POSIX_C_SOURCE=200809L -Isrc/mat/impls/tuned/plan -Ibench/gen -Ibench/common
   replay_host.c bench/gen/matgen.c src/mat/impls/tuned/plan/*.c -lm;  ./a.out MODEL box27 lap3d ... */
#include "aijtmodel.h"
#include "planbuild.h"
#include "matgen_aijt.h"
#include "wallclock.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { aijt_plan_source host; aijt_features f; aijt_int *count; int nd; aijt_int off[AIJT_DIA_MAX_DIAGS]; } cached;
static aijt_err c_lengths(void *ctx, aijt_features *f, aijt_int **count){ cached *c=ctx; *f=c->f; size_t n=(size_t)c->f.max_len+1; *count=malloc(n*sizeof(aijt_int)); memcpy(*count,c->count,n*sizeof(aijt_int)); return AIJT_OK; }
static int c_diag(void *ctx, int max, aijt_int *o){ cached *c=ctx; if (c->nd>0) memcpy(o,c->off,c->nd*sizeof(aijt_int)); return c->nd; }
static aijt_err c_columns(void *ctx, const aijt_rules *R, int nd, aijt_plan *p){ cached *c=ctx; return c->host.columns(c->host.ctx,R,nd,p); }
static aijt_err c_rows(void *ctx, aijt_int m, const aijt_int *count, aijt_int **order){ cached *c=ctx; return c->host.rows(c->host.ctx,m,count,order); }
static aijt_err c_sectors(void *ctx, const aijt_plan *p, const aijt_window *w, int n, int *d){ cached *c=ctx; return c->host.sectors(c->host.ctx,p,w,n,d); }
int main(int argc, char **argv){
  aijt_model m; char why[256]; aijt_rules R; aijt_rules_default(&R);
  if (aijt_model_load(argv[1], &m, why, sizeof why)) { printf("model: %s\n", why); return 1; }
  for (int a=2;a<argc;a++){
    matgen_csr M; aijt_csr A; if (matgen_generate(argv[a], 0, &M) || matgen_to_aijt(&M,&A)) return 1;
    cached c; aijt_plan_source_host(&A,&c.host);
    c.host.lengths(c.host.ctx,&c.f,&c.count); c.nd=c.host.diagonals(c.host.ctx,AIJT_DIA_MAX_DIAGS,c.off);
    aijt_plan_source s={&c,c_lengths,c_diag,c_columns,c_rows,c_sectors,NULL};
    double best=1e9;
    for (int r=0;r<20;r++){ aijt_plan *p; double t0=wall_seconds(); aijt_err e=aijt_plan_model_from(&A,&s,&R,&m,&p); double t=wall_seconds()-t0; if(e){printf("err %d\n",e);return 1;} if(t<best)best=t; if(r==19) printf("%-8s nd %3d strips %d fmt %d  host part %.1f us\n",argv[a],c.nd,p->nstrips,p->strips[0].format,best*1e6); aijt_plan_destroy(&p);}
  }
  return 0;
}
