/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest side of the benchmark suite (benchmarks/run). One program,
 * one workload per invocation; every sample is one CSV row on stdout:
 *
 *   workload,case,x,metric,unit,round,warmup,value
 *
 * The host adds the configuration, clock and boot columns. Nothing here
 * touches the host share: stdout goes to guest memory (tmpfs), so no host
 * I/O falls inside a measured window and icount runs stay identical.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <linux/bpf.h>

#define MAX_POINTS 32

struct bench_opts {
	int rounds;		/* measured rounds per point */
	int warmup;		/* rounds run first and flagged warmup=1 */
	int repeat;		/* BPF_PROG_TEST_RUN repeat count */
	int nsizes;		/* program sizes (instructions) for load */
	long sizes[MAX_POINTS];
	int nsubprogs;		/* subprogram counts for load */
	long subprogs[MAX_POINTS];
	int ncounts;		/* numbers of loaded programs for mem */
	long counts[MAX_POINTS];
	long large_max;		/* mem: the large class stops at this many (0: no limit) */
	int ncpus;		/* conc: CPU counts the loaders are bound to */
	long cpus[MAX_POINTS];
	const char *real_dir;	/* selftests objects for load, or NULL */
	bool split;		/* load: also the kprobe pass (verify/JIT/alloc/unload) */
};

/* One sample; x < 0 leaves the x column empty. */
void row(const char *workload, const char *cas, long x, const char *metric,
	 const char *unit, int round, bool warmup, double value);
double now_ns(void);
/* KEY of /sys/kernel/debug/bpf_jit/wp ("key: value" lines), or MISSING without it. */
double wp_value(const char *key, double missing);
/* Progress for long runs, on stderr (the console: guest-side, deterministic). */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Stop with a message naming what failed. */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * A marker for the TCG plugin (benchmarks/plugin): HINT #120 is a NOP on
 * the CPU; the plugin writes its cumulative counts each time one executes.
 */
static inline void mark(void)
{
	asm volatile(".inst 0xd5032f1f" ::: "memory");
}

/* Synthetic programs (gen.c): socket filters, returned insns are malloc'ed. */
struct bpf_insn *gen_straight(int n);
struct bpf_insn *gen_branchy(int n);
/* K subprograms of 16 instructions each, called once each; *cnt set. */
struct bpf_insn *gen_subprogs(int k, int *cnt);
/* Load a synthetic program; log (may be NULL) receives BPF_LOG_STATS. */
int load_insns(const struct bpf_insn *insns, int cnt, char *log, size_t log_size);
/* The JIT image size and number of JITed functions of a loaded program. */
int prog_jit_info(int fd, __u32 *jited_len, __u32 *nr_funcs);
/* "verification time N usec" of a BPF_LOG_STATS log, in ns, or -1. */
double log_verify_ns(const char *log);

/* Kernel-side split of a load, from kprobes (probe.c). */
struct probe_times {
	double verify_ns, jit_ns, alloc_ns, finalize_ns, build_ns;
};
int probes_attach(void);
void probes_detach(void);
void probes_reset(void);
void probes_read(struct probe_times *t);
/* Wait until the JIT has freed NR more images since probes_reset(); -1 on timeout. */
double probes_wait_freed(unsigned int nr, double since_ns);

/* Memory snapshot (mem.c), also used by tlb.c. */
struct mem_snap {
	double vmalloc_bytes;	/* vmalloc areas of the JIT (execmem, bpf_*) */
	double packs;		/* 2 MiB bpf_prog_pack areas */
	double prog_vmalloc_bytes;	/* struct bpf_prog areas */
	double slab_bytes, memfree_bytes;
	double ipis;		/* sum of the IPI lines of /proc/interrupts */
};
void mem_snapshot(struct mem_snap *s, const char *save_as);
double ipi_count(void);

int bench_load(const struct bench_opts *o);
int bench_call(const struct bench_opts *o);
int bench_attach(const struct bench_opts *o);
int bench_mem(const struct bench_opts *o);
int bench_tlb(const struct bench_opts *o);
int bench_fill(const struct bench_opts *o);
int bench_conc(const struct bench_opts *o);

#endif

/* Programs attached to bench_calls' traced and replace_me (attach.c). */
enum attach_kind { ATTACH_FENTRY, ATTACH_FEXIT, ATTACH_FREPLACE };
struct bench_attach;
/* Open and load the one program of KIND, targeting TARGET_FD's FUNC. */
struct bench_attach *attach_prepare(enum attach_kind kind, int target_fd, const char *func);
/* Attach it; NULL with errno on failure. */
struct bpf_link *attach_link(struct bench_attach *a, enum attach_kind kind, int target_fd,
			     const char *func);
void attach_free(struct bench_attach *a);

/*
 * The bench_ca struct_ops map of a bench_struct_ops skeleton. Debian 12's
 * bpftool (libbpf 1.1) leaves .struct_ops.link maps out of the skeleton's
 * maps, so it is found by name (the tree's libbpf opens it all the same).
 */
#define ca_map(skel) bpf_object__find_map_by_name((skel)->obj, "bench_ca")
