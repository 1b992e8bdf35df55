# BPF JIT write-protection on arm64: build, boot, test.
#
#   make bench       the main job: builds what it needs, runs the benchmark suite
#                    (FULL=1: every point) into results/bench/<run-id>/, plots it
#                    and prints a short report
#   make check       the host-side tests alone (unit, fixtures, plugin, shellcheck):
#                    no kernel build, no guest; make test runs it first
#   make test        build what the tests need, boot the guests, print the tally
#   make all         deps, tree, every kernel variant, tests, benchmarks
#   make report      the short report of a run (RUN=dir, default: the latest)
#   make plots       plots and tables of a run (RUN=dir, default: the latest)
#   make paper       the talk and the paper from the runs paper/runs names (RUNS=file:
#                    another list) -> build/paper/talk.pdf, talk-notes.pdf, paper.pdf
#   make layout      the BPF JIT region's place in the kernel VA space, read off a guest
#                    -> results/layout/<run-id>/ (for the paper's figure)
#   make security    the attack matrix: every attack of the test hooks on vanilla and
#                    series in each bpf_jit_wp mode -> results/security/<run-id>/
#   make tune        which bpf_jit_region= for a host, from the committed runs
#                    (TUNE="--programs N --class mix ...": analysis/tune's options)
#   make deps        install the Debian packages the pipeline needs (as root)
#   make tree        extract linux-source-6.12 into build/linux, apply patches/
#   make patches     export build/linux's commits back into patches/
#   make kernel      build one variant: ARCH=arm64 VARIANT=series|vanilla|...
#   make rootfs      build that variant's initramfs
#   make shell       an interactive guest of that variant
#   make selftests   the kernel's BPF selftests in a guest of VARIANT -> results/selftests/
#                    (SUBSET=1: only tests/selftests.list)
#   make selftests-compare A=vanilla B=series: every test whose outcome differs
#   make shellcheck  lint every shell script
#   make checkpatch  scripts/checkpatch.pl --strict on every patch of the series
#   make check-series build and boot the series one patch at a time
#                    -> build/series-check/
#   make check-arches compile the series' generic and other JITs' files for
#                    x86_64, riscv and powerpc (W=1, warning-free)
ARCH ?= arm64
VARIANT ?= series
VARIANTS := $(shell python3 vm/configurations.py --variants)
SHELL_SCRIPTS := vm/tree vm/checkpatch vm/check-series vm/check-arches vm/build-kernel vm/mkrootfs vm/run vm/deps vm/lib.sh \
	vm/guest/init tests/run tests/guest/run-tests .ci/run \
	benchmarks/plugin/build benchmarks/plugin/test benchmarks/layout paper/build \
	tests/build-selftests tests/selftests-lib.sh tests/selftests tests/security tests/guest/run-selftests tests/guest/run-expect-cfi \
	$(wildcard tests/guest/t/*)

A ?= vanilla
B ?= series
SUBSET ?= 0

.PHONY: all deps tree patches kernel kernels rootfs shell check test bench report plots tune security \
	paper layout \
	shellcheck checkpatch check-series check-arches selftests selftests-compare

all: deps
	$(MAKE) tree
	$(MAKE) kernels
	$(MAKE) test
	$(MAKE) bench

deps:
	vm/deps

tree:
	vm/tree apply

patches:
	vm/tree export

kernel: tree
	vm/build-kernel $(ARCH) $(VARIANT)

kernels: tree
	set -e; for v in $(VARIANTS); do vm/build-kernel $(ARCH) $$v; done

rootfs: kernel
	vm/mkrootfs $(ARCH) $(VARIANT) $(shell awk '!/^\#/ && NF' guest-payloads)

shell: rootfs
	vm/run --arch $(ARCH) --variant $(VARIANT) --interactive

check: tree
	@start=$$(date +%s); rc=0; \
	$(MAKE) -s shellcheck || rc=1; \
	TEST_HOST=only TEST_OUT=build/check tests/run $(ARCH) || rc=1; \
	echo "make check: $$(( $$(date +%s) - start )) s"; exit $$rc

test: deps
	@t0=$$(date +%s); $(MAKE) tree; t1=$$(date +%s); \
	$(MAKE) check; rc=$$?; t2=$$(date +%s); \
	[ $$rc = 0 ] || { echo "make test: make check failed; no guest booted" >&2; exit 1; }; \
	TEST_HOST=skip tests/run $(ARCH) || rc=$$?; t3=$$(date +%s); \
	echo "make test: phases: tree $$((t1 - t0)) s, check $$((t2 - t1)) s, kernels and guests $$((t3 - t2)) s"; \
	exit $$rc

FULL ?= 0
RUN ?=
ANALYSIS := /usr/bin/python3 analysis
bench: deps
	$(MAKE) tree
	@mkdir -p build; rm -f build/bench-run
	rc=0; benchmarks/run --run-dir-file build/bench-run $(if $(filter 1,$(FULL)),--full) || rc=$$?; \
	if [ ! -s build/bench-run ]; then \
		echo "make bench: benchmarks/run made no run directory" >&2; exit 1; \
	fi; \
	run=$$(cat build/bench-run); \
	$(ANALYSIS)/analyze "$$run" && $(ANALYSIS)/report "$$run" || rc=1; exit $$rc

report:
	$(ANALYSIS)/report $(RUN)

plots:
	$(ANALYSIS)/analyze $(RUN)

security: deps
	$(MAKE) tree
	tests/security $(ARCH)

layout: deps
	$(MAKE) tree
	benchmarks/layout $(ARCH)

RUNS ?=
paper:
	paper/build $(if $(RUNS),--runs $(RUNS))

TUNE ?=
tune:
	$(ANALYSIS)/tune $(TUNE)

selftests: deps
	$(MAKE) tree
	SUBSET=$(SUBSET) tests/selftests $(ARCH) $(VARIANT)

CMP_SUFFIX := $(if $(filter 1,$(SUBSET)),-subset)
selftests-compare:
	out=results/selftests/compare-$(ARCH)-$(A)-$(B)$(CMP_SUFFIX).txt; rc=0; \
	python3 tests/selftests.py compare results/selftests/$(ARCH)-$(A)$(CMP_SUFFIX) \
		results/selftests/$(ARCH)-$(B)$(CMP_SUFFIX) >$$out || rc=$$?; \
	cat $$out; exit $$rc

check-series: tree
	$(MAKE) rootfs VARIANT=series
	vm/check-series --guest /tests/test_prog_run

check-arches: tree
	vm/check-arches

shellcheck:
	shellcheck -x $(SHELL_SCRIPTS)

checkpatch: tree
	vm/checkpatch
