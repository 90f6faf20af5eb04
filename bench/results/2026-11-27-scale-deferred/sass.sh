#!/bin/bash
# compare the SASS of the one-strip DIA kernel before and after the patch
set -u
O=$1; mkdir -p $O
A=/tmp/sa; rm -rf $A; mkdir -p $A; tar --exclude=./build-cuda --exclude=./.petsc-cuda --exclude=./.bench-data --exclude=./.bench-data-sub.tar.xz -cf - . | tar -xf - -C $A
(cd $A && patch -s -R -p1 < $OLDPWD/bench/results/2026-11-27-scale-deferred/scale-deferred.patch)
for v in a b; do d=$PWD; [ $v = a ] && d=$A
  (cd $d && nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -Isrc/mat/impls/tuned/plan -cubin -o $O/spmv-$v.cubin kernels/spmv.cu)
  cuobjdump -sass $O/spmv-$v.cubin > $O/sass-$v.txt
  awk '/Function : .*fused_spmv_kernelILi1ELb0/{p=1;print;next} p&&/Function : /{p=0} p' $O/sass-$v.txt > $O/k1-$v.txt
  wc -l $O/k1-$v.txt
done
rm -f $O/*.cubin $O/sass-*.txt
