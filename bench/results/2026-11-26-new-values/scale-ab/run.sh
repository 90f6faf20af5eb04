# A/B of aijtunedcuda.c at cc297ee (old-aijtunedcuda.c.txt, made by `git show cc297ee:src/mat/impls/tuned/seq/cuda/aijtunedcuda.c`;
# build-old) against the working tree's (build-cuda): bench_spmv's new values (assembly; MatScale twice) on six generated
# matrices, two alternating rounds.  OUT=DIR bash run.sh from the repository root.
set -u; mkdir -p $OUT/ab
[ -d /opt/petsc-cuda ] || bash config/build-petsc-cuda.sh unpack >/dev/null
export MAKEFLAGS=-j16 PETSC_OPTIONS="-use_gpu_aware_mpi 0"
f=src/mat/impls/tuned/seq/cuda/aijtunedcuda.c
cp $f /tmp/new.c && cp old-aijtunedcuda.c.txt $f && make PETSC_DIR=/opt/petsc-cuda BUILD=build-old lib bench > $OUT/ab/make-old.log 2>&1; echo "old build $?"; cp /tmp/new.c $f
make PETSC_DIR=/opt/petsc-cuda BUILD=build-cuda lib bench > $OUT/ab/make-new.log 2>&1; echo "new build $?"
for i in 1 2; do for b in build-old build-cuda; do timeout 120 $b/bench/bench_spmv -suite lap3d,box27,lp,circuit,rmat,elast -reps 50 -plan_reps 1 -values_reps 3 -csv $OUT/ab/$b-$i.csv > $OUT/ab/$b-$i.txt 2>&1; echo "$b $i exit $?"; grep -E "MatScale twice and|assembly and the first MatMult|DIFFERS|Correctness" $OUT/ab/$b-$i.txt | grep -v "^\[" ; done; done
