// SPDX-License-Identifier: GPL-2.0
/*
 * tlb: TLB and cache maintenance per operation. The TCG plugin
 * (benchmarks/plugin) counts TLBI, DSB, DMB, ISB, DC and IC instructions on
 * every vCPU and writes its totals each time a marker (bench.h: mark())
 * executes; each operation here runs between two markers, and its row
 * "mark_pair" names the pair (operation k: markers 2k and 2k+1), which the
 * host turns into counts. IPIs come from /proc/interrupts around the same
 * window. Operations:
 *   load_existing_pack / load_new_pack  a load, split by whether the number
 *        of 2 MiB packs grew (x: program size in instructions)
 *   fentry_attach   attach fentry to a BPF program (trampoline + text poke)
 *   struct_ops_reg  register a tcp_congestion_ops struct_ops map
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "bench_calls.skel.h"
#include "bench_struct_ops.skel.h"

static int pairs;

/* Run OP between two markers and report its pair and IPIs. */
#define MARKED(cas, x, r, op)						\
	do {								\
		double __i0 = ipi_count(), __i1;			\
		mark();							\
		op;							\
		mark();							\
		__i1 = ipi_count();					\
		row("tlb", cas, x, "mark_pair", "index", r, 0, pairs++); \
		row("tlb", cas, x, "ipi", "count", r, 0, __i1 - __i0);	\
	} while (0)

static void loads(int insns, int n)
{
	struct bpf_insn *p = gen_straight(insns);
	struct mem_snap before, after;
	int *fds = calloc(n, sizeof(*fds)), i, fd = -1;

	if (!fds)
		fail("out of memory");
	progress("tlb: %d loads of %d instructions", n, insns);
	for (i = 0; i < n; i++) {
		mem_snapshot(&before, NULL);
		mark();
		fd = load_insns(p, insns, NULL, 0);
		mark();
		mem_snapshot(&after, NULL);
		if (fd < 0)
			fail("tlb: load %d: %s", i, strerror(errno));
		fds[i] = fd;
		/* The snapshots' IPI counts bracket the load (reading them sends none). */
		row("tlb", after.packs > before.packs ? "load_new_pack" : "load_existing_pack",
		    insns, "mark_pair", "index", i, 0, pairs++);
		row("tlb", after.packs > before.packs ? "load_new_pack" : "load_existing_pack",
		    insns, "ipi", "count", i, 0, after.ipis - before.ipis);
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	free(p);
}

static void fentry_attach(const struct bench_opts *o)
{
	struct bench_calls *c = bench_calls__open_and_load();
	int fd, r;

	if (!c)
		fail("load bench_calls: %s", strerror(errno));
	fd = bpf_program__fd(c->progs.traced);
	progress("tlb: fentry attach");
	for (r = 0; r < o->rounds; r++) {
		struct bench_attach *a = attach_prepare(ATTACH_FENTRY, fd, "traced");
		struct bpf_link *l = NULL;

		MARKED("fentry_attach", -1, r, l = attach_link(a, ATTACH_FENTRY, fd, "traced"));
		if (!l)
			fail("attach fentry: %s", strerror(errno));
		bpf_link__destroy(l);
		attach_free(a);
	}
	bench_calls__destroy(c);
}

static void struct_ops_reg(const struct bench_opts *o)
{
	int r;

	progress("tlb: struct_ops registration");
	for (r = 0; r < o->rounds; r++) {
		struct bench_struct_ops *s = bench_struct_ops__open_and_load();
		struct bpf_link *l = NULL;

		if (!s)
			fail("load bench_struct_ops: %s", strerror(errno));
		MARKED("struct_ops_reg", -1, r, l = bpf_map__attach_struct_ops(ca_map(s)));
		if (!l)
			fail("register bench_ca: %s", strerror(errno));
		bpf_link__destroy(l);
		bench_struct_ops__destroy(s);
	}
}

int bench_tlb(const struct bench_opts *o)
{
	/* Small programs land in a pack already open; 4096-instruction ones
	 * (~16 KiB) fill a 2 MiB pack in about 120 loads, so 300 open new ones.
	 */
	loads(64, 2 * o->rounds);
	loads(4096, 300);
	fentry_attach(o);
	struct_ops_reg(o);
	fflush(stdout);
	return 0;
}
