#include "aijtmodel.h"
#include "planbuild.h"
#include "mm.h"
#include "wallclock.h"
#include "matgen_aijt.h"
int main(int argc,char**argv){ aijt_model m; char why[256]; aijt_rules R; aijt_csr A; 
 aijt_model_load(argv[1],&m,why,256); aijt_rules_default(&R);
 for (int a=2;a<argc;a++){
 matgen_csr M;
 if (strstr(argv[a],".mtx")) mm_load(argv[a],&A); else { matgen_generate(argv[a],0,&M); matgen_to_aijt(&M,&A);} 
 aijt_features f; aijt_int *count,*order; aijt_bucket*b; int nb;
 aijt_features_compute(&A,&f); aijt_length_counts(&A,f.max_len,&count); aijt_order_from_counts(&A,f.max_len,count,&order);
 aijt_model_buckets(&A,order,count,f.max_len,&b,&nb);
 double best=1e9, tot=0; int reps=300;
 for(int r=0;r<reps;r++){ aijt_plan*p; int cap=0; double pred; aijt_plan_start(&A,&p); p->order=NULL; double t0=wall_seconds(); aijt_model_split(&A,&R,&m,b,nb,p,&cap,&pred); double t=wall_seconds()-t0; if(t<best)best=t; tot+=t; if(r==0) printf("%s nb %d strips %d pred %.4f ",argv[a],nb,p->nstrips,pred); aijt_plan_destroy(&p);}
 printf(" min %.1f us mean %.1f us\n",best*1e6,tot/reps*1e6);}
}
