// SPDX-License-Identifier: GPL-2.0
/*
 * call: the cost of one call of each kind, each against the same program
 * with nothing attached or with fewer calls. BPF_PROG_TEST_RUN with
 * --repeat runs reports the mean time of one run (ns, rounded down); a cost
 * per call is the difference of two such figures divided by the difference
 * in calls, so the test-run loop itself cancels out:
 *   dispatcher   one run of an empty program (the dispatcher's indirect call)
 *   bpf_loop     per iteration of bpf_loop(1000) over bpf_loop(0)
 *   for_each     per element of bpf_for_each_map_elem, 1000 over 1
 *   tail_call    per tail call, 31 over 1
 *   bpf2bpf      per call of a kept subprogram, minus the same loop inlined
 *   fentry/fexit per run with the trampoline attached, minus without
 *   freplace     per run with the global function replaced, minus without
 *   struct_ops_test_run  one bpf_dummy_ops BPF_PROG_TEST_RUN from user
 *                space: trampoline build, one kCFI-checked call, free
 *   struct_ops_trampoline_build  of that, the trampoline build (--split)
 */
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_calls.skel.h"
#include "bench_struct_ops.skel.h"

#define ITERS 1000
#define TAIL_CALLS 30

static struct bench_calls *skel;
static int repeat;

/* Mean ns of one run of PROG over REPEAT runs; checks its return value. */
static double run(struct bpf_program *prog, __u64 iters, long want)
{
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = repeat);

	skel->bss->iters = iters;
	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &opts))
		fail("BPF_PROG_TEST_RUN %s: %s", bpf_program__name(prog), strerror(errno));
	if (want >= 0 && opts.retval != want)
		fail("%s with iters %llu returned %u, expected %ld", bpf_program__name(prog),
		     (unsigned long long)iters, opts.retval, want);
	return opts.duration;
}

static void per_call(const char *cas, const struct bench_opts *o, struct bpf_program *prog,
		     __u64 lo, long want_lo, __u64 hi, long want_hi)
{
	int r;

	progress("call %s", cas);
	for (r = 0; r < o->warmup + o->rounds; r++) {
		double d0 = run(prog, lo, want_lo), d1 = run(prog, hi, want_hi);

		row("call", cas, -1, "call_ns", "ns", r, r < o->warmup, (d1 - d0) / (hi - lo));
	}
}

static void bpf2bpf(const struct bench_opts *o)
{
	int r;

	progress("call bpf2bpf");
	for (r = 0; r < o->warmup + o->rounds; r++) {
		double kept = run(skel->progs.bpf2bpf, ITERS, ITERS) -
			      run(skel->progs.bpf2bpf, 0, 0);
		double inl = run(skel->progs.bpf2bpf_inline, ITERS, ITERS) -
			     run(skel->progs.bpf2bpf_inline, 0, 0);

		row("call", "bpf2bpf", -1, "call_ns", "ns", r, r < o->warmup, (kept - inl) / ITERS);
	}
}

static void attached(const struct bench_opts *o, enum attach_kind kind, const char *cas,
		     struct bpf_program *target, const char *func)
{
	int fd = bpf_program__fd(target), r;

	progress("call %s", cas);
	for (r = 0; r < o->warmup + o->rounds; r++) {
		struct bench_attach *a = attach_prepare(kind, fd, func);
		struct bpf_link *l;
		double d0, d1;

		d0 = run(target, 0, -1);
		l = attach_link(a, kind, fd, func);
		if (!l)
			fail("attach %s: %s", cas, strerror(errno));
		d1 = run(target, 0, -1);
		bpf_link__destroy(l);
		attach_free(a);
		row("call", cas, -1, "call_ns", "ns", r, r < o->warmup, d1 - d0);
	}
}

static void struct_ops(const struct bench_opts *o)
{
	struct bench_struct_ops *s = bench_struct_ops__open_and_load();
	int fd, r, pass;

	if (!s)
		fail("load bench_struct_ops: %s", strerror(errno));
	fd = bpf_program__fd(s->progs.test_1);
	for (pass = 0; pass < (o->split ? 2 : 1); pass++) {
		progress("call struct_ops%s", pass ? " (split)" : "");
		if (pass && probes_attach())
			fail("the split pass needs kprobes");
		for (r = 0; r < o->warmup + o->rounds; r++) {
			__u64 args[1] = { 0 };
			LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args,
				    .ctx_size_in = sizeof(args));
			struct probe_times t;
			double t0, t1;

			if (pass)
				probes_reset();
			t0 = now_ns();
			if (bpf_prog_test_run_opts(fd, &opts) || opts.retval != 0xf2f3f4f5)
				fail("bpf_dummy_ops test run: %s", strerror(errno));
			t1 = now_ns();
			if (!pass) {
				row("call", "struct_ops_test_run", -1, "call_ns", "ns", r,
				    r < o->warmup, t1 - t0);
				continue;
			}
			probes_read(&t);
			row("call", "struct_ops_trampoline_build", -1, "call_ns", "ns", r,
			    r < o->warmup, t.build_ns);
		}
		if (pass)
			probes_detach();
	}
	bench_struct_ops__destroy(s);
}

int bench_call(const struct bench_opts *o)
{
	__u32 zero = 0;
	int hop;

	repeat = o->repeat;
	skel = bench_calls__open_and_load();
	if (!skel)
		fail("load bench_calls: %s", strerror(errno));
	hop = bpf_program__fd(skel->progs.tc_hop);
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.jmp), &zero, &hop, BPF_ANY))
		fail("fill the tail call map: %s", strerror(errno));

	progress("call dispatcher");
	for (int r = 0; r < o->warmup + o->rounds; r++)
		row("call", "dispatcher", -1, "call_ns", "ns", r, r < o->warmup,
		    run(skel->progs.empty, 0, 0));
	per_call("bpf_loop", o, skel->progs.loop, 0, 0, ITERS, ITERS);
	per_call("for_each", o, skel->progs.for_each, 1, 1, ITERS, ITERS);
	per_call("tail_call", o, skel->progs.tc_entry, 0, 1, TAIL_CALLS, 1);
	bpf2bpf(o);
	attached(o, ATTACH_FENTRY, "fentry", skel->progs.traced, "traced");
	attached(o, ATTACH_FEXIT, "fexit", skel->progs.traced, "traced");
	attached(o, ATTACH_FREPLACE, "freplace", skel->progs.freplace_target, "replace_me");
	struct_ops(o);
	bench_calls__destroy(skel);
	fflush(stdout);
	return 0;
}
