// SPDX-License-Identifier: GPL-2.0
/*
 * Where a load's time goes, from kprobes on the kernel functions that do
 * each part (fentry on kernel functions does not exist on CFI arm64 6.12).
 * A probe hit costs a BRK exception, so the split is taken in rounds of its
 * own, never in the rounds that time whole loads.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "bench_probe.skel.h"

enum { P_CHECK, P_JIT, P_ALLOC, P_FINALIZE, P_FREE, P_ST_OPS, NPROBES };

static const char *const probe_funcs[NPROBES] = {
	[P_CHECK] = "bpf_check",			/* verification (+ JIT of subprograms) */
	[P_JIT] = "bpf_int_jit_compile",		/* every JIT pass */
	[P_ALLOC] = "bpf_jit_binary_pack_alloc",	/* pack chunk + writable buffer */
	[P_FINALIZE] = "bpf_jit_binary_pack_finalize",	/* copy into the ROX pack */
	[P_FREE] = "bpf_jit_free",			/* one per JITed function */
	[P_ST_OPS] = "bpf_struct_ops_prepare_trampoline",
};

static struct bench_probe *skel;
static struct bpf_link *links[2 * NPROBES];

int probes_attach(void)
{
	int i;

	skel = bench_probe__open_and_load();
	if (!skel)
		return -errno;
	for (i = 0; i < NPROBES; i++) {
		LIBBPF_OPTS(bpf_kprobe_opts, entry, .bpf_cookie = i);
		LIBBPF_OPTS(bpf_kprobe_opts, ret, .bpf_cookie = i, .retprobe = true);

		links[2 * i] = bpf_program__attach_kprobe_opts(skel->progs.on_entry,
							       probe_funcs[i], &entry);
		links[2 * i + 1] = bpf_program__attach_kprobe_opts(skel->progs.on_exit,
								   probe_funcs[i], &ret);
		if (!links[2 * i] || !links[2 * i + 1]) {
			int err = -errno;

			progress("kprobe on %s: %s", probe_funcs[i], strerror(-err));
			probes_detach();
			return err;
		}
	}
	return 0;
}

void probes_detach(void)
{
	int i;

	for (i = 0; i < 2 * NPROBES; i++) {
		bpf_link__destroy(links[i]);
		links[i] = NULL;
	}
	bench_probe__destroy(skel);
	skel = NULL;
}

void probes_reset(void)
{
	memset(skel->bss->total, 0, sizeof(skel->bss->total));
	memset(skel->bss->calls, 0, sizeof(skel->bss->calls));
}

void probes_read(struct probe_times *t)
{
	t->verify_ns = skel->bss->total[P_CHECK];
	t->jit_ns = skel->bss->total[P_JIT];
	t->alloc_ns = skel->bss->total[P_ALLOC];
	t->finalize_ns = skel->bss->total[P_FINALIZE];
	t->build_ns = skel->bss->total[P_ST_OPS];
}

double probes_wait_freed(unsigned int nr, double since_ns)
{
	double deadline = now_ns() + 5e9;

	/* Frees run after an RCU grace period, from a workqueue. */
	while (*(volatile __u64 *)&skel->bss->calls[P_FREE] < nr) {
		if (now_ns() > deadline)
			return -1;
		usleep(100);
	}
	return skel->bss->last_exit[P_FREE] - since_ns;
}
