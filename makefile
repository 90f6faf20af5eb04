# aijtuned: libaijtuned.so, its examples and tests, built against PETSC_DIR/PETSC_ARCH
# (default: Debian's PETSc, installed by config/install-deps.sh).
#
#   make            library, examples, tests
#   make demo       solve a Poisson problem with -mat_type aijtuned and show the plan
#   make test       every test; ends with "N passed, N failed"
#   make bench      the GPU benchmarks (a CUDA PETSc only; bench/README.md)
#   make bench-setup  the host side of setup (plan, layouts), stage by stage: plain C, any machine

PETSC_DIR  ?= /usr/lib/petsc
PETSC_ARCH ?=
BUILD      ?= build

PETSC_VARIABLES := $(PETSC_DIR)/$(PETSC_ARCH)/lib/petsc/conf/petscvariables
ifeq ($(wildcard $(PETSC_VARIABLES)),)
# No PETSc yet (a fresh machine): install the dependencies (Debian's PETSc among them), then make the same goals
# again, once.  A PETSC_DIR that the install did not provide is then an error (the make again found it missing
# and installed again, for ever).
ifneq ($(AIJT_DEPS_DONE),)
$(error no PETSc at PETSC_DIR=$(PETSC_DIR)$(if $(PETSC_ARCH), PETSC_ARCH=$(PETSC_ARCH)): $(PETSC_VARIABLES) is missing)
endif
.DEFAULT_GOAL := all
%:
	bash config/install-deps.sh
	$(MAKE) AIJT_DEPS_DONE=1 $(MAKECMDGOALS)
else
include $(PETSC_VARIABLES)

# The planner's index type follows PetscInt.
PETSC_INDEX64 := $(shell printf '\043include <petscconf.h>\nPETSC_USE_64BIT_INDICES\n' | $(PCC) $(PETSC_CC_INCLUDES) -E -P - 2>/dev/null | tail -n 1)
INDEX_FLAGS   := $(if $(filter 1,$(PETSC_INDEX64)),-DAIJT_INDEX64,)

