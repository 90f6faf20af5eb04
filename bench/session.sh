# The opening shared by bench/run_*.sh, sourced with the output folder:  source "$(dirname "$0")/session.sh" "$out"
# It makes the repository root the working folder, makes OUTDIR (relative to that root) and sets $out to its
# absolute path, exports the CUDA PETSc environment of the GPU machine, and defines $start, stamp (seconds since
# the start and a message, printed and appended to $out/run.txt) and commit_line (the commit, and whether the
# working tree differs from it).
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
mkdir -p "$1" || exit 1
out=$(cd "$1" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PETSC_DIR=/opt/petsc-cuda PETSC_OPTIONS="-use_gpu_aware_mpi 0"
start=$(date +%s)
# the medium matrices, where the call carried them packed (config/pack-bench-data.sh)
[ -d .bench-data ] || [ ! -f .bench-data.tar.xz ] || bash config/pack-bench-data.sh unpack || exit 1
stamp() { echo "$(( $(date +%s) - start )) s: $*" | tee -a "$out/run.txt"; }
commit_line() { echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"; }
