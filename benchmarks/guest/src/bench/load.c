// SPDX-License-Identifier: GPL-2.0
/*
 * load: BPF_PROG_LOAD latency (load_ns), the verifier's own figure
 * (verify_log_ns, BPF_LOG_STATS, microsecond resolution), the JIT image
 * size, and the PMU's instructions and cycles where the guest has a PMU.
 * With --split, rounds of their own with kprobes attached say where the
 * time went (verify_ns, jit_ns, alloc_ns, finalize_ns) and how long the
 * JIT memory takes to come back after the last reference is dropped
 * (unload_ns: close() to the last bpf_jit_free() of the program).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"

#define LOG_SIZE (1 << 16)

/* Guest PMU counters of this thread, kernel included; -1 where absent. */
static int pmu_fd[2] = { -1, -1 };

static void pmu_open(void)
{
	static const __u64 events[2] = { PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES };
	int i;

	for (i = 0; i < 2; i++) {
		struct perf_event_attr a = {
			.type = PERF_TYPE_HARDWARE, .size = sizeof(a),
			.config = events[i], .exclude_hv = 1,
		};

		pmu_fd[i] = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (pmu_fd[i] < 0)
			progress("no PMU counter %d (%s): load_%s not recorded", i,
				 strerror(errno), i ? "cycles" : "instructions");
	}
}

static void pmu_read(double *v)
{
	int i;

	for (i = 0; i < 2; i++) {
		__u64 c = 0;

		if (pmu_fd[i] < 0 || read(pmu_fd[i], &c, sizeof(c)) != sizeof(c))
			v[i] = -1;
		else
			v[i] = c;
	}
}

/* Whole loads: nothing attached, nothing but the load in the window. */
static void time_loads(const char *cas, long x, const struct bpf_insn *p, int cnt,
		       const struct bench_opts *o, char *log)
{
	int r;

	for (r = 0; r < o->warmup + o->rounds; r++) {
		bool wu = r < o->warmup;
		double t0, t1, c0[2], c1[2], v;
		__u32 jited, nfuncs;
		int fd;

		pmu_read(c0);
		t0 = now_ns();
		fd = load_insns(p, cnt, log, LOG_SIZE);
		t1 = now_ns();
		pmu_read(c1);
		if (fd < 0)
			fail("load %s %ld: %s\n%s", cas, x, strerror(errno), log);
		row("load", cas, x, "load_ns", "ns", r, wu, t1 - t0);
		if (c0[0] >= 0)
			row("load", cas, x, "load_instructions", "count", r, wu, c1[0] - c0[0]);
		if (c0[1] >= 0)
			row("load", cas, x, "load_cycles", "count", r, wu, c1[1] - c0[1]);
		v = log_verify_ns(log);
		if (v >= 0)
			row("load", cas, x, "verify_log_ns", "ns", r, wu, v);
		if (!prog_jit_info(fd, &jited, &nfuncs))
			row("load", cas, x, "jited_bytes", "bytes", r, wu, jited);
		close(fd);
	}
}

/* The kprobe pass: where the time of a load goes, and the unload. */
static void split_loads(const char *cas, long x, const struct bpf_insn *p, int cnt,
			const struct bench_opts *o, char *log)
{
	int r;

	for (r = 0; r < o->warmup + o->rounds; r++) {
		bool wu = r < o->warmup;
		struct probe_times t;
		__u32 jited, nfuncs;
		double t_close, u;
		int fd;

		probes_reset();
		fd = load_insns(p, cnt, NULL, 0);
		if (fd < 0)
			fail("load %s %ld: %s", cas, x, strerror(errno));
		probes_read(&t);
		if (prog_jit_info(fd, &jited, &nfuncs))
			fail("BPF_OBJ_GET_INFO_BY_FD: %s", strerror(errno));
		row("load", cas, x, "verify_ns", "ns", r, wu, t.verify_ns);
		row("load", cas, x, "jit_ns", "ns", r, wu, t.jit_ns);
		row("load", cas, x, "alloc_ns", "ns", r, wu, t.alloc_ns);
		row("load", cas, x, "finalize_ns", "ns", r, wu, t.finalize_ns);
		t_close = now_ns();
		close(fd);
		u = probes_wait_freed(nfuncs, t_close);
		if (u < 0)
			fail("%s %ld: the JIT freed fewer than %u images within 5 s", cas, x, nfuncs);
		row("load", cas, x, "unload_ns", "ns", r, wu, u);
	}
}

