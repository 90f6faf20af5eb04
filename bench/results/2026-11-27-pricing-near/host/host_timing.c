#include "aijtmodel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
double *aijt_T(void);
typedef struct {int r,c;} ent;
static int cmp(const void*a,const void*b){const ent*x=a,*y=b; return x->r!=y->r? x->r-y->r : x->c-y->c;}
int main(int argc,char**argv){
  char cmd[512]; snprintf(cmd,sizeof cmd,"zcat %s",argv[1]); FILE*f=popen(cmd,"r"); char line[1024];
  int sym=0; fgets(line,sizeof line,f); if(strstr(line,"symmetric")) sym=1;
  while(fgets(line,sizeof line,f)) if(line[0]!='%') break;
  int m,n; long nz; sscanf(line,"%d %d %ld",&m,&n,&nz);
  ent*e=malloc(sizeof(ent)*nz*2); long k=0;
  for(long i=0;i<nz;i++){int r,c; fgets(line,sizeof line,f); sscanf(line,"%d %d",&r,&c); e[k++]=(ent){r-1,c-1}; if(sym&&r!=c) e[k++]=(ent){c-1,r-1};}
  qsort(e,k,sizeof(ent),cmp);
  aijt_int*rp=calloc(m+1,sizeof(aijt_int)),*ci=malloc(sizeof(aijt_int)*k); double*v=malloc(sizeof(double)*k);
  for(long i=0;i<k;i++){rp[e[i].r+1]++; ci[i]=e[i].c; v[i]=1;}
  for(int i=0;i<m;i++) rp[i+1]+=rp[i];
  aijt_csr A={0}; A.nrows=m;A.ncols=n;A.rowptr=rp;A.colidx=ci;A.values=v;
  aijt_rules R; aijt_rules_default(&R); aijt_model M; char why[256];
  if(aijt_model_load(argv[2],&M,why,sizeof why)){printf("model %s\n",why);return 1;}
  int reps=atoi(argv[3]);
  for(int r=0;r<reps;r++){aijt_plan*p; if(r==10) memset(aijt_T(),0,sizeof(double)*31); aijt_plan_model(&A,&R,&M,&p); aijt_plan_destroy(&p);}
  const char*nm[]={"lengths","dia","bcsr","columns","panel","stream","buckets+tables","floor/bound","sort+split"};
  printf("natural %.1f nb %.1f dp %.1f bound %.2f\n",aijt_T()[20]/(reps-10),aijt_T()[21]/(reps-10),aijt_T()[22]/(reps-10),aijt_T()[23]/(reps-10)); for(int i=0;i<9;i++) printf("%-16s %8.1f us\n",nm[i],aijt_T()[i]/(reps-10));
}
