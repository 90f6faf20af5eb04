/* The model planner's host part with every pass replayed as the GPU source gives it (order and column
   order left on the device: NULL here), from a recording of the host source's results: what a plan costs
   the host beyond its waits for the GPU.  Offline tool; the development machine, no GPU.
     cc -std=c99 -O2 [-DEXACT_UPTO=N with classes.patch applied] -D_POSIX_C_SOURCE=200809L \
        -Isrc/mat/impls/tuned/plan -Ibench/gen -Ibench/common replay.c bench/gen/matgen.c \
        src/mat/impls/tuned/plan/*.c -lm -lz -o replay
     ./replay MODEL name|file.mtx.gz ...      (PRINT=1: the strips; REPS=n: n more plans, for perf;
     FLUSH=1: 256 MiB written before each timed plan, so that it starts with cold caches, as after an assembly) */
#include "aijtmodel.h"
#include "planbuild.h"
#include "matgen_aijt.h"
#include "wallclock.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#define MAXS 64
typedef struct {
  aijt_plan_source host;
  aijt_features f; aijt_int *count; int nd; aijt_int off[AIJT_DIA_MAX_DIAGS];
  int nblk; /* one block size tested a plan, at most (the matrix's own) */
  int col_hot; int nsec; int secn[MAXS]; int *sec[MAXS]; int isec;
  int record;
} rec;
static aijt_err r_lengths(void *ctx, aijt_features *f, aijt_int **count){ rec *c=ctx; if(c->record){aijt_err e=c->host.lengths(c->host.ctx,f,count); if(e) return e; c->f=*f; size_t n=(size_t)f->max_len+1; c->count=malloc(n*sizeof(aijt_int)); memcpy(c->count,*count,n*sizeof(aijt_int)); return 0;} *f=c->f; size_t n=(size_t)c->f.max_len+1; *count=malloc(n*sizeof(aijt_int)); memcpy(*count,c->count,n*sizeof(aijt_int)); return 0; }
static int r_diag(void *ctx, int max, aijt_int *o){ rec *c=ctx; if(c->record){ c->nd=c->host.diagonals(c->host.ctx,max,c->off);} if (c->nd>0) memcpy(o,c->off,c->nd*sizeof(aijt_int)); return c->nd; }
static int r_blocks(void *ctx, int bs){ rec *c=ctx; if(c->record){ c->nblk=c->host.blocks(c->host.ctx,bs);} return c->nblk; }
static aijt_err r_columns(void *ctx, const aijt_rules *R, int nd, aijt_plan *p){ rec *c=ctx; if(c->record){ aijt_err e=c->host.columns(c->host.ctx,R,nd,p); c->col_hot=p->col_hot; return e;} aijt_plan_drop_col_order(p); p->col_hot=c->col_hot; return 0; }
static aijt_err r_rows(void *ctx, aijt_int m, const aijt_int *count, aijt_int **order){ rec *c=ctx; if(c->record) return c->host.rows(c->host.ctx,m,count,order); *order=NULL; return 0; }
static aijt_err r_sectors(void *ctx, const aijt_plan *p, const aijt_window *w, int n, int *d){ rec *c=ctx; if(c->record){ aijt_err e=c->host.sectors(c->host.ctx,p,w,n,d); c->sec[c->nsec]=malloc(n*sizeof(int)); memcpy(c->sec[c->nsec],d,n*sizeof(int)); c->secn[c->nsec++]=n; return e;} if(c->isec>=c->nsec||c->secn[c->isec]!=n){fprintf(stderr,"sectors mismatch\n");exit(1);} memcpy(d,c->sec[c->isec++],n*sizeof(int)); return 0; }
static aijt_err r_fetch(void *ctx, aijt_plan *p){ (void)ctx;(void)p; return 0; }

