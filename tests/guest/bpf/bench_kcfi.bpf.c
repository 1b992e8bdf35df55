// SPDX-License-Identifier: GPL-2.0
/* bpf_loop() with a callback the verifier keeps: one kCFI check per iteration. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct bench_args {
	__u64 flags;	/* 0, but not a constant to the verifier: no inlining */
	__u64 iters;
} args;

static long empty(__u64 i, void *ctx)
{
	return 0;
}

SEC("socket")
int loop_n(struct __sk_buff *skb)
{
	return bpf_loop(args.iters, empty, NULL, args.flags);
}

char LICENSE[] SEC("license") = "GPL";
