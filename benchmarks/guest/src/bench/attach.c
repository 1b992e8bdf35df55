// SPDX-License-Identifier: GPL-2.0
/*
 * attach: how long attaching and detaching take. fentry and fexit on a BPF
 * program (trampoline build, text poke of the target's first instruction),
 * and the registration of a struct_ops map (a trampoline per member, then
 * the subsystem's registration). A program is loaded afresh for each round
 * (6.12 re-attaches a detached fentry program only to kernel functions), and
 * only the attach and the detach are in the measured windows.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_attach.skel.h"
#include "bench_calls.skel.h"
#include "bench_struct_ops.skel.h"

struct bench_attach *attach_prepare(enum attach_kind kind, int target_fd, const char *func)
{
	struct bench_attach *a = bench_attach__open();
	struct bpf_program *progs[3];
	int i, err;

	if (!a)
		fail("open bench_attach: %s", strerror(errno));
	progs[ATTACH_FENTRY] = a->progs.on_entry;
	progs[ATTACH_FEXIT] = a->progs.on_exit;
	progs[ATTACH_FREPLACE] = a->progs.new_replace_me;
	for (i = 0; i < 3; i++)
		bpf_program__set_autoload(progs[i], i == (int)kind);
	err = bpf_program__set_attach_target(progs[kind], target_fd, func);
	if (!err)
		err = bench_attach__load(a);
	if (err)
		fail("load bench_attach for %s: %s", func, strerror(-err));
	return a;
}

struct bpf_link *attach_link(struct bench_attach *a, enum attach_kind kind, int target_fd,
			     const char *func)
{
	switch (kind) {
	case ATTACH_FENTRY:
		return bpf_program__attach_trace(a->progs.on_entry);
	case ATTACH_FEXIT:
		return bpf_program__attach_trace(a->progs.on_exit);
	case ATTACH_FREPLACE:
		return bpf_program__attach_freplace(a->progs.new_replace_me, target_fd, func);
	}
	return NULL;
}

void attach_free(struct bench_attach *a)
{
	bench_attach__destroy(a);
}

static void attach_trampolines(const struct bench_opts *o, int target_fd)
{
	static const char *const names[] = { "fentry", "fexit" };
	int k, r;

	for (k = ATTACH_FENTRY; k <= ATTACH_FEXIT; k++) {
		progress("attach %s", names[k]);
		for (r = 0; r < o->warmup + o->rounds; r++) {
			struct bench_attach *a = attach_prepare(k, target_fd, "traced");
			struct bpf_link *l;
			double t0, t1, t2;

			t0 = now_ns();
			l = attach_link(a, k, target_fd, "traced");
			t1 = now_ns();
			if (!l)
				fail("attach %s: %s", names[k], strerror(errno));
			bpf_link__destroy(l);
			t2 = now_ns();
			row("attach", names[k], -1, "attach_ns", "ns", r, r < o->warmup, t1 - t0);
			row("attach", names[k], -1, "detach_ns", "ns", r, r < o->warmup, t2 - t1);
			attach_free(a);
		}
	}
}

static void attach_struct_ops(const struct bench_opts *o)
{
	int r;

	progress("attach struct_ops (tcp_congestion_ops)");
	for (r = 0; r < o->warmup + o->rounds; r++) {
		struct bench_struct_ops *s = bench_struct_ops__open();
		struct bpf_link *l;
		double t0, t1, t2;
		int err;

		if (!s)
			fail("open bench_struct_ops: %s", strerror(errno));
		err = bench_struct_ops__load(s);
		if (err)
			fail("load bench_struct_ops: %s", strerror(-err));
		t0 = now_ns();
		l = bpf_map__attach_struct_ops(ca_map(s));
		t1 = now_ns();
		if (!l)
			fail("register bench_ca: %s", strerror(errno));
		bpf_link__destroy(l);
		t2 = now_ns();
		row("attach", "struct_ops", -1, "attach_ns", "ns", r, r < o->warmup, t1 - t0);
		row("attach", "struct_ops", -1, "detach_ns", "ns", r, r < o->warmup, t2 - t1);
		bench_struct_ops__destroy(s);
	}
}

int bench_attach(const struct bench_opts *o)
{
	struct bench_calls *c = bench_calls__open_and_load();

	if (!c)
		fail("load bench_calls: %s", strerror(errno));
	attach_trampolines(o, bpf_program__fd(c->progs.traced));
	attach_struct_ops(o);
	bench_calls__destroy(c);
	fflush(stdout);
	return 0;
}