static void each_point(const struct bench_opts *o, bool split)
{
	char *log = malloc(LOG_SIZE);
	int i, cnt;

	if (!log)
		fail("out of memory");
	for (i = 0; i < o->nsizes; i++) {
		static const char *const kinds[] = { "straight", "branchy" };
		int k;

		for (k = 0; k < 2; k++) {
			struct bpf_insn *p = k ? gen_branchy(o->sizes[i]) : gen_straight(o->sizes[i]);

			progress("load %s %ld insns%s", kinds[k], o->sizes[i], split ? " (split)" : "");
			if (split)
				split_loads(kinds[k], o->sizes[i], p, o->sizes[i], o, log);
			else
				time_loads(kinds[k], o->sizes[i], p, o->sizes[i], o, log);
			free(p);
		}
	}
	for (i = 0; i < o->nsubprogs; i++) {
		struct bpf_insn *p = gen_subprogs(o->subprogs[i], &cnt);

		progress("load %ld subprograms%s", o->subprogs[i], split ? " (split)" : "");
		if (split)
			split_loads("subprogs", o->subprogs[i], p, cnt, o, log);
		else
			time_loads("subprogs", o->subprogs[i], p, cnt, o, log);
		free(p);
	}
	free(log);
}

/*
 * Real programs: selftests objects loaded by libbpf, one program each (its
 * maps and BTF come with it; benchmarks/guest/real-programs names them). The load
 * time is that of the program's own BPF_PROG_LOAD: libbpf's syscall() is wrapped (-Wl,--wrap=syscall, see
 * ldflags) to time it, so map creation and BTF upload stay out.
 */
long __real_syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
static double last_prog_load_ns;
static bool wrap_timing;	/* only real_loads() pays for the clock reads */

/* AAPCS64 passes variadic integer arguments as fixed ones: this is syscall(). */
long __wrap_syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	double t0;
	long ret;

	if (!wrap_timing || nr != SYS_bpf || a1 != BPF_PROG_LOAD)
		return __real_syscall(nr, a1, a2, a3, a4, a5, a6);
	t0 = now_ns();
	ret = __real_syscall(nr, a1, a2, a3, a4, a5, a6);
	if (ret >= 0)
		last_prog_load_ns = now_ns() - t0;
	return ret;
}

/* One program of each object named in DIR/programs ("object program" lines). */
static void real_loads(const struct bench_opts *o)
{
	char list[512], object[128], name[128];
	FILE *f;

	snprintf(list, sizeof(list), "%s/programs", o->real_dir);
	f = fopen(list, "r");
	if (!f)
		fail("--real: %s: %s", list, strerror(errno));
	while (fscanf(f, "%127s %127s", object, name) == 2) {
		char path[512], cas[160];
		int r;

		snprintf(path, sizeof(path), "%s/%s.bpf.o", o->real_dir, object);
		snprintf(cas, sizeof(cas), "real:%s", object);
		progress("load %s", cas);
		for (r = 0; r < o->warmup + o->rounds; r++) {
			struct bpf_object *obj = bpf_object__open_file(path, NULL);
			struct bpf_program *prog, *target = NULL;
			__u32 jited, nfuncs;
			int err;

			if (!obj)
				fail("%s: %s", path, strerror(errno));
			bpf_object__for_each_program(prog, obj) {
				bool it = !strcmp(bpf_program__name(prog), name);

				bpf_program__set_autoload(prog, it);
				if (it)
					target = prog;
			}
			if (!target)
				fail("%s has no program %s (%s)", path, name, list);
			last_prog_load_ns = -1;
			wrap_timing = true;
			err = bpf_object__load(obj);
			wrap_timing = false;
			if (err)
				fail("%s: load %s: %s", path, name, strerror(-err));
			row("load", cas, -1, "load_ns", "ns", r, r < o->warmup, last_prog_load_ns);
			if (!prog_jit_info(bpf_program__fd(target), &jited, &nfuncs))
				row("load", cas, -1, "jited_bytes", "bytes", r, r < o->warmup, jited);
			bpf_object__close(obj);
		}
	}
	fclose(f);
}

int bench_load(const struct bench_opts *o)
{
	pmu_open();
	each_point(o, false);
	if (o->real_dir)
		real_loads(o);
	if (o->split) {
		int err = probes_attach();

		if (err)
			fail("the split pass needs kprobes: %s", strerror(-err));
		usleep(200000);		/* let earlier frees finish */
		each_point(o, true);
		probes_detach();
	}
	fflush(stdout);
	return 0;
}
