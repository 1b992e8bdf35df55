// SPDX-License-Identifier: GPL-2.0
/*
 * Time kernel functions of a program load from kprobes: each attachment's
 * cookie is the function's index (bench/probe.c lists them). A kretprobe
 * adds the time since the matching entry to total[] and stamps last_exit[]
 * (bpf_ktime_get_ns() is the clock user space reads as CLOCK_MONOTONIC).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define NFUNCS 8

__u64 start[NFUNCS];
__u64 total[NFUNCS];
__u64 calls[NFUNCS];
__u64 last_exit[NFUNCS];

SEC("kprobe")
int on_entry(struct pt_regs *ctx)
{
	__u64 i = bpf_get_attach_cookie(ctx);

	if (i < NFUNCS)
		start[i] = bpf_ktime_get_ns();
	return 0;
}

SEC("kretprobe")
int on_exit(struct pt_regs *ctx)
{
	__u64 i = bpf_get_attach_cookie(ctx), now = bpf_ktime_get_ns();

	if (i >= NFUNCS)
		return 0;
	if (start[i])
		total[i] += now - start[i];
	start[i] = 0;
	calls[i]++;
	last_exit[i] = now;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
