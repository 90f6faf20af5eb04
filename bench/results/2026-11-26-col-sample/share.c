#include "aijtmodel.h"
#include "planbuild.h"
#include "matgen_aijt.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
void aijt_col_sample_runs(aijt_int nrows, aijt_int stride, int64_t *run, int64_t *take);
double aijt_col_share_of(const aijt_int *count, aijt_int max_degree, aijt_int ncols);
static int read_mtx(const char *path, aijt_csr *A){
  gzFile f=gzopen(path,"r"); if(!f) return 1; char line[4096]; int sym=0;
  gzgets(f,line,sizeof line); sym=strstr(line,"symmetric")!=NULL;
  while(gzgets(f,line,sizeof line) && line[0]=='%');
  long m,n,nz; sscanf(line,"%ld %ld %ld",&m,&n,&nz);
  long cap=sym?2*nz:nz; long *I=malloc(cap*sizeof(long)),*J=malloc(cap*sizeof(long)); long k=0;
  for(long q=0;q<nz;q++){ gzgets(f,line,sizeof line); long i,j; sscanf(line,"%ld %ld",&i,&j); I[k]=i-1;J[k++]=j-1; if(sym&&i!=j){I[k]=j-1;J[k++]=i-1;} }
  gzclose(f);
  aijt_int *rp=calloc(m+1,sizeof(aijt_int)); for(long q=0;q<k;q++) rp[I[q]+1]++; for(long i=0;i<m;i++) rp[i+1]+=rp[i];
  aijt_int *ci=malloc((k+1)*sizeof(aijt_int)); aijt_int *at=malloc(m*sizeof(aijt_int)); memcpy(at,rp,m*sizeof(aijt_int));
  for(long q=0;q<k;q++) ci[at[I[q]]++]=(aijt_int)J[q];
  A->nrows=m; A->ncols=n; A->rowptr=rp; A->colidx=ci; free(I);free(J);free(at); return 0;
}
static double share(const aijt_csr *A, aijt_int stride){
  int64_t run,take; aijt_col_sample_runs(A->nrows,stride,&run,&take);
  aijt_int *deg=calloc(A->ncols+1,sizeof(aijt_int)); aijt_int mx=0;
  for(int64_t i0=0;i0<A->nrows;i0+=run){ aijt_int i1=(aijt_int)(i0+take<A->nrows?i0+take:A->nrows); for(aijt_int k=A->rowptr[i0];k<A->rowptr[i1];k++) deg[A->colidx[k]]++; }
  for(aijt_int j=0;j<A->ncols;j++) if(deg[j]>mx) mx=deg[j];
  aijt_int *c=calloc(mx+1,sizeof(aijt_int)); for(aijt_int j=0;j<A->ncols;j++) c[deg[j]]++;
  double s=aijt_col_share_of(c,mx,A->ncols); free(deg); free(c); return s;
}
int main(int argc,char**argv){
  for(int a=1;a<argc;a++){ aijt_csr A; memset(&A,0,sizeof A);
    if(strstr(argv[a],".mtx")){ if(read_mtx(argv[a],&A)) return 1; } else { matgen_csr M; if(matgen_generate(argv[a],0,&M)||matgen_to_aijt(&M,&A)) return 1; }
    double nnz=A.rowptr[A.nrows]; double per=nnz/A.ncols;
    const char *nm=strrchr(argv[a],'/')?strrchr(argv[a],'/')+1:argv[a];
    if(A.ncols<262144||per<4){ printf("%-40s not tested (ncols %ld, %.1f per col)\n",nm,(long)A.ncols,per); continue; }
    printf("%-40s %.1f/col", nm, per);
    double targets[]={4,2,1,0.5};
    for(int t=0;t<4;t++){ aijt_int s=(aijt_int)(nnz/(targets[t]*A.ncols)); if(s<1)s=1; printf("  [%g/col stride %d] %.3f",targets[t],(int)s,share(&A,s)); }
    printf("\n");
  }
}