PLAN_DIR   := src/mat/impls/tuned/plan
CFLAGS_ALL := $(PCC_FLAGS) -fPIC -Wall -Wno-unused-parameter $(INDEX_FLAGS) -Iinclude -I$(PLAN_DIR) $(PETSC_CC_INCLUDES) -DAIJT_MODEL_DIR='"$(abspath models)"'
PLAN_SRC   := $(wildcard $(PLAN_DIR)/*.c)
GLUE_SRC   := $(wildcard src/mat/impls/tuned/*.c src/mat/impls/tuned/seq/*.c src/mat/impls/tuned/mpi/*.c src/mat/utils/*.c)
LIB_OBJ    := $(patsubst %.c,$(BUILD)/obj/%.o,$(PLAN_SRC) $(GLUE_SRC))
LIB        := $(BUILD)/lib/libaijtuned.so
LIB_LINK   := -L$(abspath $(BUILD)/lib) -Wl,-rpath,$(abspath $(BUILD)/lib) -laijtuned $(PETSC_WITH_EXTERNAL_LIB)

# CUDA: with a CUDA PETSc the kernels and the GPU glue go into the library; with nvcc alone (CI) the
# kernels and their device test are still compiled, so a kernel that does not build fails the build.
NVCC            ?= $(shell command -v nvcc 2>/dev/null)
PETSC_HAVE_CUDA := $(shell printf '\043include <petscconf.h>\nPETSC_HAVE_CUDA\n' | $(PCC) $(PETSC_CC_INCLUDES) -E -P - 2>/dev/null | tail -n 1)
# The GPUs the kernels are built for, nvcc's names: sm_80, a list (sm_80,sm_90), all, all-major or native.  By default
# those PETSc was configured for (--with-cuda-arch, the -arch flags of its CUDAC_FLAGS), so that aijtuned's kernels
# run wherever PETSc's own do; sm_90 (H100, H200) where PETSc has none (no CUDA: the kernels' test alone).  One
# architecture is -arch (its machine code and its PTX), several a -gencode each: nvcc keeps only the last of
# several -arch flags.  The objects are made again when it changes (CUDA_ARCH_STAMP).
comma           := ,
space           := $(subst ,, )
PETSC_CUDA_ARCH := $(patsubst -arch=%,%,$(filter -arch=%,$(CUDAC_FLAGS)))
CUDA_ARCH       ?= $(if $(strip $(PETSC_CUDA_ARCH)),$(subst $(space),$(comma),$(strip $(PETSC_CUDA_ARCH))),sm_90)
CUDA_ARCH_LIST  := $(subst $(comma), ,$(CUDA_ARCH))
CUDA_ARCH_FLAGS := $(if $(filter 1,$(words $(CUDA_ARCH_LIST))),-arch=$(CUDA_ARCH_LIST),$(foreach a,$(CUDA_ARCH_LIST),-gencode arch=compute_$(a:sm_%=%),code=$(a) -gencode arch=compute_$(a:sm_%=%),code=compute_$(a:sm_%=%)))
CUDA_ARCH_STAMP := $(BUILD)/obj/cuda-arch-$(subst $(comma),-,$(CUDA_ARCH))
NVFLAGS_EXTRA   ?=# for example -Xptxas -v: registers, spills and shared memory of every kernel
NVFLAGS         := $(CUDA_ARCH_FLAGS) -DAIJT_CUDA_ARCH='"$(CUDA_ARCH)"' -O3 -std=c++17 -lineinfo -Xcompiler -fPIC -Xcompiler -Wall $(INDEX_FLAGS) -Ikernels -I$(PLAN_DIR) $(NVFLAGS_EXTRA)
KERNEL_OBJ      := $(patsubst %.cu,$(BUILD)/obj/%.o,$(wildcard kernels/*.cu))
ifeq ($(PETSC_HAVE_CUDA),1)
  LIB_OBJ    += $(KERNEL_OBJ) $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard src/mat/impls/tuned/seq/cuda/*.c src/mat/impls/tuned/mpi/cuda/*.c))
  CFLAGS_ALL += -Ikernels
endif
KERNEL_TESTS := $(if $(NVCC),$(BUILD)/tests/kernels/test_kernels)
TOOLS        := $(if $(NVCC),$(BUILD)/tools/aijt_calibrate)

EXAMPLES      := $(patsubst %.c,$(BUILD)/%,$(wildcard examples/tutorials/*.c))
MAT_TESTS     := $(patsubst %.c,$(BUILD)/%,$(wildcard tests/mat/*.c))
PLANNER_TESTS := $(patsubst %.c,$(BUILD)/%,$(wildcard tests/planner/*.c))

# PETSc's own examples, built unchanged and not linked with aijtuned (they load it with -dll_append)
PETSC_EXAMPLES := $(firstword $(wildcard $(PETSC_DIR)/share/petsc/examples/src $(PETSC_DIR)/src))
PETSC_TESTS    := $(BUILD)/tests/petsc/ksp_ex2 $(BUILD)/tests/petsc/ksp_ex45 $(BUILD)/tests/petsc/snes_ex19 \
                  $(BUILD)/tests/petsc/mat_ex89 $(BUILD)/tests/petsc/mat_ex111 $(BUILD)/tests/petsc/ksp_ex46 \
                  $(BUILD)/tests/petsc/snes_ex5 $(BUILD)/tests/petsc/ts_ex4 $(BUILD)/tests/petsc/snes_ex35 \
                  $(BUILD)/tests/petsc/snes_ex25 $(BUILD)/tests/petsc/snes_ex9

.PHONY: all lib examples tests tools demo test clean deps
all: lib examples tests tools

lib: $(LIB)
examples: $(EXAMPLES)
tests: $(MAT_TESTS) $(PLANNER_TESTS) $(PETSC_TESTS) $(KERNEL_TESTS) $(BUILD)/install/lib/libaijtuned.so # make install's copy, which a test loads
tools: $(TOOLS)

$(BUILD)/obj/%.o: %.c $(wildcard include/*.h src/mat/impls/tuned/*.h src/mat/impls/tuned/mpi/*.h src/mat/impls/tuned/mpi/cuda/*.h src/mat/impls/tuned/seq/cuda/*.h $(PLAN_DIR)/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@$(PCC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/obj/%.o: %.cu $(wildcard kernels/*.h kernels/*.cuh $(PLAN_DIR)/*.h) $(CUDA_ARCH_STAMP)
	@mkdir -p $(dir $@)
	@echo "  NVCC $<"
	@$(NVCC) $(NVFLAGS) -c $< -o $@

# The architectures the objects were built for: a new name makes them again.
$(CUDA_ARCH_STAMP):
	@mkdir -p $(dir $@)
	@rm -f $(BUILD)/obj/cuda-arch-*
	@touch $@

# The kernels' device test: every layout against the host reference (prints "no CUDA device" without a GPU).
PLAN_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(PLAN_SRC))
$(BUILD)/tests/kernels/test_kernels: kernels/tests/test_kernels.cu $(KERNEL_OBJ) $(PLAN_OBJ) $(wildcard $(PLAN_DIR)/*.h kernels/*.h tests/common/*.h)
	@mkdir -p $(dir $@)
	@echo "  NVCC $<"
	@$(NVCC) $(NVFLAGS) -DAIJT_MODEL_DIR='"$(abspath models)"' $< $(PLAN_OBJ) $(KERNEL_OBJ) -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LINK $@"
	@$(PCC_LINKER) -shared -o $@ $^ $(PETSC_WITH_EXTERNAL_LIB) $(if $(filter 1,$(PETSC_HAVE_CUDA)),$(CUDA_LIB))

$(BUILD)/examples/%: examples/%.c $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@$(PCC) $(CFLAGS_ALL) $< -o $@ $(LIB_LINK)

$(BUILD)/tests/mat/%: tests/mat/%.c $(LIB) $(wildcard tests/common/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@$(PCC) $(CFLAGS_ALL) $< -o $@ $(LIB_LINK)

# PETSc's own examples, unchanged, built against the same PETSc
define build_petsc_example
	@mkdir -p $(dir $@)
	@echo "  CC   $< (PETSc's own, unchanged)"
	@$(PCC) $(PCC_FLAGS) $(PETSC_CC_INCLUDES) $< -o $@ $(PETSC_WITH_EXTERNAL_LIB)
endef

$(BUILD)/tests/petsc/ksp_%: $(PETSC_EXAMPLES)/ksp/ksp/tutorials/%.c
	$(build_petsc_example)

$(BUILD)/tests/petsc/snes_%: $(PETSC_EXAMPLES)/snes/tutorials/%.c
	$(build_petsc_example)

$(BUILD)/tests/petsc/ts_%: $(PETSC_EXAMPLES)/ts/tutorials/%.c
	$(build_petsc_example)

$(BUILD)/tests/petsc/mat_%: $(PETSC_EXAMPLES)/mat/tests/%.c
	$(build_petsc_example)

# Any of PETSc's own examples, unchanged, for tests/sweep_tutorials.py: make build/tutorials/ts/tutorials/ex13
$(BUILD)/tutorials/%: $(PETSC_EXAMPLES)/%.c
	$(build_petsc_example)

# The calibration program (no PETSc): writes the performance model of the GPU it runs on (models/).
$(BUILD)/tools/aijt_calibrate: tools/calibrate.cu $(KERNEL_OBJ) $(PLAN_OBJ) $(wildcard $(PLAN_DIR)/*.h kernels/*.h kernels/*.cuh tests/common/*.h)
	@mkdir -p $(dir $@)
	@echo "  NVCC $<"
	@$(NVCC) $(NVFLAGS) $< $(PLAN_OBJ) $(KERNEL_OBJ) -o $@

# The timeline tracer (offline, not part of the library): CUDA loads it through CUDA_INJECTION64_PATH.
CUDA_ROOT := $(if $(NVCC),$(patsubst %/bin/nvcc,%,$(realpath $(NVCC))))
CUPTI_LIB := $(firstword $(wildcard $(CUDA_ROOT)/extras/CUPTI/lib64/libcupti.so $(CUDA_ROOT)/lib64/libcupti.so $(CUDA_ROOT)/lib/libcupti.so))
.PHONY: cuptitrace
cuptitrace: $(BUILD)/tools/libcuptitrace.so
$(BUILD)/tools/libcuptitrace.so: tools/cuptitrace.c
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@test -n "$(CUPTI_LIB)" || { echo "no libcupti.so under $(CUDA_ROOT)"; exit 1; }
	@cc -O2 -Wall -shared -fPIC -I$(CUDA_ROOT)/include -I$(CUDA_ROOT)/extras/CUPTI/include $< -L$(dir $(CUPTI_LIB)) -Wl,-rpath,$(dir $(CUPTI_LIB)) -lcupti -o $@

# The planner's own tests need no PETSc: plain C against the planner sources.
$(BUILD)/tests/planner/%: tests/planner/%.c $(PLAN_SRC) $(wildcard $(PLAN_DIR)/*.h tests/common/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@cc -std=c99 -O2 -g -Wall -Wextra -Wno-unused-parameter $(INDEX_FLAGS) -I$(PLAN_DIR) $< $(PLAN_SRC) -lm -o $@

# Benchmarks (bench/README.md), only with a CUDA PETSc and not part of 'all': CI has no CUDA PETSc.
# 'bench-gen' builds the generators' own check, plain C, anywhere.
BENCH_DIRS     := bench/gen bench/common bench/spmv
BENCH_CFLAGS   := $(CFLAGS_ALL) $(addprefix -I,$(BENCH_DIRS))
BENCH_HEADERS  := $(wildcard include/*.h $(addsuffix /*.h,$(BENCH_DIRS)))
BENCH_COMMON   := $(patsubst %.c,$(BUILD)/obj/%.o,bench/gen/matgen.c $(wildcard bench/common/*.c))
BENCH_SPMV_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,bench/bench_spmv.c $(wildcard bench/spmv/*.c))
BENCH_MODEL_OBJ := $(BUILD)/obj/bench/bench_model.o
# bench_scaling needs only the generators, so it also builds against a PETSc without CUDA (a host check of the program)
BENCH_SCALING_OBJ := $(BUILD)/obj/bench/bench_scaling.o $(BUILD)/obj/bench/gen/matgen.o

.PHONY: bench bench-gen bench-setup
ifeq ($(PETSC_HAVE_CUDA),1)
bench: $(BUILD)/bench/bench_spmv $(BUILD)/bench/bench_ksp $(BUILD)/bench/bench_coo $(BUILD)/bench/bench_convert $(BUILD)/bench/bench_memory $(BUILD)/bench/bench_scaling $(BUILD)/bench/bench_model $(BUILD)/bench/matgen_check $(BUILD)/bench/bench_plan_gpu
else
bench:
	@echo "bench: the benchmarks need a PETSc configured with CUDA ($(PETSC_DIR) has none); nothing built"
endif
bench-gen: $(BUILD)/bench/matgen_check
# 'bench-setup': the host side of setup (plan, layouts) stage by stage, plain C, anywhere.  -O3 as the
# CUDA PETSc is built (config/build-petsc-cuda.sh), so that its times compare with the library's.
SETUP_OPT ?= -O3
bench-setup: $(BUILD)/bench/bench_setup

$(BUILD)/obj/bench/%.o: bench/%.c $(BENCH_HEADERS)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@$(PCC) $(BENCH_CFLAGS) -c $< -o $@

$(BUILD)/bench/bench_spmv: $(BENCH_SPMV_OBJ) $(BENCH_COMMON) $(LIB)
	@mkdir -p $(dir $@)
	@echo "  LINK $@"
	@$(PCC_LINKER) $(filter %.o,$^) -o $@ $(LIB_LINK) $(CUDA_LIB)

# bench_model calls the planner itself: its objects are linked in (the library keeps their symbols hidden)
$(BUILD)/bench/bench_model: $(BENCH_MODEL_OBJ) $(BENCH_COMMON) $(PLAN_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	@echo "  LINK $@"
	@$(PCC_LINKER) $(filter %.o,$^) -o $@ $(LIB_LINK) $(CUDA_LIB)

# the benchmarks of one source file
$(BUILD)/bench/bench_ksp $(BUILD)/bench/bench_coo $(BUILD)/bench/bench_convert $(BUILD)/bench/bench_memory: $(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(BENCH_COMMON) $(LIB)
	@mkdir -p $(dir $@)
	@echo "  LINK $@"
	@$(PCC_LINKER) $(filter %.o,$^) -o $@ $(LIB_LINK) $(CUDA_LIB)

$(BUILD)/bench/bench_scaling: $(BENCH_SCALING_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	@echo "  LINK $@"
	@$(PCC_LINKER) $(filter %.o,$^) -o $@ $(LIB_LINK) $(if $(filter 1,$(PETSC_HAVE_CUDA)),$(CUDA_LIB))

$(BUILD)/bench/matgen_check: bench/gen/matgen_check.c bench/gen/matgen.c bench/spmv/sellpack.c $(wildcard bench/gen/*.h bench/spmv/sellpack.h)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@cc -std=c99 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Ibench/gen -Ibench/spmv $(filter %.c,$^) -lm -o $@

$(BUILD)/bench/bench_setup: bench/bench_setup.c bench/gen/matgen.c $(PLAN_SRC) $(wildcard bench/gen/*.h bench/common/wallclock.h $(PLAN_DIR)/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC   $<"
	@cc -std=c99 $(SETUP_OPT) -g -Wall -Wextra -Wno-unused-parameter -D_POSIX_C_SOURCE=200809L $(INDEX_FLAGS) -DAIJT_MODEL_DIR='"$(abspath models)"' -I$(PLAN_DIR) -Ibench/gen -Ibench/common $(filter %.c,$^) -lm -o $@

# bench_plan_gpu: the model planner on the host and on the GPU against one product (no PETSc; nvcc)
.PHONY: bench-plan-gpu
bench-plan-gpu: $(BUILD)/bench/bench_plan_gpu
$(BUILD)/bench/bench_plan_gpu: bench/bench_plan_gpu.cu bench/gen/matgen.c $(KERNEL_OBJ) $(PLAN_OBJ) $(wildcard bench/gen/*.h bench/common/wallclock.h $(PLAN_DIR)/*.h kernels/*.h)
	@mkdir -p $(dir $@) $(BUILD)/obj/bench/plain
	@echo "  NVCC $<"
	@cc -std=c99 -O2 -D_POSIX_C_SOURCE=200809L -c bench/gen/matgen.c -o $(BUILD)/obj/bench/plain/matgen.o
	@$(NVCC) $(NVFLAGS) -DAIJT_MODEL_DIR='"$(abspath models)"' -Ibench/gen -Ibench/common $< $(BUILD)/obj/bench/plain/matgen.o $(PLAN_OBJ) $(KERNEL_OBJ) -o $@

deps:
	@bash config/install-deps.sh

# OpenMPI refuses root unless told; containers and CI machines often run as root.
MPI_ENV := OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

demo: deps all
	$(MPI_ENV) $(MPIEXEC) -n 1 $(BUILD)/examples/tutorials/ex1 -dim 3 -n 32 -mat_type aijtuned -ksp_type cg -pc_type jacobi -ksp_converged_reason -mat_view ::ascii_info

# The benchmarks that build without a CUDA PETSc, built with the tests so that a change to the planner's or the
# kernels' interfaces cannot break them unseen (bench_spmv and the others need a CUDA PETSc: 'make bench' there).
BENCH_CHECKED := $(BUILD)/bench/bench_setup $(BUILD)/bench/matgen_check $(if $(NVCC),$(BUILD)/bench/bench_plan_gpu)

test: deps all $(BENCH_CHECKED)
	python3 tests/run.py --build $(BUILD) --mpiexec "$(MPIEXEC)"

# make install PREFIX=DIR: the library, its header, the models and the calibration program under DIR (lib/, include/,
# share/aijtuned/models/, bin/), staged under DESTDIR if given (a package's build).  The installed library finds the
# models beside it, from its own path (aijtunedmodel.c); the copy under $(BUILD)/install is the one the suite checks
# (tests/petsc/ksp_ex2.test).
PREFIX ?= /usr/local
define install_to
	@echo "  INSTALL $(1)"
	@install -d $(1)/lib $(1)/include $(1)/share/aijtuned/models
	@install -m 755 $(LIB) $(1)/lib/
	@install -m 644 include/petscmataijtuned.h $(1)/include/
	@install -m 644 $(wildcard models/*.model) models/README.md $(1)/share/aijtuned/models/
	$(if $(TOOLS),@install -d $(1)/bin && install -m 755 $(TOOLS) $(1)/bin/)
endef
.PHONY: install
install: lib tools
	$(call install_to,$(DESTDIR)$(PREFIX))
$(BUILD)/install/lib/libaijtuned.so: $(LIB) $(TOOLS) $(wildcard models/*) include/petscmataijtuned.h
	$(call install_to,$(BUILD)/install)

clean:
	rm -rf $(BUILD)
endif