static int read_mtx(const char *path, aijt_csr *A){
  gzFile f=gzopen(path,"r"); if(!f) return 1; char line[4096]; int pattern=0, sym=0;
  gzgets(f,line,sizeof line); pattern=strstr(line,"pattern")!=NULL; sym=strstr(line,"symmetric")!=NULL;
  while(gzgets(f,line,sizeof line) && line[0]=='%');
  long m,n,nz; sscanf(line,"%ld %ld %ld",&m,&n,&nz);
  long cap=sym?2*nz:nz; long *I=malloc(cap*sizeof(long)),*J=malloc(cap*sizeof(long)); long k=0;
  for(long q=0;q<nz;q++){ gzgets(f,line,sizeof line); long i,j; sscanf(line,"%ld %ld",&i,&j); I[k]=i-1;J[k++]=j-1; if(sym&&i!=j){I[k]=j-1;J[k++]=i-1;} }
  gzclose(f); (void)pattern;
  aijt_int *rp=calloc(m+1,sizeof(aijt_int)); for(long q=0;q<k;q++) rp[I[q]+1]++; for(long i=0;i<m;i++) rp[i+1]+=rp[i];
  aijt_int *ci=malloc((k+1)*sizeof(aijt_int)); aijt_int *at=malloc(m*sizeof(aijt_int)); memcpy(at,rp,m*sizeof(aijt_int));
  for(long q=0;q<k;q++) ci[at[I[q]]++]=(aijt_int)J[q];
  /* sort each row's columns */
  for(long i=0;i<m;i++){ for(aijt_int a=rp[i]+1;a<rp[i+1];a++){ aijt_int v=ci[a],b=a-1; while(b>=rp[i]&&ci[b]>v){ci[b+1]=ci[b];b--;} ci[b+1]=v; } }
  double *val=malloc((k+1)*sizeof(double)); for(long q=0;q<k;q++) val[q]=1.0;
  A->nrows=m; A->ncols=n; A->rowptr=rp; A->colidx=ci; A->values=val; A->col_pos=NULL; A->col_hot=0;
  free(I);free(J);free(at); return 0;
}

int main(int argc, char **argv){
  aijt_model m; char why[256]; aijt_rules R; aijt_rules_default(&R);
  if (aijt_model_load(argv[1], &m, why, sizeof why)) { printf("model: %s\n", why); return 1; }
  for (int a=2;a<argc;a++){
    aijt_csr A;
    if (strstr(argv[a],".mtx")) { if (read_mtx(argv[a],&A)) return 1; }
    else { matgen_csr M; if (matgen_generate(argv[a], 0, &M) || matgen_to_aijt(&M,&A)) return 1; }
    rec c; memset(&c,0,sizeof c); aijt_plan_source_host(&A,&c.host); c.record=1;
    aijt_plan_source s={&c,r_lengths,r_diag,r_blocks,r_columns,r_rows,r_sectors,r_fetch};
    aijt_plan *p; if (aijt_plan_model_from(&A,&s,&R,&m,&p)) return 1; aijt_plan_destroy(&p);
    c.record=0;
    double t[31]; int reps = getenv("REPS") ? atoi(getenv("REPS")) : 0;
    for (int r=0;r<31;r++){ c.isec=0; if (getenv("FLUSH")) { static char *junk; size_t J=(size_t)256<<20; if(!junk) junk=malloc(J); for(size_t z=0;z<J;z+=64) junk[z]+=1; } double t0=wall_seconds(); aijt_err e=aijt_plan_model_from(&A,&s,&R,&m,&p); t[r]=wall_seconds()-t0; if(e){printf("err %d\n",e);return 1;} if(r<30) aijt_plan_destroy(&p);}
    double med=median_of(t,31);
    { double pr=0; for(int q=0;q<p->nstrips;q++) pr+=p->strips[q].predicted_us; printf("%-28s nnz %10ld strips %d fmt %d host %.1f us predicted %.2f us\n",strrchr(argv[a],47)?strrchr(argv[a],47)+1:argv[a],(long)A.rowptr[A.nrows],p->nstrips,p->strips[0].format,med*1e6,pr); }
    if (getenv("PRINT")) for(int q=0;q<p->nstrips;q++){ aijt_strip *S=&p->strips[q]; printf("   strip %d fmt %d rows [%ld,%ld) max_len %ld nnz %ld tail %ld tpr %d chunk %d width %ld parts %d pred %.3f\n",q,S->format,(long)S->begin,(long)S->end,(long)S->max_len,(long)S->nnz,(long)S->tail_nnz,(int)S->tpr,(int)S->chunk,(long)S->width,(int)S->blocks_per_row,S->predicted_us); }
    aijt_plan_destroy(&p);
    for (int r=0;r<reps;r++){ c.isec=0; aijt_plan_model_from(&A,&s,&R,&m,&p); aijt_plan_destroy(&p);}
  }
  return 0;
}
