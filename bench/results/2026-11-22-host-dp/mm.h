#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { long i, j; } ent;
static int cmpent(const void *a, const void *b){const ent*x=a,*y=b; if(x->i!=y->i) return x->i<y->i?-1:1; return x->j<y->j?-1:(x->j>y->j);}
static int mm_load(const char *path, aijt_csr *A){
  char cmd[1024], line[1024]; snprintf(cmd,sizeof cmd,"gzip -dc '%s'",path);
  FILE*f=popen(cmd,"r"); if(!f) return 1;
  int sym=0; long m,n,nz;
  fgets(line,sizeof line,f); sym = strstr(line,"symmetric")!=NULL;
  do { fgets(line,sizeof line,f);} while(line[0]=='%');
  sscanf(line,"%ld %ld %ld",&m,&n,&nz);
  ent*e=malloc(sizeof(ent)*nz*(sym?2:1)); long k=0;
  for(long t=0;t<nz;t++){ fgets(line,sizeof line,f); long i,j; sscanf(line,"%ld %ld",&i,&j); e[k].i=i-1;e[k].j=j-1;k++; if(sym&&i!=j){e[k].i=j-1;e[k].j=i-1;k++;}}
  pclose(f); qsort(e,k,sizeof(ent),cmpent);
  aijt_int*rp=calloc(m+1,sizeof(aijt_int)),*ci=malloc(k*sizeof(aijt_int)); double*v=malloc(k*sizeof(double));
  for(long t=0;t<k;t++){rp[e[t].i+1]++;ci[t]=e[t].j;v[t]=1.0+(t%7);}
  for(long r=0;r<m;r++) rp[r+1]+=rp[r];
  free(e); memset(A,0,sizeof *A); A->nrows=m;A->ncols=n;A->rowptr=rp;A->colidx=ci;A->values=v; return 0;}
